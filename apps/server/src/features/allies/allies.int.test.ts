import type { TAllyMatches, TAllyShare, TAllySharedConnections, TClient } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approveGoogleConsent,
  bearer,
  createTestContext,
  deliverPending,
  nonceCookie,
  type TestContext,
} from '../../../test/harness.ts';
import { multipartBody } from '../../../test/multipart.ts';
import { createStateSigner } from '../../lib/signed-state.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const HEADER = 'First Name,Last Name,URL,Email Address,Company,Position,Connected On';

function upload(token: string, url: string, content: string, filename = 'list.csv') {
  const { body, contentType } = multipartBody({}, [{ filename, content }]);
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), 'content-type': contentType },
    payload: body,
  });
}

/** A workspace with Google connected (the link leaves from it), one account, and one mapped ally. */
async function workspaceWithAlly(target: string, allyLocalPart = 'alice') {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  await ctx.connectGoogle(admin.token, admin.email);
  const targetDomain = ctx.uniqueDomain();
  const accounts = await upload(
    admin.token,
    '/api/accounts/command/upload-accounts',
    `Company name,Company domain\n${target},${targetDomain}\n`,
  );
  expect(accounts.statusCode).toBe(200);
  const allyDomain = ctx.uniqueDomain();
  const ally = await ctx.app.inject({
    method: 'POST',
    url: '/api/clients/command/create-update-single-client',
    headers: bearer(admin.token),
    payload: {
      firstName: 'Alice',
      lastName: 'Ally',
      email: `${allyLocalPart}@${allyDomain}`,
      companyName: 'Ally Co',
      companyDomain: allyDomain,
      linkedinUrl: `https://www.linkedin.com/in/alice-${allyDomain}`,
      tag: 'Investor',
      mapNetwork: true,
    },
  });
  expect(ally.statusCode).toBe(200);
  return { admin, ws, targetDomain, ally: ally.json<TClient>(), allyEmail: `${allyLocalPart}@${allyDomain}` };
}

/** Sends the link and reads its token out of the mail the Google sandbox received. */
async function sendLink(team: Awaited<ReturnType<typeof workspaceWithAlly>>) {
  const sent = await ctx.app.inject({
    method: 'POST',
    url: `/api/clients/command/send-share-link/${team.ally.id}`,
    headers: bearer(team.admin.token),
  });
  expect(sent.statusCode).toBe(200);
  expect(sent.json()).toMatchObject({ sentTo: team.allyEmail });
  await deliverPending(ctx, team.ws);
  const mail = ctx.google.sentMail({ to: team.allyEmail });
  expect(mail).toHaveLength(1);
  const link = /(http\S+\/share\?token=\S+)/.exec(mail[0]?.text ?? '')?.[1];
  if (!link) throw new Error('no link in the mail');
  return new URL(link).searchParams.get('token') ?? '';
}

const publicCall = (method: 'GET' | 'POST', path: string, token: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/public/ally-share${path}?token=${encodeURIComponent(token)}`,
    ...(payload ? { payload } : {}),
  });

function uploadConnections(token: string, rows: string[]) {
  const { body, contentType } = multipartBody({}, [
    {
      filename: 'Connections.csv',
      content: ['Notes:', '"Some emails are missing."', '', HEADER, ...rows].join('\r\n'),
    },
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/public/ally-share/match?token=${encodeURIComponent(token)}`,
    headers: { 'content-type': contentType },
    payload: body,
  });
}

const stored = (ws: string, names: string[]) =>
  ctx.database.inWorkspace(ws, async (tx) => {
    const { rows } = await tx.execute<{ hits: number }>(sql`
      select ((select count(*) from people where full_name = any(${sql.param(names)}::text[]))
            + (select count(*) from ally_connections where company = any(${sql.param(names)}::text[]) or position = any(${sql.param(names)}::text[])))::int as hits`);
    return rows[0]?.hits ?? 0;
  });

