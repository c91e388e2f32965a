import type { TAllyMatches, TAllyShare, TAllySharedConnections, TClient } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, deliverPending, type TestContext } from '../../../test/harness.ts';
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
async function workspaceWithAlly(target: string) {
  const admin = await ctx.registerAdmin();
  const ws = admin.me.workspaceId;
  await ctx.connectGoogle(admin.token, admin.email);
  const accounts = await upload(
    admin.token,
    '/api/accounts/command/upload-accounts',
    `Company name,Company domain\n${target},${ctx.uniqueDomain()}\n`,
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
      email: `alice@${allyDomain}`,
      companyName: 'Ally Co',
      companyDomain: allyDomain,
      linkedinUrl: `https://www.linkedin.com/in/alice-${allyDomain}`,
      tag: 'Investor',
      mapNetwork: true,
    },
  });
  expect(ally.statusCode).toBe(200);
  return { admin, ws, ally: ally.json<TClient>(), allyEmail: `alice@${allyDomain}` };
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
