import type { TTargetingSchemeInput } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const scheme: TTargetingSchemeInput = {
  countries: ['FR', 'GB', 'FR'],
  companySize: ['51 - 200', '201 - 500'],
  companyType: ['BtoB'],
  jobDepartments: ['Sales', 'Marketing'],
  industries: ['Retail'],
  seniorities: ['Manager'],
  customJobTitles: ['Head of Partnerships', 'Head of Partnerships'],
  selectedCustomJobTitles: ['Head of Partnerships'],
  competitorDomainsToExclude: ['rival.test'],
  technologies: [{ name: 'HubSpot CRM', value: 'hubspot-crm' }],
  specificIndustries: ['511210'],
};

describe('targeting scheme', () => {
  it('is saved per user, de-duplicated, and marks targeted accounts as set', async () => {
    const admin = await ctx.registerAdmin();
    const before = await ctx.app.inject({
      url: '/api/users/query/get-targeting-schemes',
      headers: bearer(admin.token),
    });
    expect(before.json()).toBeNull();

    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/command/set-targeted-accounts-preferences',
      headers: bearer(admin.token),
      payload: scheme,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ countries: ['FR', 'GB'], customJobTitles: ['Head of Partnerships'] });
    const loaded = await ctx.app.inject({
      url: '/api/users/query/get-targeting-schemes',
      headers: bearer(admin.token),
    });
    expect(loaded.json()).toEqual(saved.json());
    const me = await ctx.app.inject({ url: '/api/users/query/me', headers: bearer(admin.token) });
    expect(me.json().isTargetedAccountsSet).toBe(true);

    const colleague = await ctx.addUser(admin.me.workspaceId, 'viewer', admin.domain);
    const theirs = await ctx.app.inject({
      url: '/api/users/query/get-targeting-schemes',
      headers: bearer(colleague.token),
    });
    expect(theirs.json()).toBeNull();
  });

  it('needs a country, a size, a type and a department', async () => {
    const admin = await ctx.registerAdmin();
    for (const field of ['countries', 'companySize', 'companyType', 'jobDepartments'] as const) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/command/set-targeted-accounts-preferences',
        headers: bearer(admin.token),
        payload: { ...scheme, [field]: [] },
      });
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message).toMatch(/Choose at least one/);
    }
  });

  it('serves technologies and specific industries in pages that grow by 100, and the countries', async () => {
    const admin = await ctx.registerAdmin();
    const technologies = await ctx.app.inject({
      url: '/api/users/query/technologies-list?page=2',
      headers: bearer(admin.token),
    });
    expect(technologies.json().options).toHaveLength(200);
    const industries = await ctx.app.inject({
      url: '/api/users/query/specific-industries-options?page=1&searchTerm=software',
      headers: bearer(admin.token),
    });
    expect(industries.json().options.map((option: { name: string }) => option.name)).toContain('Software Publishers');
    const countries = await ctx.app.inject({ url: '/api/public/countries' });
    expect(countries.json()).toContainEqual({ name: 'Ukraine', flag: '🇺🇦', countryCode: 'UA' });
  });
});

describe('personas', () => {
  it('are created, listed and deleted by their owner only', async () => {
    const admin = await ctx.registerAdmin();
    const create = (payload: object, token = admin.token) =>
      ctx.app.inject({ method: 'POST', url: '/api/users/command/create-persona', headers: bearer(token), payload });

    const refused = await create({ name: 'Buyers', jobDepartments: ['Sales'], seniorities: [], customJobTitles: [] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('VALIDATION_FAILED');
    const byTitles = await create({ name: 'Founders', jobDepartments: [], seniorities: [], customJobTitles: ['CEO'] });
    expect(byTitles.statusCode).toBe(201);
    const byDepartment = await create({
      name: 'Sales leaders',
      jobDepartments: ['Sales'],
      seniorities: ['C-Level', 'Manager'],
      customJobTitles: [],
    });
    expect(byDepartment.json()).toMatchObject({ name: 'Sales leaders', seniorities: ['C-Level', 'Manager'] });

    const list = await ctx.app.inject({ url: '/api/users/query/get-personas', headers: bearer(admin.token) });
    expect(list.json().map((persona: { name: string }) => persona.name)).toEqual(['Sales leaders', 'Founders']);

    const stranger = await ctx.registerAdmin();
    const foreignDelete = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/command/delete-persona/${byTitles.json().id}`,
      headers: bearer(stranger.token),
    });
    expect(foreignDelete.statusCode).toBe(404);
    expect(foreignDelete.json()).toEqual({ code: 'NOT_FOUND', message: 'Persona not found' });
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/users/command/delete-persona/${byTitles.json().id}`,
      headers: bearer(admin.token),
    });
    expect(deleted.statusCode).toBe(204);
    const after = await ctx.app.inject({ url: '/api/users/query/get-personas', headers: bearer(admin.token) });
    expect(after.json()).toHaveLength(1);
  });
});
