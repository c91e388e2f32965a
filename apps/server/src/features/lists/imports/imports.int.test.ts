import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CSV_TEMPLATES,
  IMPORT_KINDS,
  IMPORT_MERGE_STEPS,
  type ImportKind,
  type TAccountsPage,
  type TClientsPage,
  type TCrmClientsPage,
  type TImportStatus,
  VALIDATION,
} from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../../test/harness.ts';
import { multipartBody } from '../../../../test/multipart.ts';
import { createEventRecorder } from '../../../events/record.ts';
import { recordInteractions } from '../../../graph/evidence.repo.ts';
import {
  completeImport,
  failStuckImports,
  findImport,
  insertImport,
  STUCK_IMPORT_ERROR,
  updateProgress,
} from './imports.repo.ts';
import { IMPORT_FAILED_ERROR, INTERRUPTED_ERROR, mergeHandedOverImport } from './imports.service.ts';
import { mergeRow } from './merge.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const UPLOADS = {
  accounts: '/api/accounts/command/upload-accounts',
  clients: '/api/clients/command/upload-clients',
  'crm-clients': '/api/crm-clients/command/upload-crm-clients',
} as const;

function upload(
  token: string,
  kind: keyof typeof UPLOADS,
  content: string | Buffer,
  options: { fields?: Record<string, string>; importId?: string; filename?: string } = {},
) {
  const { body, contentType } = multipartBody(options.fields ?? {}, [
    { filename: options.filename ?? 'list.csv', content },
  ]);
  const query = options.importId ? `?importId=${options.importId}` : '';
  return ctx.app.inject({
    method: 'POST',
    url: `${UPLOADS[kind]}${query}`,
    headers: { ...bearer(token), 'content-type': contentType },
    payload: body,
  });
}

const get = <T>(token: string, url: string) =>
  ctx.app.inject({ url, headers: bearer(token) }).then((response) => ({ response, body: response.json<T>() }));

const clientsCsv = (rows: string[]) => [CSV_TEMPLATES.clients.columns.join(','), ...rows].join('\r\n');
const person = (n: number, domain: string, extra = ',,') =>
  `First${n},Last${n},p${n}@${domain},Company ${n},${domain},https://www.linkedin.com/in/person-${n}-${domain}${extra}`;

describe('a multipart form', () => {
  it('refuses a flag sent after the file, rather than importing without it', async () => {
    const admin = await ctx.registerAdmin();
    const domain = ctx.uniqueDomain();
    const boundary = '----warmpath-flag-after-file';
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="allies.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      `${clientsCsv([person(1, domain)])}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="mapNetwork"\r\n\r\ntrue\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const response = await ctx.app.inject({
      method: 'POST',
      url: UPLOADS.clients,
      headers: { ...bearer(admin.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'mapNetwork must come before the file' });
    const clients = await get<TClientsPage>(admin.token, '/api/clients/query');
    expect(clients.body.rows).toEqual([]);
  });
});

