import { randomUUID } from 'node:crypto';
import {
  type Access,
  API_CONTRACTS,
  type Role,
  type RouteContract,
  type TAccountsPage,
  type TClient,
  type TInviteTeammatesResponse,
  type TMe,
} from '@warmpath/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../test/harness.ts';
import { multipartBody } from '../test/multipart.ts';

// The route × role × tenant matrix: every operation of API_CONTRACTS called by every kind of caller,
// the expected answer derived from the access the route declares beside it. A new contract adds its
// cells by itself; a route that needs another answer says so in EXCEPTIONS, with a reason.

type CallerName = 'anonymous' | 'no-workspace' | Role | 'other-workspace-admin';
const CALLERS: readonly CallerName[] = [
  // The other workspace's admin goes first: its cells must not see anything A's own callers changed.
  'other-workspace-admin',
  'anonymous',
  'no-workspace',
  'viewer',
  'member',
  // A's admin last: its calls may delete A's objects.
  'admin',
];

/** Who may pass each access, as define-route.ts states it (spec section 6), written again here on purpose. */
const ROLES_OF: Record<Exclude<Access, 'public' | 'identity'>, readonly Role[]> = {
  read: ['admin', 'member', 'viewer'],
  self: ['admin', 'member', 'viewer'],
  write: ['admin', 'member'],
  admin: ['admin'],
};

/**
 * 'allowed': past the access check, whatever the body's fate (neither 401 nor 403). 'signed-in': an
 * identity route called by someone without a workspace: its handler may still want one, and then says
 * NOT_REGISTERED, never 401 or another refusal.
 */
type Expectation = { refused: 401 | 403; code: string } | 'allowed' | 'signed-in';

/** Routes whose cells differ from what their access implies: caller by caller, and why. */
const EXCEPTIONS: Record<string, { reason: string } & Partial<Record<CallerName, Expectation>>> = {
  getInvitation: {
    reason: 'an invitation is shown to the invited address only (issue 23): anyone else is refused',
    'no-workspace': { refused: 403, code: 'WRONG_ACCOUNT' },
    viewer: { refused: 403, code: 'WRONG_ACCOUNT' },
    member: { refused: 403, code: 'WRONG_ACCOUNT' },
    admin: { refused: 403, code: 'WRONG_ACCOUNT' },
    'other-workspace-admin': { refused: 403, code: 'WRONG_ACCOUNT' },
  },
};

function expectationFor(contract: RouteContract, caller: CallerName): Expectation {
  const exception = EXCEPTIONS[contract.operationId]?.[caller];
  if (exception) return exception;
  const { access } = contract;
  if (access === 'public') return 'allowed';
  if (caller === 'anonymous') return { refused: 401, code: 'UNAUTHENTICATED' };
  if (access === 'identity') return caller === 'no-workspace' ? 'signed-in' : 'allowed';
  if (caller === 'no-workspace') return { refused: 403, code: 'NOT_REGISTERED' };
  const role: Role = caller === 'other-workspace-admin' ? 'admin' : caller;
  return ROLES_OF[access].includes(role) ? 'allowed' : { refused: 403, code: 'FORBIDDEN' };
}

/** Deletions and removals go last in each caller's turn: they take away what other cells use. */
const destructive = (contract: RouteContract) =>
  contract.method === 'DELETE' || /\/(delete|remove)/.test(contract.path) || contract.operationId === 'changeRole';
const ORDERED = [...API_CONTRACTS.filter((c) => !destructive(c)), ...API_CONTRACTS.filter(destructive)];

let ctx: TestContext;
let app: FastifyInstance;
/** Workspace A: recognisable words in every name, e-mail and domain. */
const MARK = `zqmark${randomUUID().slice(0, 6)}`;
const tokens = {} as Record<Exclude<CallerName, 'anonymous'>, string>;
const ids: Record<string, string> = {};

const call = (contract: RouteContract, token: string | null, id: string) => {
  const url = `/api${contract.path.replace(/:[A-Za-z]+/g, id)}`;
  const headers: Record<string, string> = token ? bearer(token) : {};
  const body = contract.body;
  if (body && 'kind' in body && body.kind === 'upload') {
    const multipart = multipartBody({}, []);
    return app.inject({
      method: contract.method,
      url,
      headers: { ...headers, 'content-type': multipart.contentType },
      payload: multipart.body,
    });
  }
  return app.inject({ method: contract.method, url, headers, ...(body ? { payload: {} } : {}) });
};

/** A's object that a route's `:id` names; a fresh id where A holds none of that kind. */
function idFor(contract: RouteContract): string {
  const { path } = contract;
  if (path.startsWith('/accounts/')) return ids.account ?? '';
  if (path.startsWith('/clients/command/delete-client')) return ids.ally ?? '';
  if (path.startsWith('/imports/')) return ids.import ?? '';
  if (path.startsWith('/users/command/change-role') || path.startsWith('/users/command/delete/'))
    return ids.viewer ?? '';
  if (path.startsWith('/teammates/')) return ids.invitation ?? '';
  if (path.startsWith('/users/command/delete-persona')) return ids.persona ?? '';
  return randomUUID();
}

