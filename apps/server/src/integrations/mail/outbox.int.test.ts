import { MESSAGES } from '@warmpath/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/harness.ts';
import { googleAccount } from '../../features/sources/google/google-account.ts';
import { googleAccountDeps } from '../../features/sources/google/google-deps.ts';
import { composeRaw } from './compose.ts';
import { dispatchDueMessages, OUTBOX_MAX_ATTEMPTS } from './dispatcher.ts';
import { findOutboxMessage, updateOutboxMessage } from './outbox.repo.ts';
import { sendEmailFrom } from './send-email.ts';

let ctx: TestContext;
let deps: ReturnType<typeof googleAccountDeps>;
beforeAll(async () => {
  ctx = await createTestContext();
  deps = googleAccountDeps(ctx.config, ctx.database, ctx.encryptionKey);
});
afterAll(() => ctx.close());

async function senderWithGoogle() {
  const admin = await ctx.registerAdmin();
  await ctx.connectGoogle(admin.token, admin.email);
  const sender = { workspaceId: admin.me.workspaceId, userId: admin.me.id };
  const queue = (to: string) =>
    ctx.database.inWorkspace(sender.workspaceId, (tx) =>
      sendEmailFrom(tx, sender, { purpose: 'test', to: [to], subject: `Hello ${to}`, text: 'Would you introduce me?' }),
    );
  const load = (id: string) =>
    ctx.database.inWorkspace(sender.workspaceId, (tx) => findOutboxMessage(tx, sender.workspaceId, id));
  /** Dispatches until nothing is due, ignoring the lease (as a restarted worker eventually does). */
  const dispatch = () => dispatchDueMessages(deps, { leaseSeconds: 0, workspaceId: sender.workspaceId });
  return { admin, sender, queue, load, dispatch };
}

const sentTo = (to: string) => ctx.google.sentMail({ to });

describe('the outbox', () => {
  it('refuses a sender without Google with the spec message', async () => {
    const admin = await ctx.registerAdmin();
    await expect(
      ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
        sendEmailFrom(
          tx,
          { workspaceId: admin.me.workspaceId, userId: admin.me.id },
          {
            purpose: 'test',
            to: ['x@y.test'],
            subject: 's',
            text: 't',
          },
        ),
      ),
    ).rejects.toThrow(MESSAGES.mustConnectGoogle);
  });

  it("sends a queued e-mail once, from the member's Google account, as a real RFC 5322 message", async () => {
    const { admin, queue, load, dispatch } = await senderWithGoogle();
    const to = `once-${Date.now()}@partner.test`;
    const id = await queue(to);
    await dispatch();
    await dispatch();
    const sent = sentTo(to);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: { email: admin.email, name: 'Ada Admin' }, subject: `Hello ${to}` });
    expect(sent[0]?.text).toContain('Would you introduce me?');
    expect(await load(id)).toMatchObject({ status: 'sent', draftId: expect.any(String), attempts: 0 });
  });

  it('sends exactly once when the worker died after creating the draft', async () => {
    const { sender, queue, load, dispatch } = await senderWithGoogle();
    const to = `after-draft-${Date.now()}@partner.test`;
    const id = await queue(to);
    // A worker created the draft and recorded it, then died before sending it.
    const account = await googleAccount(deps, sender.workspaceId, sender.userId);
    const row = await load(id);
    const raw = await composeRaw('me@x.test', row?.message ?? { to: [], cc: [], subject: '', text: '', messageId: '' });
    const draft = await deps.google
      .gmail(account.auth)
      .users.drafts.create({ userId: 'me', requestBody: { message: { raw } } });
    await ctx.database.inWorkspace(sender.workspaceId, (tx) =>
      updateOutboxMessage(tx, sender.workspaceId, id, { draftId: draft.data.id ?? null, status: 'drafted' }),
    );
    await dispatch();
    expect(sentTo(to)).toHaveLength(1);
    expect(await load(id)).toMatchObject({ status: 'sent', draftId: draft.data.id });
  });

  it('sends exactly once when the worker died after sending but before recording it', async () => {
    const { sender, queue, load, dispatch } = await senderWithGoogle();
    const to = `after-send-${Date.now()}@partner.test`;
    const id = await queue(to);
    await dispatch();
    expect(sentTo(to)).toHaveLength(1);
    // Rewind the record to "drafted": exactly what a crash between the send and its commit leaves.
    await ctx.database.inWorkspace(sender.workspaceId, async (tx) => {
      await updateOutboxMessage(tx, sender.workspaceId, id, { status: 'drafted', gmailMessageId: null, sentAt: null });
      await tx.execute(
        `insert into outbox_dispatch (outbox_id, workspace_id) values ('${id}', '${sender.workspaceId}')`,
      );
    });
    await dispatch();
    expect(sentTo(to)).toHaveLength(1);
    expect(await load(id)).toMatchObject({ status: 'sent' });
  });

  it('retries with back-off, then gives up visibly', async () => {
    const { admin, queue, load, dispatch } = await senderWithGoogle();
    const to = `retry-${Date.now()}@partner.test`;
    const id = await queue(to);
    ctx.google.rateLimitNextCalls(1);
    await dispatch();
    expect(await load(id)).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.any(String) });
    const due = await ctx.database.db.execute(
      `select due_at > now() + interval '20 seconds' as later from outbox_dispatch where outbox_id = '${id}'`,
    );
    expect(due.rows[0]).toEqual({ later: true });

    ctx.google.rateLimitNextCalls(100);
    for (let attempt = 1; attempt < OUTBOX_MAX_ATTEMPTS; attempt++) {
      await ctx.database.db.execute(`update outbox_dispatch set due_at = now() where outbox_id = '${id}'`);
      await dispatch();
    }
    ctx.google.rateLimitNextCalls(0);
    expect(await load(id)).toMatchObject({ status: 'failed', attempts: OUTBOX_MAX_ATTEMPTS });
    expect(sentTo(to)).toHaveLength(0);

    // The member sees it, and can send it again.
    const undelivered = await ctx.app.inject({
      url: '/api/google/query/undelivered-emails',
      headers: bearer(admin.token),
    });
    expect(undelivered.json()).toEqual([
      expect.objectContaining({
        id,
        to: [to],
        status: 'failed',
        attempts: OUTBOX_MAX_ATTEMPTS,
        lastError: expect.any(String),
      }),
    ]);
    const retry = await ctx.app.inject({
      method: 'POST',
      url: `/api/google/command/retry-email/${id}`,
      headers: bearer(admin.token),
    });
    expect(retry.statusCode).toBe(204);
    await dispatch();
    expect(sentTo(to)).toHaveLength(1);
    const none = await ctx.app.inject({ url: '/api/google/query/undelivered-emails', headers: bearer(admin.token) });
    expect(none.json()).toEqual([]);
  });
});