describe('accounts upload', () => {
  it('imports companies once, whatever the header case, spacing, extra columns or line endings', async () => {
    const admin = await ctx.registerAdmin();
    const [a, b] = [ctx.uniqueDomain(), ctx.uniqueDomain()];
    const file = `\uFEFFCOMPANY NAME ,Notes,companydomain\n"Acme, Inc.","said ""hi""\nthere",https://${a}/\r\nBeta,,${b}\r\n\r\n\n`;
    const first = await upload(admin.token, 'accounts', file);
    expect(first.statusCode).toBe(200);
    expect(first.json<TImportStatus>()).toMatchObject({
      kind: 'accounts',
      status: 'completed',
      rowsProcessed: 2,
      added: 2,
      updated: 0,
      skipped: 0,
      rejected: 0,
      rejectedRowsUrl: null,
      error: null,
    });
    const { body } = await get<TAccountsPage>(admin.token, '/api/accounts/query');
    expect(body.rows.map((row) => [row.name, row.domain])).toEqual([
      ['Acme, Inc.', a],
      ['Beta', b],
    ]);
    expect(body.pagination).toEqual({ page: 1, pageSize: 30, totalCount: 2, totalPages: 1 });

    const again = await upload(admin.token, 'accounts', file);
    expect(again.json<TImportStatus>()).toMatchObject({ status: 'completed', added: 0, updated: 0, skipped: 2 });
    expect((await get<TAccountsPage>(admin.token, '/api/accounts/query')).body.pagination.totalCount).toBe(2);
  });

  it('keeps backslashes and tabs as written, and shows a NUL as a replacement character', async () => {
    const admin = await ctx.registerAdmin();
    const domain = ctx.uniqueDomain();
    const response = await upload(admin.token, 'accounts', `Company name,Company domain\nA\\B\tC\u0000D,${domain}\n`);
    expect(response.json<TImportStatus>()).toMatchObject({ status: 'completed', added: 1 });
    const { body } = await get<TAccountsPage>(admin.token, '/api/accounts/query');
    expect(body.rows.map((row) => row.name)).toEqual(['A\\B\tC\uFFFDD']);
  });

  it('refuses a file without a usable header, and says why on the import too', async () => {
    const admin = await ctx.registerAdmin();
    const importId = randomUUID();
    const response = await upload(admin.token, 'accounts', 'Name only\nAcme\n', { importId });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ code: 'FILE_UNREADABLE', message: expect.stringContaining('no usable header') });
    const { body } = await get<TImportStatus>(admin.token, `/api/imports/query/${importId}`);
    expect(body).toMatchObject({ status: 'failed', error: expect.stringContaining('"Company domain"') });
    const empty = await upload(admin.token, 'accounts', '\r\n\r\n');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().code).toBe('FILE_UNREADABLE');
  });

  it('refuses files that are not CSV, and a second file', async () => {
    const admin = await ctx.registerAdmin();
    const wrongType = await upload(admin.token, 'accounts', 'Company name,Company domain\n', { filename: 'list.xlsx' });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toEqual({ code: 'FILE_INVALID', message: 'File type must be text/csv,.csv' });
    const { body, contentType } = multipartBody({}, [
      { filename: 'a.csv', content: `Company name,Company domain\nA,${ctx.uniqueDomain()}\n` },
      { filename: 'b.csv', content: `Company name,Company domain\nB,${ctx.uniqueDomain()}\n` },
    ]);
    const two = await ctx.app.inject({
      method: 'POST',
      url: UPLOADS.accounts,
      headers: { ...bearer(admin.token), 'content-type': contentType },
      payload: body,
    });
    expect(two.statusCode).toBe(400);
    expect(two.json()).toEqual({ code: 'FILE_INVALID', message: 'Too many files' });
    expect((await get<TAccountsPage>(admin.token, '/api/accounts/query')).body.rows).toEqual([]);
  });
});