beforeAll(async () => {
  ctx = await createTestContext();
  // One address makes every call here: the limit on refused tokens is raised so that the anonymous
  // caller's ~100 refusals are each answered 401, as one at a time would be.
  ({ app } = await ctx.appWith({
    env: { RATE_LIMIT_BAD_TOKEN_PER_ADDRESS: '100000/60', RATE_LIMIT_UPLOAD_PER_USER: '100000/60' },
  }));
  const admin = await ctx.registerAdmin(`${MARK}-corp.test`);
  const ws = admin.me.workspaceId;
  tokens.admin = admin.token;
  tokens.member = (await ctx.addUser(ws, 'member', admin.domain)).token;
  const viewer = await ctx.addUser(ws, 'viewer', admin.domain);
  tokens.viewer = viewer.token;
  tokens['no-workspace'] = await ctx.tokenFor(`stranger-${MARK}@elsewhere.test`);
  tokens['other-workspace-admin'] = (await ctx.registerAdmin()).token;

  const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: bearer(admin.token), ...(payload ? { payload } : {}) });
  const ally = await as('POST', '/api/clients/command/create-update-single-client', {
    firstName: `Quinn${MARK}`,
    lastName: 'Ally',
    email: `quinn@${MARK}-ally.test`,
    companyName: `${MARK} Ally Co`,
    companyDomain: `${MARK}-ally.test`,
    linkedinUrl: `https://www.linkedin.com/in/${MARK}`,
    tag: 'Investor',
    mapNetwork: true,
  });
  ids.ally = ally.json<TClient>().id;
  const csv = multipartBody({}, [
    { filename: `${MARK}.csv`, content: `Company name,Company domain\n${MARK} Target,${MARK}-target.test\n` },
  ]);
  const upload = await app.inject({
    method: 'POST',
    url: '/api/accounts/command/upload-accounts',
    headers: { ...bearer(admin.token), 'content-type': csv.contentType },
    payload: csv.body,
  });
  ids.import = upload.json<{ id: string }>().id;
  const account = (await as('GET', '/api/accounts/query')).json<TAccountsPage>().rows[0];
  ids.account = account?.id ?? '';
  const viewerMe = await app.inject({ url: '/api/users/query/me', headers: bearer(viewer.token) });
  ids.viewer = viewerMe.json<TMe>().id;
  await ctx.recordGoogleConnection(ws, admin.me.id, admin.email);
  const invited = await as('POST', '/api/teammates/invite', {
    teammates: [{ email: `invitee@${MARK}-corp.test`, role: 'member' }],
  });
  ids.invitation = invited.json<TInviteTeammatesResponse>().invited[0]?.id ?? '';
  const persona = await as('POST', '/api/users/command/create-persona', {
    name: `${MARK} buyers`,
    jobDepartments: [],
    seniorities: [],
    customJobTitles: [`Chief ${MARK}`],
  });
  ids.persona = persona.json<{ id: string }>().id;
  for (const [kind, id] of Object.entries(ids)) if (!id) throw new Error(`fixture ${kind} failed`);
}, 60_000);
afterAll(async () => {
  await app.close();
  await ctx.close();
});

describe('the route × role × tenant matrix', () => {
  it('declares exceptions only for routes that exist', () => {
    const known = new Set(API_CONTRACTS.map((contract) => contract.operationId));
    expect(Object.keys(EXCEPTIONS).filter((operationId) => !known.has(operationId))).toEqual([]);
  });

  for (const caller of CALLERS) {
    it(`answers ${caller} as each route's access says`, async () => {
      const wrong: string[] = [];
      for (const contract of ORDERED) {
        const expected = expectationFor(contract, caller);
        const token = caller === 'anonymous' ? null : tokens[caller];
        const response = await call(contract, token, idFor(contract));
        const cell = `${contract.method} ${contract.path} (${contract.access}) as ${caller}`;
        const refusal = response.statusCode === 401 || response.statusCode === 403;
        if (expected === 'allowed' || expected === 'signed-in') {
          const code = response.statusCode === 403 ? response.json<{ code?: string }>().code : undefined;
          if (refusal && !(expected === 'signed-in' && code === 'NOT_REGISTERED')) {
            wrong.push(`${cell}: ${response.statusCode} ${response.body}`);
          }
        } else {
          const code = response.statusCode === expected.refused ? response.json<{ code?: string }>().code : undefined;
          if (code !== expected.code) wrong.push(`${cell}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
        if (caller === 'other-workspace-admin' && response.statusCode < 300) {
          const body = response.body.toLowerCase();
          const leaked = [MARK, ...Object.values(ids)].filter((value) => body.includes(value.toLowerCase()));
          if (leaked.length > 0) wrong.push(`${cell}: ${response.statusCode} shows workspace A's ${leaked.join(', ')}`);
        }
      }
      expect(wrong).toEqual([]);
    }, 120_000);
  }

  it(`covers every operation for every caller: ${API_CONTRACTS.length} × ${CALLERS.length} cells`, () => {
    expect(ORDERED).toHaveLength(API_CONTRACTS.length);
  });
});
