import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const HEADER = 'First Name,Last Name,URL,Email Address,Company,Position,Connected On';
const exportFile = (rows: string[]) => ['Notes:', '"Some emails are missing."', '', HEADER, ...rows].join('\r\n');

function upload(token: string, content: string, filename = 'Connections.csv') {
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
    url: '/api/linkedin/command/upload-connections',
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

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
});