describe('clients upload', () => {
  it('imports good rows, reports bad ones by line and reason, and a second upload changes nothing', async () => {
    const admin = await ctx.registerAdmin();
    const domain = ctx.uniqueDomain();
    const file = clientsCsv([
      person(1, domain, `,${admin.email},Client`),
      'Bad,Row,not-an-email,Company,acme.test,https://www.linkedin.com/in/bad,,',
      person(2, domain),
      `First3,Last3,p3@${domain},Company 3,${domain},https://twitter.com/p3,,`,
      person(1, domain, ',,Duplicate'),
    ]);
    const fields = { mapNetwork: 'true', trackJobChanges: 'false' };
    const first = await upload(admin.token, 'clients', file, { fields });
    expect(first.statusCode).toBe(200);
    const status = first.json<TImportStatus>();
    expect(status).toMatchObject({
      status: 'completed',
      rowsProcessed: 5,
      added: 2,
      updated: 0,
      skipped: 1,
      rejected: 2,
    });

    const rejected = await ctx.app.inject({ url: status.rejectedRowsUrl ?? '', headers: bearer(admin.token) });
    expect(rejected.headers['content-type']).toContain('text/csv');
    expect(rejected.body).toBe(`line,reason\r\n3,${VALIDATION.emailInvalid}\r\n5,${VALIDATION.linkedinInvalid}\r\n`);

    const allies = await get<TClientsPage>(admin.token, '/api/clients/query/allies-to-map-network-from');
    expect(allies.body.pagination.totalCount).toBe(2);
    const first1 = allies.body.rows.find((row) => row.email === `p1@${domain}`);
    expect(first1).toMatchObject({
      firstName: 'First1',
      lastName: 'Last1',
      companyName: 'Company 1',
      companyDomain: domain,
      linkedinUrl: `https://www.linkedin.com/in/person-1-${domain}`,
      contactOwner: admin.email,
      tag: 'Client',
      source: 'csv',
      mapNetwork: true,
      trackJobChanges: false,
      engagement: 'NEVER_MET',
      proximity: 0,
      detailedClientData: { clientFullName: 'First1 Last1', clientCompanyName: 'Company 1' },
    });
    const tracked = await get<TClientsPage>(admin.token, '/api/clients/query/clients-for-job-changes-tracking');
    expect(tracked.body.rows).toEqual([]);

    const again = await upload(admin.token, 'clients', file, { fields });
    expect(again.json<TImportStatus>()).toMatchObject({ added: 0, updated: 0, skipped: 3, rejected: 2 });

    // The same people uploaded to the other list: the flag turns on, the first stays.
    const toTrack = await upload(admin.token, 'clients', file, { fields: { trackJobChanges: 'true' } });
    expect(toTrack.json<TImportStatus>()).toMatchObject({ added: 0, updated: 2, skipped: 1 });
    const both = await get<TClientsPage>(admin.token, '/api/clients/query/clients-for-job-changes-tracking');
    expect(both.body.rows.every((row) => row.mapNetwork && row.trackJobChanges)).toBe(true);

    const people = await ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
      tx.execute<{ n: number }>(sql`select count(*)::int as n from people where email like ${`%@${domain}`}`),
    );
    expect(people.rows[0]?.n).toBe(2);
  });

  it('matches known people by e-mail or LinkedIn address, and a new company is a job change', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const [oldCo, newCo] = [ctx.uniqueDomain(), ctx.uniqueDomain()];
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`insert into people (workspace_id, full_name, linkedin_url)
                     values (${ws}, 'Known By Linkedin', 'https://www.linkedin.com/in/known')`),
    );
    const row = (domain: string) => `Known,Person,known@${domain},Co,${domain},HTTPS://linkedin.com/in/Known/?trk=x,,`;
    const first = await upload(admin.token, 'clients', clientsCsv([row(oldCo)]), {
      fields: { trackJobChanges: 'true' },
    });
    expect(first.json<TImportStatus>()).toMatchObject({ added: 1, updated: 0 });
    const moved = await upload(admin.token, 'clients', clientsCsv([row(newCo)]), {
      fields: { trackJobChanges: 'true' },
    });
    expect(moved.json<TImportStatus>()).toMatchObject({ added: 0, updated: 1 });
    const state = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ people: number; email: string; company: string; at_import: string; dirty: boolean }>(sql`
        select (select count(*)::int from people where linkedin_url = 'https://www.linkedin.com/in/known') as people,
               p.email, co.domain as company, ci.domain as at_import,
               exists (select 1 from graph_dirty d where d.person_id = p.id) as dirty
          from people p join clients cl on cl.person_id = p.id
          join companies co on co.id = p.company_id
          join companies ci on ci.id = cl.company_id_at_import
         where p.linkedin_url = 'https://www.linkedin.com/in/known'`),
    );
    expect(state.rows).toEqual([{ people: 1, email: `known@${oldCo}`, company: newCo, at_import: oldCo, dirty: true }]);
  });

  it('marks for the graph a new ally, a known one and the people the known one met, and no one else', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const domain = ctx.uniqueDomain();
    const at = (name: string) => `${name}@${domain}`;
    const [known, met, stranger, newcomer] = [at('known'), at('met'), at('stranger'), at('newcomer')] as const;
    const meeting = (externalId: string, emails: string[]) => ({
      kind: 'meeting' as const,
      externalId,
      occurredAt: new Date(Date.now() - 86_400_000),
      participants: emails.map((email) => ({ email, name: null, role: 'attendee' as const })),
    });
    await ctx.database.inWorkspace(ws, async (tx) => {
      await recordInteractions(tx, ws, admin.me.id, [meeting('m1', [known, met]), meeting('m2', [stranger])]);
      await tx.execute(sql`delete from graph_dirty where workspace_id = ${ws}`);
    });
    const row = (email: string) =>
      `${email.split('@')[0]},Ally,${email},Co,${domain},https://www.linkedin.com/in/${email},,`;
    const status = await upload(admin.token, 'clients', clientsCsv([row(known), row(newcomer)]), {
      fields: { mapNetwork: 'true' },
    });
    expect(status.json<TImportStatus>()).toMatchObject({ added: 2, rejected: 0 });
    const marked = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ email: string }>(sql`
        select p.email from graph_dirty d join people p on p.workspace_id = d.workspace_id and p.id = d.person_id
         where d.workspace_id = ${ws} and p.email like ${`%@${domain}`} order by p.email`),
    );
    expect(marked.rows.map((marks) => marks.email)).toEqual([known, met, newcomer]);
  });

  it('announces every step of each merge in order, and the status shows the one under way', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const domain = ctx.uniqueDomain();
    const values: Record<ImportKind, string[]> = {
      accounts: ['Co', domain],
      'crm-clients': ['Co', domain],
      clients: ['Ann', 'Lee', `ann@${domain}`, 'Co', domain, `https://www.linkedin.com/in/ann-${domain}`, '', ''],
    };
    for (const kind of IMPORT_KINDS) {
      const announced: number[] = [];
      const options = { workspaceId: ws, importId: randomUUID(), mapNetwork: true, trackJobChanges: false };
      await ctx.database.inWorkspace(ws, (tx) =>
        mergeRow(tx, kind, values[kind], {
          ...options,
          onStep: (step) => {
            announced.push(step);
          },
        }),
      );
      expect(announced).toEqual(IMPORT_MERGE_STEPS[kind].map((_, index) => index));
    }

    const id = randomUUID();
    const status = () => ctx.database.inWorkspace(ws, (tx) => findImport(tx, ws, id));
    await ctx.database.inWorkspace(ws, async (tx) => {
      await insertImport(tx, ws, {
        id,
        kind: 'clients',
        fileName: 'a.csv',
        mapNetwork: true,
        trackJobChanges: false,
        createdBy: admin.me.id,
      });
      await updateProgress(tx, ws, id, { bytesReceived: 10, rowsProcessed: 1, status: 'merging', mergeStep: 3 });
    });
    expect(await status()).toMatchObject({ status: 'merging', mergeStep: 3 });
    await ctx.database.inWorkspace(ws, (tx) =>
      completeImport(tx, ws, id, { added: 1, updated: 0, skipped: 0, rejected: 0 }),
    );
    expect(await status()).toMatchObject({ status: 'completed', mergeStep: null });
  });

  it('takes the first of two rows that name one known person, one by e-mail and one by LinkedIn', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const domain = ctx.uniqueDomain();
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`insert into people (workspace_id, full_name, email, linkedin_url)
                     values (${ws}, 'Known', ${`known@${domain}`}, 'https://www.linkedin.com/in/known-both')`),
    );
    const file = clientsCsv([
      `Known,ByEmail,known@${domain},Co,${domain},https://www.linkedin.com/in/someone-else,,`,
      `Known,ByLinkedin,other@${domain},Co,${domain},https://www.linkedin.com/in/known-both,,`,
    ]);
    const status = await upload(admin.token, 'clients', file, { fields: { mapNetwork: 'true' } });
    expect(status.json<TImportStatus>()).toMatchObject({ added: 1, updated: 0, skipped: 1, rejected: 0 });
    const allies = await get<TClientsPage>(admin.token, '/api/clients/query/allies-to-map-network-from');
    expect(allies.body.rows.map((row) => [row.lastName, row.email, row.linkedinUrl])).toEqual([
      ['ByEmail', `known@${domain}`, 'https://www.linkedin.com/in/known-both'],
    ]);
  });

  it('rejects non-boolean flags', async () => {
    const admin = await ctx.registerAdmin();
    const response = await upload(admin.token, 'clients', clientsCsv([]), { fields: { mapNetwork: 'yes' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message: "mapNetwork must be 'true' or 'false'" });
  });
});

