import type { TAccountsPage } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { multipartBody } from '../../test/multipart.ts';
import { recordAddressBook, upsertPeopleByEmail } from './evidence.repo.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

function upload(token: string, url: string, filename: string, content: string) {
  const file = multipartBody({}, [{ filename, content }]);
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), 'content-type': file.contentType },
    payload: file.body,
  });
}

/** An accounts list (the admin's names for companies) uploaded by `token`. */
const uploadAccounts = (token: string, content: string) =>
  upload(token, '/api/accounts/command/upload-accounts', 'accounts.csv', content);

const linkedinExport = (rows: string[]) =>
  ['Notes:', '"Some emails are missing."', '', 'First Name,Last Name,URL,Email Address,Company,Position,Connected On']
    .concat(rows)
    .join('\r\n');

/** A workspace whose mail knows three people at kccollec.test, a company it can only name 'Kccollec'. */
async function workspace() {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  const people = ['ana', 'bo', 'cy'].map((name) => ({ email: `${name}@kccollec.test`, name: null }));
  await ctx.database.inWorkspace(ws, (tx) => upsertPeopleByEmail(tx, ws, people));
  const company = async () => {
    const { rows } = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ name: string; name_source: string }>(
        sql`select name, name_source from companies where workspace_id = ${ws} and domain = 'kccollec.test'`,
      ),
    );
    return rows[0];
  };
  const title = async (email: string) => {
    const { rows } = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ title: string | null }>(
        sql`select title from people where workspace_id = ${ws} and email = ${email}`,
      ),
    );
    return rows[0]?.title ?? null;
  };
  return { admin, ws, company, title };
}

describe("a company's name", () => {
  it('starts from the domain, then takes what most address books call its people, and their titles', async () => {
    const { admin, ws, company, title } = await workspace();
    expect(await company()).toEqual({ name: 'Kccollec', name_source: 'domain' });

    await ctx.database.inWorkspace(ws, (tx) =>
      recordAddressBook(tx, ws, admin.me.id, 'contact', [
        { email: 'ana@kccollec.test', name: 'Ana', organization: 'KC Collective', title: 'Head of Sales' },
        { email: 'bo@kccollec.test', name: 'Bo', organization: 'KC Collective', title: null },
        { email: 'cy@kccollec.test', name: 'Cy', organization: 'KCC (old name)', title: 'CFO' },
      ]),
    );
    expect(await company()).toEqual({ name: 'KC Collective', name_source: 'contacts' });
    expect(await title('ana@kccollec.test')).toBe('Head of Sales');
    expect(await title('bo@kccollec.test')).toBeNull();
  });

  it('is renamed by what its people say on LinkedIn, unless the name does not fit the domain (they moved on)', async () => {
    const { admin, company } = await workspace();
    const moved = await upload(
      admin.token,
      '/api/linkedin/command/upload-connections',
      'Connections.csv',
      linkedinExport(['Ana,Lee,https://www.linkedin.com/in/ana-lee,ana@kccollec.test,Globex,CTO,01 Jan 2024']),
    );
    expect(moved.statusCode).toBe(200);
    expect(await company()).toEqual({ name: 'Kccollec', name_source: 'domain' });

    const stayed = await upload(
      admin.token,
      '/api/linkedin/command/upload-connections',
      'Connections.csv',
      linkedinExport([
        'Ana,Lee,https://www.linkedin.com/in/ana-lee,ana@kccollec.test,Globex,CTO,01 Jan 2024',
        'Bo,Ray,https://www.linkedin.com/in/bo-ray,bo@kccollec.test,"KC Collective, Ltd.",Analyst,01 Jan 2024',
      ]),
    );
    expect(stayed.statusCode).toBe(200);
    expect(await company()).toEqual({ name: 'KC Collective, Ltd.', name_source: 'linkedin' });
  });

  it("is the admin's when a list names it, and the evidence never renames it after", async () => {
    const { admin, ws, company } = await workspace();
    const imported = await uploadAccounts(
      admin.token,
      'Company name,Company domain\nKC Collective Group,kccollec.test\n',
    );
    expect(imported.statusCode).toBe(200);
    await expect.poll(company).toEqual({ name: 'KC Collective Group', name_source: 'list' });

    await ctx.database.inWorkspace(ws, (tx) =>
      recordAddressBook(tx, ws, admin.me.id, 'contact', [
        { email: 'ana@kccollec.test', name: 'Ana', organization: 'KC Collective', title: null },
      ]),
    );
    expect(await company()).toEqual({ name: 'KC Collective Group', name_source: 'list' });
  });

  it('orders the accounts list by it, and a renamed company moves to its new place there', async () => {
    const { admin, ws } = await workspace();
    const imported = await uploadAccounts(
      admin.token,
      'Company name,Company domain\nbeta Works,beta.test\nAlpha Labs,alpha.test\nGamma Co,gamma.test\n',
    );
    expect(imported.statusCode).toBe(200);
    const names = async () =>
      (await ctx.app.inject({ url: '/api/accounts/query', headers: bearer(admin.token) }))
        .json<TAccountsPage>()
        .rows.map((account) => account.name);
    await expect.poll(names).toEqual(['Alpha Labs', 'beta Works', 'Gamma Co']);
    // However the name changes (a merge, a source the admin trusts more), the list follows.
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`update companies set name = 'Zulu Labs' where workspace_id = ${ws} and domain = 'alpha.test'`),
    );
    expect(await names()).toEqual(['beta Works', 'Gamma Co', 'Zulu Labs']);
  });

  it('takes in the company LinkedIn knew by name only, once its domain bears that name', async () => {
    const { admin, ws, company } = await workspace();
    const uploaded = await upload(
      admin.token,
      '/api/linkedin/command/upload-connections',
      'Connections.csv',
      linkedinExport(['Dee,Fox,https://www.linkedin.com/in/dee-fox,,KC Collective,VP Sales,01 Jan 2024']),
    );
    expect(uploaded.statusCode).toBe(200);
    const companyOfDee = async () => {
      const { rows } = await ctx.database.inWorkspace(ws, (tx) =>
        tx.execute<{ domain: string | null; name: string; companies: number }>(sql`
          select c.domain, c.name, (select count(*)::int from companies where workspace_id = ${ws}) as companies
            from people p join companies c on c.workspace_id = p.workspace_id and c.id = p.company_id
           where p.workspace_id = ${ws} and p.linkedin_url = 'https://www.linkedin.com/in/dee-fox'`),
      );
      return rows[0];
    };
    expect(await companyOfDee()).toEqual({ domain: null, name: 'KC Collective', companies: 2 });

    await ctx.database.inWorkspace(ws, (tx) =>
      recordAddressBook(tx, ws, admin.me.id, 'contact', [
        { email: 'ana@kccollec.test', name: 'Ana', organization: 'KC Collective', title: null },
      ]),
    );
    expect(await company()).toEqual({ name: 'KC Collective', name_source: 'contacts' });
    expect(await companyOfDee()).toEqual({ domain: 'kccollec.test', name: 'KC Collective', companies: 1 });
    const employments = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`select count(*)::int as n from employments e join companies c
                       on c.workspace_id = e.workspace_id and c.id = e.company_id
                      where e.workspace_id = ${ws} and c.domain = 'kccollec.test'`),
    );
    expect(employments.rows[0]).toEqual({ n: 1 });
  });
});