describe('an ally shares matches only', { timeout: 60_000 }, () => {
  it('keeps only people at the accounts, stores nothing else, lets the ally remove one, and withdraw all', async () => {
    const team = await workspaceWithAlly('Targetron');
    const token = await sendLink(team);

    const page = await publicCall('GET', '', token);
    expect(page.statusCode).toBe(200);
    expect(page.json<TAllyShare>()).toMatchObject({ allyName: 'Alice Ally', status: 'open', shared: [] });

    const matched = await uploadConnections(token, [
      'Tara,Target,https://www.linkedin.com/in/tara-target,,Targetron,CTO,01 Jan 2024',
      'Tom,Target,https://www.linkedin.com/in/tom-target,,targetron,VP Sales,02 Jan 2024',
      'Olga,Outsider,https://www.linkedin.com/in/olga-outsider,olga@elsewhere.test,Elsewhere Discarded Inc,Secret Role,03 Jan 2024',
    ]);
    expect(matched.statusCode).toBe(200);
    const { matches, matchToken, scanned } = matched.json<TAllyMatches>();
    expect(scanned).toBe(3);
    expect(matches.map((match) => match.fullName)).toEqual(['Tara Target', 'Tom Target']);
    // Matching wrote nothing: not the matches, not the rest.
    expect(await stored(team.ws, ['Tara Target', 'Tom Target', 'Olga Outsider', 'Elsewhere Discarded Inc'])).toBe(0);

    // A confirmation can keep only what was matched and signed: an added person is ignored.
    const confirmed = await publicCall('POST', '/confirm', token, {
      matchToken,
      keep: ['https://www.linkedin.com/in/tara-target', 'https://www.linkedin.com/in/olga-outsider'],
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json<TAllyShare>()).toMatchObject({ status: 'confirmed', shared: [{ fullName: 'Tara Target' }] });
    expect(await stored(team.ws, ['Olga Outsider', 'Tom Target', 'Elsewhere Discarded Inc', 'Secret Role'])).toBe(0);
    const forged = await publicCall('POST', '/confirm', token, { matchToken: `${matchToken}x`, keep: [] });
    expect(forged.statusCode).toBe(400);

    // The admin sees the confirmed match, as the ally's connection in the network.
    const shared = await ctx.app.inject({
      url: `/api/clients/query/shared-connections/${team.ally.id}`,
      headers: bearer(team.admin.token),
    });
    expect(shared.json<TAllySharedConnections>().rows.map((row) => row.fullName)).toEqual(['Tara Target']);
    const edges = async () =>
      (
        await ctx.database.inWorkspace(team.ws, (tx) =>
          tx.execute<{ name: string }>(sql`
            select p.full_name as name from network_rows r join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id`),
        )
      ).rows.map((row) => row.name);
    expect(await edges()).toContain('Tara Target');

    // Another workspace sees none of it, and cannot read the ally's list.
    const other = await ctx.registerAdmin();
    const theirs = await ctx.app.inject({
      url: `/api/clients/query/shared-connections/${team.ally.id}`,
      headers: bearer(other.token),
    });
    expect(theirs.json<TAllySharedConnections>().rows).toEqual([]);
    const theirPeople = await ctx.database.inWorkspace(other.me.workspaceId, (tx) =>
      tx.execute(sql`select 1 from people where full_name = 'Tara Target'`),
    );
    expect(theirPeople.rows).toEqual([]);

    // Withdrawn with the same link: gone from the network and the database.
    const withdrawn = await publicCall('POST', '/withdraw', token);
    expect(withdrawn.json<TAllyShare>()).toMatchObject({ status: 'withdrawn', shared: [] });
    expect(await edges()).not.toContain('Tara Target');
    expect(await stored(team.ws, ['Tara Target'])).toBe(0);
  });

  it('refuses a tampered, expired or re-pointed link', async () => {
    const team = await workspaceWithAlly('Linkcorp');
    const token = await sendLink(team);
    const [payload, signature] = token.split('.');
    const value = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;

    // Pointed at another workspace without its signature.
    const other = await ctx.registerAdmin();
    const repointed = `${Buffer.from(JSON.stringify({ ...value, w: other.me.workspaceId })).toString('base64url')}.${signature}`;
    // Altered expiry.
    const extended = `${Buffer.from(JSON.stringify({ ...value, exp: Date.now() + 10 ** 12 })).toString('base64url')}.${signature}`;
    // Signed with our key but already expired.
    const expired = createStateSigner(ctx.encryptionKey, 'ally-share').sign({ w: value.w, s: value.s }, -1);
    // Another purpose's signature (an OAuth state) is not a share link.
    const otherPurpose = createStateSigner(ctx.encryptionKey, 'google-oauth').sign({ w: value.w, s: value.s }, 600);
    for (const bad of [repointed, extended, expired, otherPurpose, 'not-a-token-at-all']) {
      for (const [method, path] of [
        ['GET', ''],
        ['POST', '/withdraw'],
      ] as const) {
        const answer = await publicCall(method, path, bad);
        expect(answer.statusCode, `${path} ${bad.slice(0, 20)}`).toBe(400);
      }
      expect((await uploadConnections(bad, ['A,B,https://www.linkedin.com/in/a-b,,Linkcorp,CEO,'])).statusCode).toBe(
        400,
      );
    }
    // The genuine link still works.
    expect((await publicCall('GET', '', token)).statusCode).toBe(200);
  });
});

/** Every row of every table of the schema the app can read in `ws`, as text, that contains one of `needles`. */
async function anywhere(ws: string, needles: string[]) {
  return ctx.database.inWorkspace(ws, async (tx) => {
    const { rows: tables } = await tx.execute<{ name: string }>(sql`
      select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const found: string[] = [];
    for (const { name } of tables) {
      const { rows } = await tx.execute<{ hits: number }>(sql`
        select count(*)::int as hits from ${sql.identifier(name)} x
         where lower(x::text) like any(${sql.param(needles.map((needle) => `%${needle.toLowerCase()}%`))}::text[])`);
      if ((rows[0]?.hits ?? 0) > 0) found.push(name);
    }
    return found;
  });
}

/** Starts the ally's consent, approves it in the sandbox as `email`, and follows the callback. */
async function connectAllyGoogle(token: string, email: string) {
  const start = await publicCall('POST', '/google', token);
  expect(start.statusCode).toBe(200);
  const consentUrl = start.json<{ url: string }>().url;
  const callback = await approveGoogleConsent(consentUrl, email);
  const back = await ctx.app.inject({
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: nonceCookie(start) },
  });
  return { start, consentUrl, callback, back };
}

describe("an ally's Google account, read once", { timeout: 90_000 }, () => {
  it('matches only people at the accounts, keeps no token and none of the rest, and confirms like the file', async () => {
    const team = await workspaceWithAlly('Googletron', 'gina+empty');
    const token = await sendLink(team);
    const ally = team.allyEmail;
    const at = (local: string) => `${local}@${team.targetDomain}`;
    const elsewhere = ctx.uniqueDomain();
    const sandbox = ctx.google;
    sandbox.user(ally).contacts.addConnection({
      givenName: 'Carl',
      familyName: 'Contact',
      displayName: 'Carl Contact',
      familyFirst: false,
      emails: [{ value: 'carl.contact@gmail.com' }],
      organization: { name: 'Googletron', title: 'CFO' },
      updated: Date.now(),
    });
    sandbox.user(ally).contacts.addConnection({
      givenName: 'Dora',
      familyName: 'Discard',
      displayName: 'Dora Discard',
      familyFirst: false,
      emails: [{ value: `dora@${elsewhere}` }],
      organization: { name: 'Discarded Org', title: 'Secret Title' },
      updated: Date.now(),
    });
    // Two ways with Tara (target) and Olga (elsewhere); Nadia (target) only wrote, cold.
    sandbox.addMail(ally, { from: { name: 'Tara Target', email: at('tara') }, to: [ally] });
    sandbox.addMail(ally, { from: ally, to: [{ name: 'Tara Target', email: at('tara') }] });
    sandbox.addMail(ally, { from: { name: 'Olga Outsider', email: `olga@${elsewhere}` }, to: [ally] });
    sandbox.addMail(ally, { from: ally, to: [{ name: 'Olga Outsider', email: `olga@${elsewhere}` }] });
    sandbox.addMail(ally, { from: { name: 'Nadia Newsletter', email: at('nadia') }, to: [ally] });
    // Met Mia (target) and Mo (elsewhere).
    sandbox.addMeetings(ally, {
      attendees: [
        { name: 'Mia Meeting', email: at('mia') },
        { name: 'Mo Outsider', email: `mo@${elsewhere}` },
      ],
    });

    const { consentUrl, back } = await connectAllyGoogle(token, ally);
    // Read-only scopes, and no offline access: no refresh token can exist.
    const scopes = new URL(consentUrl).searchParams.get('scope')?.split(' ') ?? [];
    expect(scopes.sort()).toEqual([
      'https://www.googleapis.com/auth/calendar.events.readonly',
      'https://www.googleapis.com/auth/contacts.readonly',
      'https://www.googleapis.com/auth/gmail.metadata',
    ]);
    expect(new URL(consentUrl).searchParams.get('access_type')).toBe('online');
    expect(back.statusCode).toBe(302);
    const location = new URL(back.headers.location as string);
    expect(location.pathname).toBe('/share');
    expect(location.searchParams.get('token')).toBe(token);
    const ref = location.searchParams.get('fromGoogle') ?? '';
    // The token was used once and revoked at Google.
    expect(sandbox.oauth.activeGrants(ally)).toEqual([]);

    const read = await publicCall('POST', '/google/matches', token, { ref });
    expect(read.statusCode).toBe(200);
    const { matches, matchToken, scanned } = read.json<TAllyMatches>();
    // Carl, Dora, Tara, Olga, Mia and Mo: Nadia only wrote, so the two-way rule never read her in.
    expect(scanned).toBe(6);
    expect(matches).toEqual([
      {
        fullName: 'Carl Contact',
        profileUrl: null,
        email: 'carl.contact@gmail.com',
        company: 'Googletron',
        position: 'CFO',
      },
      { fullName: 'Mia Meeting', profileUrl: null, email: at('mia'), company: 'Googletron', position: null },
      { fullName: 'Tara Target', profileUrl: null, email: at('tara'), company: 'Googletron', position: null },
    ]);
    // Read once: the reference is gone.
    expect((await publicCall('POST', '/google/matches', token, { ref })).statusCode).toBe(404);

    const confirmed = await publicCall('POST', '/confirm', token, {
      matchToken,
      keep: [at('tara'), at('mia'), `olga@${elsewhere}`],
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json<TAllyShare>().shared.map((match) => match.fullName)).toEqual(['Mia Meeting', 'Tara Target']);
    const shared = await ctx.app.inject({
      url: `/api/clients/query/shared-connections/${team.ally.id}`,
      headers: bearer(team.admin.token),
    });
    expect(shared.json<TAllySharedConnections>().rows.map((row) => row.email)).toEqual([at('mia'), at('tara')]);

    // Nothing of the rest anywhere in the database: not the discarded, not the removed, not the token.
    const discarded = [
      'Carl Contact',
      'carl.contact',
      'Dora Discard',
      'Discarded Org',
      'Secret Title',
      'Olga',
      'Nadia',
      'Mo Outsider',
      elsewhere,
    ];
    expect(await anywhere(team.ws, discarded)).toEqual([]);
    expect(await anywhere(team.ws, ['ya29.'])).toEqual([]);
    expect(await anywhere(team.ws, ['Tara Target', 'Mia Meeting'])).not.toEqual([]);

    // Withdrawn with the same link, as the file's: the people created for the share are gone too.
    const withdrawn = await publicCall('POST', '/withdraw', token);
    expect(withdrawn.json<TAllyShare>()).toMatchObject({ status: 'withdrawn', shared: [] });
    expect(await anywhere(team.ws, ['Tara Target', 'Mia Meeting', at('tara')])).toEqual([]);
  });

  it('refuses a tampered or expired state, another browser, and a link of another workspace', async () => {
    const team = await workspaceWithAlly('Statecorp', 'sam+empty');
    const token = await sendLink(team);
    const other = await workspaceWithAlly('Othercorp', 'oscar+empty');
    const otherToken = await sendLink(other);

    const start = await publicCall('POST', '/google', token);
    const callback = await approveGoogleConsent(start.json<{ url: string }>().url, team.allyEmail);
    const state = callback.searchParams.get('state') ?? '';
    const [payload, signature] = state.split('.');
    const value = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const callbackWith = (altered: string, cookie = nonceCookie(start)) => {
      const url = new URL(callback);
      url.searchParams.set('state', altered);
      return ctx.app.inject({ url: `${url.pathname}${url.search}`, headers: { cookie } });
    };
    // The other workspace's link put in this state, without a signature of its own.
    const repointed = `${Buffer.from(JSON.stringify({ ...value, t: otherToken })).toString('base64url')}.${signature}`;
    const extended = `${Buffer.from(JSON.stringify({ ...value, exp: Date.now() + 10 ** 12 })).toString('base64url')}.${signature}`;
    const expired = createStateSigner(ctx.encryptionKey, 'ally-google-oauth').sign({ ...value }, -1);
    // A state of the members' Google flow is not an ally's.
    const members = createStateSigner(ctx.encryptionKey, 'google-oauth').sign({ ...value }, 600);
    for (const bad of [repointed, extended, expired, members, 'garbage']) {
      const answer = await callbackWith(bad);
      expect(answer.statusCode, bad.slice(0, 20)).toBe(400);
    }
    // An altered or expired link is refused at the start, with the file flow's error.
    for (const bad of [
      `${token}x`,
      createStateSigner(ctx.encryptionKey, 'ally-share').sign({ w: team.ws, s: value.t }, -1),
    ]) {
      const answer = await publicCall('POST', '/google', bad);
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ message: string }>().message).toBe(
        'This share link was altered or has expired. Ask for a new one.',
      );
    }
    // Approved in another browser (no nonce cookie): nothing is read.
    const elsewhere = await callbackWith(state, 'warmpath_ally_google_oauth=someone-else');
    expect(elsewhere.statusCode).toBe(302);
    expect(new URL(elsewhere.headers.location as string).searchParams.get('fromGoogle')).toBe('other-browser');

    // A permission unticked on the consent: nothing read, the ally told so on their page, the token revoked.
    const partial = await publicCall('POST', '/google', token);
    const unticked = await approveGoogleConsent(partial.json<{ url: string }>().url, team.allyEmail, [
      'https://www.googleapis.com/auth/gmail.metadata',
    ]);
    const failed = await ctx.app.inject({
      url: `${unticked.pathname}${unticked.search}`,
      headers: { cookie: nonceCookie(partial) },
    });
    expect(failed.statusCode).toBe(302);
    expect(new URL(failed.headers.location as string).searchParams.get('fromGoogle')).toBe('failed');
    expect(ctx.google.oauth.activeGrants(team.allyEmail)).toEqual([]);

    // The genuine callback lands in this workspace's share only; the other link cannot read its matches.
    const genuine = await callbackWith(state);
    const ref = new URL(genuine.headers.location as string).searchParams.get('fromGoogle') ?? '';
    expect((await publicCall('POST', '/google/matches', otherToken, { ref })).statusCode).toBe(404);
    expect((await publicCall('POST', '/google/matches', token, { ref })).statusCode).toBe(200);
  });
});