describe('CRM customers upload', () => {
  it('adds customers once and updates a renamed one', async () => {
    const admin = await ctx.registerAdmin();
    const [a, b] = [ctx.uniqueDomain(), ctx.uniqueDomain()];
    const first = await upload(
      admin.token,
      'crm-clients',
      `Company name,Company domain\nAcme,${a}\nBeta,${b}\nBad,nodomain\n`,
    );
    expect(first.json<TImportStatus>()).toMatchObject({ added: 2, updated: 0, skipped: 0, rejected: 1 });
    const renamed = await upload(
      admin.token,
      'crm-clients',
      `Company name,Company domain\nAcme Corp,${a}\nBeta,${b}\n`,
    );
    expect(renamed.json<TImportStatus>()).toMatchObject({ added: 0, updated: 1, skipped: 1, rejected: 0 });
    const { body } = await get<TCrmClientsPage>(admin.token, '/api/crm-clients/query?searchTerm=corp');
    expect(body.rows).toEqual([{ id: expect.any(String), companyName: 'Acme Corp', companyDomain: a }]);
  });
});

describe('every upload route', () => {
  it.each(Object.keys(UPLOADS) as (keyof typeof UPLOADS)[])('%s refuses a file without its columns', async (kind) => {
    const admin = await ctx.registerAdmin();
    const response = await upload(admin.token, kind, 'Foo,Bar\n1,2\n');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'FILE_UNREADABLE',
      message: expect.stringMatching(/^The file has no usable header/),
    });
  });
});

