import type { TContactsPage, TWarmIntroModalData } from '@warmpath/shared';
import { MESSAGES } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork } from '../../../test/graph-fixtures.ts';
import { bearer, createTestContext, deliverPending, type TestContext } from '../../../test/harness.ts';
import { recomputeDirty } from '../../graph/graph.service.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A network where the admin asks the colleague who also met the prospect. */
async function introSetting() {
  const network = await buildNetwork(ctx);
  await recomputeDirty(ctx.database, network.ws);
  const page = await ctx.app.inject({
    method: 'POST',
    url: '/api/contacts/query',
    headers: bearer(network.admin.token),
    payload: { filters: [] },
  });
  const rows = page.json<TContactsPage>().rows;
  const target = rows.find((row) => row.email === network.people.met);
  const colleague = target?.connectors.find((connector) => connector.fullName.endsWith('member'));
  if (!target || !colleague) throw new Error('fixture changed');
  const viaAlly = rows.find((row) => row.email === network.people.viaAlly);
  return { ...network, target, colleague, viaAlly };
}

const modal = (token: string, query: string) =>
  ctx.app.inject({ url: `/api/contacts/query/warm-intro-modal-data?${query}`, headers: bearer(token) });
const send = (token: string, items: unknown[]) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/contacts/command/send-warm-intro-email',
    headers: bearer(token),
    payload: items,
  });

describe('warm intros', () => {
  it('fills the templates with the connector, target and user names', async () => {
    const { admin, target, colleague } = await introSetting();
    const response = await modal(admin.token, `source=connector&targetId=${target.id}&connectorId=${colleague.id}`);
    expect(response.statusCode).toBe(200);
    const data = response.json<TWarmIntroModalData>();
    expect(data.connector).toMatchObject({
      id: colleague.id,
      firstName: 'Test',
      connectionSources: ['GOOGLE_MEETING'],
    });
    expect(data.target.id).toBe(target.id);
    expect(data.contactOwner).toBeNull();
    expect(data.templates.connectorMessage).toMatch(/^Hi Test,/);
    expect(data.templates.connectorMessage).toContain(`you know ${target.name}`);
    expect(data.templates.connectorMessage).toContain('Ada Admin');
    expect(data.templates.introTargetMessage).toContain('introduce you to Ada Admin');
    expect(data).toMatchObject({ introRequestsLast7Days: 0, weeklyCap: 3 });
  });

  it('refuses a connector who does not know the prospect, and another workspace’s prospect', async () => {
    const { admin, target, viaAlly } = await introSetting();
    const ally = viaAlly?.clientsConnected[0];
    const wrongKind = await modal(admin.token, `source=connector&targetId=${target.id}&connectorId=${ally?.id}`);
    expect(wrongKind.statusCode).toBe(404);
    expect(wrongKind.json().code).toBe('NOT_FOUND');
    const stranger = await ctx.registerAdmin();
    const foreign = await modal(stranger.token, `source=client&targetId=${viaAlly?.id}&connectorId=${ally?.id}`);
    expect(foreign.statusCode).toBe(404);
  });

  it('needs Google to send', async () => {
    const { admin, target, colleague } = await introSetting();
    const response = await send(admin.token, [
      {
        connectorId: colleague.id,
        prospectContactId: target.id,
        connectorMessage: 'Hi',
        introTargetMessage: '',
        source: 'connector',
      },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'NOT_CONNECTED', message: MESSAGES.mustConnectGoogle });
  });

  it('sends a real e-mail from the user’s Google account once, records it, and protects the connector', async () => {
    const { admin, ws, target, colleague } = await introSetting();
    await ctx.connectGoogle(admin.token, admin.email);
    const item = {
      connectorId: colleague.id,
      prospectContactId: target.id,
      connectorMessage: 'Hi Test, would you introduce me?',
      introTargetMessage: 'Hi, meet Ada.',
      source: 'connector',
    };
    const sent = await send(admin.token, [item]);
    expect(sent.statusCode).toBe(200);
    const repeated = await send(admin.token, [item]);
    expect(repeated.statusCode).toBe(429);
    expect(repeated.json().code).toBe('LIMIT_REACHED');
    // Two weeks later, asking again needs the sender's word; with it, it goes.
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`update actions set acted_at = now() - interval '14 days'
                      where workspace_id = ${ws} and prospect_id = ${target.id} and type = 'ask-intro'`),
    );
    const unconfirmed = await send(admin.token, [item]);
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json().code).toBe('NEEDS_CONFIRMATION');
    expect(unconfirmed.json().message).toMatch(/in the last 30 days\. Ask again\?$/);
    expect((await send(admin.token, [{ ...item, confirmRepeat: true }])).statusCode).toBe(200);

    await deliverPending(ctx, ws);
    const colleagueEmail = await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute<{ email: string }>(sql`select email from users where workspace_id = ${ws} and last_name = 'member'`),
    );
    const mail = ctx.google.sentMail({ to: colleagueEmail.rows[0]?.email });
    expect(mail).toHaveLength(2);
    expect(mail[0]?.subject).toContain(`Intro to ${target.name}`);
    expect(mail[0]?.text).toContain('Hi Test, would you introduce me?');
    expect(mail[0]?.text).toContain('Hi, meet Ada.');

    // The row shows the request, and the connector's count went up.
    const page = await ctx.app.inject({
      method: 'POST',
      url: `/api/contacts/query`,
      headers: bearer(admin.token),
      payload: { filters: [{ name: 'personName', values: [target.id] }] },
    });
    expect(page.json<TContactsPage>().rows[0]?.introRequestedAt).toEqual(expect.any(String));
    const data = (
      await modal(admin.token, `source=connector&targetId=${target.id}&connectorId=${colleague.id}`)
    ).json();
    expect(data.introRequestsLast7Days).toBe(1);

    // Past the weekly cap, the connector is not asked again.
    await ctx.database.inWorkspace(ws, (tx) =>
      tx.execute(sql`update workspaces set graph_settings = '{"weeklyIntroCap": 1}' where id = ${ws}`),
    );
    const capped = await send(admin.token, [{ ...item, connectorMessage: 'Again?' }]);
    expect(capped.statusCode).toBe(429);
    expect(capped.json().code).toBe('LIMIT_REACHED');
    expect(capped.json().message).toContain('the limit is 1');
  });
});
