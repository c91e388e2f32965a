import { UNSAFE_TEXT_MESSAGE } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../test/harness.ts';
import { multipartBody } from '../../test/multipart.ts';
import { createLogger } from '../lib/logger.ts';

// The shared string rule (packages/shared/src/schemas/text.ts) at the door of every operation: a NUL
// or an unpaired surrogate in a search term, a name, a filter or a file name is a 400 naming the
// field, never a 500 from the database.

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ token } = await ctx.registerAdmin());
});
afterAll(() => ctx.close());

const NUL = 'a\u0000b';
const LONE = 'a\uD800b';

type Case = {
  name: string;
  method?: 'GET' | 'POST' | 'PUT';
  url: string;
  payload?: unknown;
  multipart?: { fields?: Record<string, string>; filename?: string };
  field: string;
};

const client = (firstName: string) => ({
  firstName,
  lastName: 'Lee',
  email: 'vic@partner.test',
  companyName: 'Partner',
  companyDomain: 'partner.test',
  linkedinUrl: 'https://www.linkedin.com/in/vic',
});

const CASES: Case[] = [
  {
    name: 'a search term of the team',
    url: `/api/users/query?searchTerm=${encodeURIComponent(NUL)}`,
    field: 'searchTerm',
  },
  { name: 'a search term of the clients', url: '/api/clients/query?searchTerm=%00', field: 'searchTerm' },
  {
    name: "a network filter's option search",
    method: 'POST',
    url: `/api/contacts/query/filters/search?filterField=companyName&searchTerm=${encodeURIComponent(NUL)}`,
    payload: { filters: [] },
    field: 'searchTerm',
  },
  {
    name: "a network filter's value (NUL)",
    method: 'POST',
    url: '/api/contacts/query',
    payload: { filters: [{ name: 'industry', values: ['Software', NUL] }] },
    field: 'filters.0.values.1',
  },
  {
    name: "a network filter's value (lone surrogate)",
    method: 'POST',
    url: '/api/contacts/query',
    payload: { filters: [{ name: 'industry', values: [LONE] }] },
    field: 'filters.0.values.0',
  },
  {
    name: "the export's filters",
    method: 'POST',
    url: '/api/contacts/query/export-csv',
    payload: { filters: [{ name: 'companyName', values: [LONE] }] },
    field: 'filters.0.values.0',
  },
  {
    name: "a member's own names",
    method: 'PUT',
    url: '/api/users/command/update-me',
    payload: { firstName: 'Vic', lastName: NUL },
    field: 'lastName',
  },
  {
    name: "a client's first name",
    method: 'POST',
    url: '/api/clients/command/create-update-single-client',
    payload: client(LONE),
    field: 'firstName',
  },
  {
    name: "an import's file name",
    method: 'POST',
    url: '/api/accounts/command/upload-accounts',
    multipart: { filename: `accounts${NUL}.csv` },
    field: 'fileName',
  },
  {
    name: "an import's text field",
    method: 'POST',
    url: '/api/clients/command/upload-clients',
    multipart: { fields: { mapNetwork: `true${NUL}` } },
    field: 'mapNetwork',
  },
  {
    name: "a LinkedIn export's file name",
    method: 'POST',
    url: '/api/linkedin/command/upload-connections',
    multipart: { filename: `Connections${NUL}.csv` },
    field: 'fileName',
  },
];

describe('the shared string rule', () => {
  it.each(CASES)(
    'refuses $name with a 400 naming $field',
    async ({ method = 'GET', url, payload, multipart, field }) => {
      const upload =
        multipart &&
        multipartBody(multipart.fields ?? {}, [
          { filename: multipart.filename ?? 'file.csv', content: 'Company name,Company domain\nAcme,acme.test\n' },
        ]);
      const response = await ctx.app.inject({
        method,
        url,
        headers: { ...bearer(token), ...(upload ? { 'content-type': upload.contentType } : {}) },
        ...(upload ? { payload: upload.body } : payload === undefined ? {} : { payload: payload as object }),
      });
      expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message: `${field}: ${UNSAFE_TEXT_MESSAGE}` });
      expect(response.statusCode).toBe(400);
    },
  );

  it('lets well-formed text through: emoji, accents, quotes and dollars', async () => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/users/command/update-me',
      headers: bearer(token),
      payload: { firstName: 'Vic$1 😀', lastName: `Zoë O'Brien "Q"` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstName: 'Vic$1 😀', lastName: `Zoë O'Brien "Q"` });
  });
});

describe('a failed query in the log', () => {
  it('tells the statement and the error, not the values', async () => {
    const secret = 'vic.secret@private.test';
    const failure = await ctx.database.db
      .execute(sql`select ${secret}::uuid as id, ${'Victoria Secret'}::text as name`)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    for (const logFormat of ['json', 'text'] as const) {
      const lines: string[] = [];
      const logger = createLogger({ logLevel: 'info', logFormat }, (line) => void lines.push(line));
      logger.error({ err: failure }, 'unhandled error');
      const logged = lines.join('');
      expect(logged).toContain('Failed query: select $1::uuid as id, $2::text as name');
      expect(logged).toContain('invalid input syntax for type uuid');
      expect(logged).not.toContain('secret');
      expect(logged).not.toContain('Secret');
    }
  });
});