describe('an import that does not finish', () => {
  it('merges again, and succeeds, when a sync commits one of its people while it adds them', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const domain = ctx.uniqueDomain();
    const synced = `p1@${domain}`;
    // A sync's transaction adds a person of the file and stays open until the merge is adding people.
    const sync = await ctx.database.pool.connect();
    try {
      await sync.query('begin');
      await sync.query(`select set_config('app.workspace_id', $1, true)`, [ws]);
      await sync.query(`insert into people (workspace_id, full_name, email) values ($1, 'From a sync', $2)`, [
        ws,
        synced,
      ]);
      const importId = randomUUID();
      const uploaded = upload(
        admin.token,
        'clients',
        clientsCsv([person(0, domain), person(1, domain), person(2, domain)]),
        {
          fields: { mapNetwork: 'true' },
          importId,
        },
      );
      // The merge waits on the sync's row: it matched the file before that row existed.
      await vi.waitFor(
        async () => {
          const { body } = await get<TImportStatus>(admin.token, `/api/imports/query/${importId}`);
          expect(body.mergeStep).toBe(IMPORT_MERGE_STEPS.clients.indexOf('Adding and updating people'));
          const waiting = await ctx.database.pool.query(`select count(*)::int as n from pg_locks where not granted`);
          expect(waiting.rows[0].n).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      await sync.query('commit');

      const response = await uploaded;
      expect(response.statusCode).toBe(200);
      expect(response.json<TImportStatus>()).toMatchObject({ status: 'completed', added: 3, rejected: 0 });
    } finally {
      sync.release();
    }
    const people = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ email: string; full_name: string; clients: number }>(sql`
        select p.email, p.full_name, (select count(*)::int from clients c where c.person_id = p.id) as clients
          from people p where p.workspace_id = ${ws} and p.email = ${synced}`),
    );
    expect(people.rows).toEqual([{ email: synced, full_name: 'First1 Last1', clients: 1 }]);
  });

  it('leaves nothing when the connection drops mid-upload, and can be retried', async () => {
    const admin = await ctx.registerAdmin();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const domain = ctx.uniqueDomain();
    const rows = Array.from({ length: 2000 }, (_, n) => person(n, domain));
    const file = clientsCsv(rows);
    const { body, contentType } = multipartBody({ mapNetwork: 'true' }, [{ filename: 'allies.csv', content: file }]);
    const importId = randomUUID();

    // Half the body, then the connection is cut.
    await new Promise<void>((resolve) => {
      const request = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: `${UPLOADS.clients}?importId=${importId}`,
        headers: { ...bearer(admin.token), 'content-type': contentType, 'content-length': body.length },
      });
      request.on('error', () => resolve());
      request.write(body.subarray(0, Math.floor(body.length / 2)), () => {
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 300);
      });
    });
    const failed = await waitFor(admin.token, importId, (status) => status.status === 'failed');
    expect(failed).toMatchObject({ status: 'failed', error: INTERRUPTED_ERROR });
    expect(failed.bytesReceived).toBeGreaterThan(0);
    const allies = await get<TClientsPage>(admin.token, '/api/clients/query/allies-to-map-network-from');
    expect(allies.body.pagination.totalCount).toBe(0);

    const retried = await upload(admin.token, 'clients', file, { fields: { mapNetwork: 'true' } });
    expect(retried.json<TImportStatus>()).toMatchObject({ status: 'completed', added: 2000 });
  });

  it('runs a merge killed mid-way again, and the import completes once', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    await withMergesHeld(ws, async (killWaitingMerge, letGo) => {
      const importId = randomUUID();
      const file = clientsCsv([person(1, ctx.uniqueDomain()), person(2, ctx.uniqueDomain())]);
      const pending = upload(admin.token, 'clients', file, { importId, fields: { mapNetwork: 'true' } });
      await waitFor(admin.token, importId, (status) => status.status === 'merging');
      await killWaitingMerge();
      // The queue runs it again; it waits for the workspace's lock like the first attempt did.
      await killWaitingMerge({ kill: false });
      await letGo();
      const response = await pending;
      expect(response.statusCode).toBe(200);
      expect(response.json<TImportStatus>()).toMatchObject({ status: 'completed', added: 2 });
      const allies = await get<TClientsPage>(admin.token, '/api/clients/query/allies-to-map-network-from');
      expect(allies.body.pagination.totalCount).toBe(2);
      expect(await stagedRows(ws, importId)).toBe(0);
    });
  });

  it('leaves nothing when every attempt of the merge is killed, and can be retried', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const importId = randomUUID();
    const file = clientsCsv([person(1, ctx.uniqueDomain()), person(2, ctx.uniqueDomain())]);
    await withMergesHeld(ws, async (killWaitingMerge) => {
      const pending = upload(admin.token, 'clients', file, { importId, fields: { mapNetwork: 'true' } });
      await waitFor(admin.token, importId, (status) => status.status === 'merging');
      // The first attempt and the queue's two retries.
      for (let attempt = 0; attempt < 3; attempt++) await killWaitingMerge();
      const response = await pending;
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ code: 'IMPORT_FAILED', message: IMPORT_FAILED_ERROR });
    });
    const { body } = await get<TImportStatus>(admin.token, `/api/imports/query/${importId}`);
    expect(body).toMatchObject({ status: 'failed', error: IMPORT_FAILED_ERROR, added: 0 });
    const allies = await get<TClientsPage>(admin.token, '/api/clients/query/allies-to-map-network-from');
    expect(allies.body.pagination.totalCount).toBe(0);
    expect(await stagedRows(ws, importId)).toBe(0);

    const retried = await upload(admin.token, 'clients', file, { fields: { mapNetwork: 'true' } });
    expect(retried.json<TImportStatus>()).toMatchObject({ status: 'completed', added: 2 });
    const reuse = await upload(admin.token, 'clients', file, { importId });
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json().code).toBe('ALREADY_EXISTS');
  });

  it('merges an import left merging without a job once it is queued again, as a starting worker does', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const domain = ctx.uniqueDomain();
    const importId = randomUUID();
    // What a worker that died on the merge's last attempt leaves: the rows staged, the job gone.
    await ctx.database.inWorkspace(ws, async (tx) => {
      await tx.execute(sql`insert into imports (workspace_id, id, kind, file_name, status, map_network, created_by)
                           values (${ws}, ${importId}, 'clients', 'allies.csv', 'merging', true, ${admin.me.id})`);
      await tx.execute(sql`insert into import_staged_rows (workspace_id, import_id, line, reason, values) values
        (${ws}, ${importId}, 2, null,
         array['Ada', 'Lovelace', ${`ada@${domain}`}, 'Analytical', ${domain}, ${`https://www.linkedin.com/in/ada-${domain}`}, null, 'vip']),
        (${ws}, ${importId}, 3, 'Email must be a valid email address', null)`);
    });
    expect(await ctx.jobs.requeueStrandedImportMerges({ workspaceId: ws })).toBe(1);
    const done = await waitFor(admin.token, importId, (status) => status.status === 'completed');
    expect(done).toMatchObject({ added: 1, rejected: 1 });
    const allies = await get<TClientsPage>(admin.token, '/api/clients/query/allies-to-map-network-from');
    expect(allies.body.rows.map((client) => [client.email, client.companyName])).toEqual([
      [`ada@${domain}`, 'Analytical'],
    ]);
    expect(await ctx.jobs.requeueStrandedImportMerges({ workspaceId: ws })).toBe(0);
  });

  it('is marked failed when a server starts after one stopped while receiving it, but a running one and a merging one are left alone', async () => {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    const [dead, alive, merging] = [randomUUID(), randomUUID(), randomUUID()];
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`insert into imports (workspace_id, id, kind, file_name, status, created_by)
                     values (${ws}, ${dead}, 'clients', 'a.csv', 'receiving', ${admin.me.id}),
                            (${ws}, ${alive}, 'clients', 'b.csv', 'receiving', ${admin.me.id}),
                            (${ws}, ${merging}, 'clients', 'c.csv', 'merging', ${admin.me.id})`),
    );
    const running = await ctx.database.pool.connect();
    try {
      await running.query('select pg_advisory_lock(7262012, hashtext($1))', [alive]);
      expect(await failStuckImports(inject('databaseUrl'))).toBeGreaterThanOrEqual(1);
      expect((await get<TImportStatus>(admin.token, `/api/imports/query/${dead}`)).body).toMatchObject({
        status: 'failed',
        error: STUCK_IMPORT_ERROR,
      });
      expect((await get<TImportStatus>(admin.token, `/api/imports/query/${alive}`)).body.status).toBe('receiving');
      // Its merge is a job, which a worker runs again if its own died.
      expect((await get<TImportStatus>(admin.token, `/api/imports/query/${merging}`)).body.status).toBe('merging');
    } finally {
      running.release(true);
      await ctx.database.inWorkspace(ws, (tx) => tx.execute(sql`delete from imports where id = ${merging}`));
    }
  });
});

describe('an API process that runs no job', () => {
  let api: TestContext;
  beforeAll(async () => {
    api = await createTestContext({ mergeImports: false });
  });
  afterAll(() => api.close());

  it('hands the file over and answers once a worker has merged it', async () => {
    const admin = await api.registerAdmin();
    const importId = randomUUID();
    const { body, contentType } = multipartBody({ mapNetwork: 'true' }, [
      { filename: 'allies.csv', content: clientsCsv([person(1, api.uniqueDomain())]) },
    ]);
    let answered = false;
    const pending = api.app
      .inject({
        method: 'POST',
        url: `${UPLOADS.clients}?importId=${importId}`,
        headers: { ...bearer(admin.token), 'content-type': contentType },
        payload: body,
      })
      .finally(() => {
        answered = true;
      });
    const status = async () =>
      (
        await api.app.inject({ url: `/api/imports/query/${importId}`, headers: bearer(admin.token) })
      ).json<TImportStatus>();
    await vi.waitFor(async () => expect((await status()).status).toBe('merging'), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(answered).toBe(false);
    expect((await status()).status).toBe('merging');
    expect(await stagedRows(admin.me.workspaceId, importId, api)).toBe(1);

    // A worker of the same queues (its own process in production) takes the merge.
    await api.jobs.workImportMerges(async (job, attempt) => {
      await mergeHandedOverImport(
        { database: api.database, jobs: api.jobs, events: createEventRecorder(api.jobs) },
        job,
        attempt,
      );
    });
    const response = await pending;
    expect(response.statusCode).toBe(200);
    expect(response.json<TImportStatus>()).toMatchObject({ status: 'completed', added: 1 });
    expect(await stagedRows(admin.me.workspaceId, importId, api)).toBe(0);
  });
});

/** How many of an import's rows wait for its merge. */
async function stagedRows(workspaceId: string, importId: string, context: TestContext = ctx) {
  const result = await context.database.inWorkspace(workspaceId, (tx) =>
    tx.execute<{ n: number }>(
      sql`select count(*)::int as n from import_staged_rows where workspace_id = ${workspaceId} and import_id = ${importId}`,
    ),
  );
  return result.rows[0]?.n ?? 0;
}

/**
 * Holds the workspace's merge lock (merge.ts) while `work` runs, so that each attempt of an import's
 * merge waits there. `killWaitingMerge` waits for one to wait and terminates its connection (or, with
 * `kill: false`, only waits for it); `letGo` lets the merges through.
 */
async function withMergesHeld(
  workspaceId: string,
  work: (
    killWaitingMerge: (options?: { kill?: boolean }) => Promise<void>,
    letGo: () => Promise<void>,
  ) => Promise<void>,
) {
  const owner = new pg.Client({ connectionString: inject('databaseUrl') });
  await owner.connect();
  let held = true;
  const letGo = async () => {
    if (!held) return;
    held = false;
    await owner.query('select pg_advisory_unlock(7262013, hashtext($1))', [workspaceId]);
  };
  try {
    await owner.query('select pg_advisory_lock(7262013, hashtext($1))', [workspaceId]);
    await work(async ({ kill = true } = {}) => {
      for (let attempt = 0; attempt < 200; attempt++) {
        const locks = await owner.query<{ pid: number }>(
          `select pid from pg_locks where locktype = 'advisory' and not granted and classid = 7262013
              and objid = hashtext($1)::oid`,
          [workspaceId],
        );
        const waiting = locks.rows[0]?.pid;
        if (waiting !== undefined) {
          if (kill) await owner.query('select pg_terminate_backend($1)', [waiting]);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('no merge came to wait for the lock');
    }, letGo);
  } finally {
    await letGo();
    await owner.end();
  }
}

async function waitFor(token: string, id: string, done: (status: TImportStatus) => boolean) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await ctx.app.inject({ url: `/api/imports/query/${id}`, headers: bearer(token) });
    if (response.statusCode === 200 && done(response.json<TImportStatus>())) return response.json<TImportStatus>();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`import ${id} never reached the expected state`);
}
