import type { TContactsPage, TJobChanges } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../../test/harness.ts';
import { recomputeDirty } from '../../../graph/graph.service.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const HEADER = 'First Name,Last Name,URL,Email Address,Company,Position,Connected On';
const exportFile = (rows: string[]) => ['Notes:', '"Some emails are missing."', '', HEADER, ...rows].join('\r\n');

function upload(
  token: string,
  content: string,
  filename = 'Connections.csv',
  url = '/api/linkedin/command/upload-connections',
) {
  const boundary = '----warmpath-test';
  const body = [
    `--${boundary}`,
    `Content-Disposition: form-data; name="file"; filename="${filename}"`,
    'Content-Type: text/csv',
    '',
    content,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

describe('company names', () => {
  it('are one company however they are written: case, accents, punctuation and legal forms', async () => {
    const keys = await ctx.database.db.execute<{ name: string; key: string | null }>(sql`
      select name, company_key(name) as key from unnest(${sql.param([
        'Acme, Inc.',
        'ACME',
        'acme inc',
        'Société Générale S.A.',
        'societe generale',
        'Globex Corporation',
        'Globex GmbH & Co. KG',
        'Initech Holdings Ltd',
        'The Boring Company',
        '  ',
      ])}::text[]) as name`);
    expect(Object.fromEntries(keys.rows.map((row) => [row.name, row.key]))).toEqual({
      'Acme, Inc.': 'acme',
      ACME: 'acme',
      'acme inc': 'acme',
      'Société Générale S.A.': 'societe generale',
      'societe generale': 'societe generale',
      'Globex Corporation': 'globex',
      'Globex GmbH & Co. KG': 'globex gmbh co kg',
      'Initech Holdings Ltd': 'initech holdings',
      'The Boring Company': 'the boring',
      '  ': null,
    });
  });
});

describe('POST /linkedin/command/upload-connections', () => {
  it('imports connections, reports bad lines, and marks LinkedIn as connected', async () => {
    const admin = await ctx.registerAdmin();
    const response = await upload(
      admin.token,
      exportFile([
        'Zoë,Müller,https://www.linkedin.com/in/zoe-muller,,"Acme, Inc.",Head of Sales,07 Dec 2025',
        'Jean,Dupont,https://www.linkedin.com/in/jean-dupont,jean@dupont.test,Dupont,CEO,15 Jan 2019',
        'No,Profile,https://example.test/no,,,,',
      ]),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      imported: 2,
      rejected: [{ line: 7, reason: expect.stringContaining('LinkedIn') }],
      rejectedCount: 1,
    });
    const me = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(admin.token) });
    expect(me.json().isLinkedinConnected).toBe(true);
  });

  it('adds and updates on a newer export, never duplicates, and merges people known by e-mail', async () => {
    const admin = await ctx.registerAdmin();
    const workspaceId = admin.me.workspaceId;
    await ctx.database.inWorkspace(workspaceId, (tx) =>
      tx.execute(
        `insert into people (workspace_id, full_name, email) values ('${workspaceId}', 'Jean D.', 'jean@dupont.test')`,
      ),
    );
    const first = exportFile([
      'Jean,Dupont,https://www.linkedin.com/in/jean-dupont,jean@dupont.test,Dupont,CEO,15 Jan 2019',
      'Zoë,Müller,https://www.linkedin.com/in/zoe-muller,,Acme,Sales,07 Dec 2025',
    ]);
    expect((await upload(admin.token, first)).json().imported).toBe(2);
    const newer = exportFile([
      'Jean,Dupont,https://www.linkedin.com/in/jean-dupont/,jean@dupont.test,Dupont,Chairman,15 Jan 2019',
      'Zoë,Müller,https://www.linkedin.com/in/zoe-muller,,Acme,Sales,07 Dec 2025',
      'Ana,Silva,https://www.linkedin.com/in/ana-silva,,Beta,CTO,01 Feb 2026',
    ]);
    expect((await upload(admin.token, newer)).json().imported).toBe(3);

    const rows = await ctx.database.inWorkspace(workspaceId, (tx) =>
      tx.execute(`select p.full_name, p.email, p.title, p.linkedin_url
                    from people p join linkedin_connections c on c.person_id = p.id and c.workspace_id = p.workspace_id
                   order by p.full_name`),
    );
    expect(rows.rows).toEqual([
      { full_name: 'Ana Silva', email: null, title: 'CTO', linkedin_url: 'https://www.linkedin.com/in/ana-silva' },
      {
        full_name: 'Jean Dupont',
        email: 'jean@dupont.test',
        title: 'Chairman',
        linkedin_url: 'https://www.linkedin.com/in/jean-dupont',
      },
      { full_name: 'Zoë Müller', email: null, title: 'Sales', linkedin_url: 'https://www.linkedin.com/in/zoe-muller' },
    ]);
    const people = await ctx.database.inWorkspace(workspaceId, (tx) =>
      tx.execute('select count(*)::int as n from people where linkedin_url is not null'),
    );
    expect(people.rows[0]).toEqual({ n: 3 });
  });

  it('joins a connection without an address to the person the mail knows by that name at that company', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    // What a mailbox leaves: people by their work address, at the company of its domain.
    await ctx.database.inWorkspace(ws, async (tx) => {
      await tx.execute(sql`insert into companies (workspace_id, name, domain, name_source) values
        (${ws}, 'Acmerobotics', 'acmerobotics.io', 'domain'), (${ws}, 'Globex', 'globex.test', 'contacts'),
        (${ws}, 'Initech', 'initech.test', 'domain')`);
      await tx.execute(sql`insert into people (workspace_id, full_name, email, company_id)
        select ${ws}, v.name, v.email, c.id from (values
          ('Grace Hopper', 'grace@acmerobotics.io', 'acmerobotics.io'),
          ('José Pérez', 'jose@globex.test', 'globex.test'),
          ('Anna Müller', 'anna.m@initech.test', 'initech.test'),
          ('Anna Müller', 'anna.mueller@initech.test', 'initech.test'),
          ('Alan Turing', 'alan@initech.test', 'initech.test')) as v(name, email, domain)
        join companies c on c.workspace_id = ${ws} and c.domain = v.domain`);
    });
    const file = exportFile([
      // Named as LinkedIn writes the company, which the domain squashes to.
      'Grace,Hopper,https://www.linkedin.com/in/grace,,Acme Robotics,CTO,07 Dec 2025',
      // Words in another order, without accents, the company with its legal form.
      'Perez,Jose,https://www.linkedin.com/in/jose,,"Globex, Inc.",Buyer,07 Dec 2025',
      // Two people of that name there: which one is not for us to guess.
      'Anna,Müller,https://www.linkedin.com/in/anna,,Initech,Engineer,07 Dec 2025',
      // The same name at another company is someone else.
      'Alan,Turing,https://www.linkedin.com/in/alan,,Bletchley Park,Cryptanalyst,07 Dec 2025',
    ]);
    expect((await upload(admin.token, file)).json().imported).toBe(4);

    const { rows } = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ email: string | null; linkedin_url: string | null; company: string | null }>(sql`
        select p.email, p.linkedin_url, c.name as company from people p left join companies c on c.id = p.company_id
         where p.workspace_id = ${ws} and p.email is distinct from ${admin.email} order by p.linkedin_url, p.email`),
    );
    expect(rows).toEqual([
      { email: null, linkedin_url: 'https://www.linkedin.com/in/alan', company: 'Bletchley Park' },
      { email: null, linkedin_url: 'https://www.linkedin.com/in/anna', company: 'Initech' },
      { email: 'grace@acmerobotics.io', linkedin_url: 'https://www.linkedin.com/in/grace', company: 'Acme Robotics' },
      // LinkedIn names the company as its people write it.
      { email: 'jose@globex.test', linkedin_url: 'https://www.linkedin.com/in/jose', company: 'Globex, Inc.' },
      { email: 'alan@initech.test', linkedin_url: null, company: 'Initech' },
      { email: 'anna.m@initech.test', linkedin_url: null, company: 'Initech' },
      { email: 'anna.mueller@initech.test', linkedin_url: null, company: 'Initech' },
    ]);
  });

  it('refuses a file that is not a LinkedIn export, or not a CSV', async () => {
    const admin = await ctx.registerAdmin();
    const wrong = await upload(admin.token, 'name,email\nA,a@b.test\n');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      code: 'FILE_UNREADABLE',
      message: expect.stringMatching(/not a LinkedIn Connections.csv/),
    });
    const notCsv = await upload(admin.token, exportFile([]), 'Connections.xlsx');
    expect(notCsv.statusCode).toBe(400);
    expect(notCsv.json()).toEqual({ code: 'FILE_INVALID', message: 'File type must be text/csv,.csv' });
  });

  it('places connections at their company, and a newer export that shows another company is a job change', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    // A known company, with its domain (an imported account, say), under another spelling.
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`insert into companies (workspace_id, domain, name) values (${ws}, 'globex.test', 'Globex')`),
    );
    const first = await upload(
      admin.token,
      exportFile([
        'Hank,Scorpio,https://www.linkedin.com/in/hank,,"Globex Corporation",CEO,07 Dec 2025',
        'Ada,Byron,https://www.linkedin.com/in/ada-byron,,"Analytical Engines Ltd.",Engineer,07 Dec 2025',
      ]),
    );
    expect(first.statusCode).toBe(200);
    const whereabouts = () =>
      ctx.database.inWorkspace(ws, async (tx) => {
        const rows = await tx.execute<{
          name: string;
          company: string | null;
          domain: string | null;
          title: string | null;
          employments: string;
        }>(sql`
          select p.full_name as name, co.name as company, co.domain, p.title,
                 (select string_agg(c2.name || ':' || e.source || ':' || coalesce(e.ended_on::text, 'now'), ', ' order by e.ended_on nulls last)
                    from employments e join companies c2 on c2.workspace_id = e.workspace_id and c2.id = e.company_id
                   where e.workspace_id = p.workspace_id and e.person_id = p.id) as employments
            from people p left join companies co on co.workspace_id = p.workspace_id and co.id = p.company_id
           where p.workspace_id = ${ws} and p.linkedin_url is not null order by p.full_name`);
        return rows.rows;
      });
    expect(await whereabouts()).toEqual([
      {
        name: 'Ada Byron',
        company: 'Analytical Engines Ltd.',
        domain: null,
        title: 'Engineer',
        employments: 'Analytical Engines Ltd.:linkedin:now',
      },
      {
        name: 'Hank Scorpio',
        company: 'Globex',
        domain: 'globex.test',
        title: 'CEO',
        employments: 'Globex:linkedin:now',
      },
    ]);

    // The same export again changes nothing; a newer one shows Ada elsewhere.
    await upload(
      admin.token,
      exportFile([
        'Hank,Scorpio,https://www.linkedin.com/in/hank,,"Globex Corporation",CEO,07 Dec 2025',
        'Ada,Byron,https://www.linkedin.com/in/ada-byron,,"Analytical Engines Ltd.",Engineer,07 Dec 2025',
      ]),
    );
    const jobChanges = () =>
      ctx.database.inWorkspace(
        ws,
        async (tx) =>
          (
            await tx.execute(
              sql`select past_company_name, new_company_name, source, confidence from job_changes where workspace_id = ${ws}`,
            )
          ).rows,
      );
    expect(await jobChanges()).toEqual([]);
    // The team tracks Ada as a client, at the company she was at.
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`insert into clients (workspace_id, person_id, source, track_job_changes, company_id_at_import)
                     select ${ws}::uuid, id, 'manual', true, company_id from people
                      where workspace_id = ${ws} and linkedin_url = 'https://www.linkedin.com/in/ada-byron'`),
    );
    await upload(
      admin.token,
      exportFile([
        'Hank,Scorpio,https://www.linkedin.com/in/hank,,"GLOBEX, Inc.",CEO,07 Dec 2025',
        'Ada,Byron,https://www.linkedin.com/in/ada-byron,,Difference Engines,Principal Engineer,07 Dec 2025',
      ]),
    );
    expect(await jobChanges()).toEqual([
      {
        past_company_name: 'Analytical Engines Ltd.',
        new_company_name: 'Difference Engines',
        source: 'linkedin',
        confidence: 'certain',
      },
    ]);
    const [ada, hank] = await whereabouts();
    expect(ada).toMatchObject({ company: 'Difference Engines', title: 'Principal Engineer' });
    expect(ada?.employments).toMatch(
      /^Analytical Engines Ltd\.:linkedin:\d{4}-\d{2}-\d{2}, Difference Engines:linkedin:now$/,
    );
    // 'GLOBEX, Inc.' is the same Globex: no change.
    expect(hank).toMatchObject({ company: 'Globex', employments: 'Globex:linkedin:now' });
    // The tracked client now at another company is a past client, with both companies named.
    await recomputeDirty(ctx.database, ws);
    const page = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query',
      headers: bearer(admin.token),
      payload: { filters: [{ name: 'signal', values: ['PAST_CLIENT'] }] },
    });
    expect(
      page
        .json<TContactsPage>()
        .rows.map((row) => [row.name, row.signals.find((signal) => signal.type === 'PAST_CLIENT')?.metadata]),
    ).toEqual([['Ada Byron', { pastCompanyName: 'Analytical Engines Ltd.', newCompanyName: 'Difference Engines' }]]);

    // The Job changes page lists it for admins, the tracked client flagged.
    const listed = await ctx.app.inject({
      url: '/api/clients/query/job-changes?recentDays=30',
      headers: bearer(admin.token),
    });
    expect(listed.json<TJobChanges>().changes).toEqual([
      {
        id: expect.any(String),
        person: { id: expect.any(String), name: 'Ada Byron' },
        pastCompanyName: 'Analytical Engines Ltd.',
        newCompanyName: 'Difference Engines',
        changedOn: new Date().toISOString().slice(0, 10),
        source: 'linkedin',
        confidence: 'certain',
        tracked: true,
        // The connection said so itself: nothing for an admin to decide.
        status: 'confirmed',
      },
    ]);
    const member = await ctx.addUser(ws, 'member', admin.domain);
    expect(
      (await ctx.app.inject({ url: '/api/clients/query/job-changes', headers: bearer(member.token) })).statusCode,
    ).toBe(403);

    // Another workspace sees none of it.
    const other = await ctx.registerAdmin();
    const theirs = await ctx.database.inWorkspace(other.me.workspaceId, (tx) =>
      tx.execute(sql`select count(*)::int as n from job_changes`),
    );
    expect(theirs.rows).toEqual([{ n: 0 }]);
  });

  it("takes the member's own history from Positions.csv, and finds the colleagues-in-time it implies", async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    await upload(
      admin.token,
      exportFile([
        'Hank,Scorpio,https://www.linkedin.com/in/hank,,Globex,CEO,07 Dec 2025',
        'Ada,Byron,https://www.linkedin.com/in/ada-byron,,Initech,Engineer,07 Dec 2025',
      ]),
    );
    const positions = (content: string) =>
      upload(admin.token, content, 'Positions.csv', '/api/linkedin/command/upload-positions');
    const history = [
      'Company Name,Title,Description,Location,Started On,Finished On',
      'Globex Corporation,VP Sales,,Paris,Mar 2019,',
      'Initech,Account Executive,,,Jan 2015,Feb 2019',
      ',Nobody,,,Jan 2015,Feb 2019',
    ].join('\r\n');
    const answered = await positions(history);
    expect(answered.json()).toEqual({
      imported: 2,
      rejected: [{ line: 4, reason: 'The company name is empty' }],
      rejectedCount: 1,
    });
    // Uploading it again replaces it: nothing doubles.
    expect((await positions(history)).json()).toMatchObject({ imported: 2 });
    const mine = await ctx.database.inWorkspace(
      ws,
      async (tx) =>
        (
          await tx.execute(sql`
          select c.name, e.title, e.started_on::text, e.ended_on::text from employments e
            join companies c on c.workspace_id = e.workspace_id and c.id = e.company_id
            join people p on p.workspace_id = e.workspace_id and p.id = e.person_id
           where e.workspace_id = ${ws} and p.email = ${admin.email} order by e.started_on`)
        ).rows,
    );
    expect(mine).toEqual([
      { name: 'Initech', title: 'Account Executive', started_on: '2015-01-01', ended_on: '2019-02-01' },
      { name: 'Globex', title: 'VP Sales', started_on: '2019-03-01', ended_on: null },
    ]);

    await recomputeDirty(ctx.database, ws);
    const page = await ctx.app.inject({
      method: 'POST',
      url: '/api/contacts/query',
      headers: bearer(admin.token),
      payload: { filters: [] },
    });
    const signalsOf = (name: string) =>
      page
        .json<TContactsPage>()
        .rows.find((row) => row.name === name)
        ?.signals.map((signal) => signal.type) ?? [];
    // Hank is at Globex now, where the admin is: colleagues since at least today. Ada is at Initech
    // now, which the admin left in 2019: nothing says they were there together.
    expect(signalsOf('Hank Scorpio')).toContain('WORKED_WITH_COLLEAGUE');
    expect(signalsOf('Ada Byron')).not.toContain('WORKED_WITH_COLLEAGUE');

    const refused = await positions('First Name,Last Name\nA,B');
    expect(refused.statusCode).toBe(422);
  });
});
