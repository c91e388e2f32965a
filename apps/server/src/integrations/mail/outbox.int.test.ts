import { MESSAGES } from '@warmpath/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, deliverPending, deliveryDeps, type TestContext } from '../../../test/harness.ts';
import { deliveries } from '../../db/schema/index.ts';
import { insertDelivery } from '../../events/events.repo.ts';
import { googleAccount } from '../../features/sources/google/google-account.ts';
import { googleAccountDeps } from '../../features/sources/google/google-deps.ts';
import type { DeliveryStep } from '../attempt.ts';
import { newMessageId } from './compose.ts';
import { findOutboxMessage, insertOutboxEmail } from './outbox.repo.ts';
import { queueEmail } from './send-email.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A worker that dies (throws) at one step of its attempts; the next worker carries on. */
const dyingAt = (step: DeliveryStep) => ({
  ...deliveryDeps(ctx),
  at: async (reached: DeliveryStep) => {
    if (reached === step) throw new Error(`worker died ${step}`);
  },
});

async function senderWithGoogle() {
  const admin = await ctx.registerAdmin();
  await ctx.connectGoogle(admin.token, admin.email);
  const sender = { workspaceId: admin.me.workspaceId, userId: admin.me.id };
  const queue = (to: string) =>
    ctx.database.inWorkspace(sender.workspaceId, (tx) =>
      queueEmail(tx, ctx.jobs, sender, {
        purpose: 'test',
        to: [to],
        subject: `Hello ${to}`,
        text: 'Would you introduce me?',
      }),
    );
  const load = (id: string) =>
    ctx.database.inWorkspace(sender.workspaceId, (tx) => findOutboxMessage(tx, sender.workspaceId, id));
  const delivery = async (emailId: string) => {
    const [row] = await ctx.database.inWorkspace(sender.workspaceId, (tx) =>
      tx
        .select()
        .from(deliveries)
        .where(and(eq(deliveries.workspaceId, sender.workspaceId), eq(deliveries.emailId, emailId))),
    );
    return row;
  };
  const deliver = (options?: Parameters<typeof deliverPending>[2]) =>
    deliverPending(ctx, sender.workspaceId, options).catch((error: unknown) => {
      if (!(error instanceof Error && error.message.startsWith('worker died'))) throw error;
    });
  return { admin, sender, queue, load, delivery, deliver };
}

const sentTo = (to: string) => ctx.google.sentMail({ to });

describe('e-mail through the outbox', () => {
  it('refuses a sender without Google with the spec message', async () => {
    const admin = await ctx.registerAdmin();
    await expect(
      ctx.database.inWorkspace(admin.me.workspaceId, (tx) =>
        queueEmail(
          tx,
          ctx.jobs,
          { workspaceId: admin.me.workspaceId, userId: admin.me.id },
          { purpose: 'test', to: ['x@y.test'], subject: 's', text: 't' },
        ),
      ),
    ).rejects.toThrow(MESSAGES.mustConnectGoogle);
  });

  it("sends a queued e-mail once, from the member's Google account, as a real RFC 5322 message", async () => {
    const { admin, queue, load, delivery, deliver } = await senderWithGoogle();
    const to = `once-${Date.now()}@partner.test`;
    const id = await queue(to);
    await deliver();
    await deliver({ dueOnly: false });
    const sent = sentTo(to);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: { email: admin.email, name: 'Ada Admin' }, subject: `Hello ${to}` });
    expect(sent[0]?.text).toContain('Would you introduce me?');
    expect(await load(id)).toMatchObject({ status: 'sent', draftId: expect.any(String) });
    expect(await delivery(id)).toMatchObject({ destination: 'email', status: 'delivered', attempts: 1 });
  });

  it('sends exactly once when the worker died after creating the draft', async () => {
    const { queue, load, deliver } = await senderWithGoogle();
    const to = `after-draft-${Date.now()}@partner.test`;
    const id = await queue(to);
    await deliver({ deps: dyingAt('after-draft') });
    const drafted = await load(id);
    expect(drafted).toMatchObject({ status: 'drafted', draftId: expect.any(String) });
    expect(sentTo(to)).toHaveLength(0);
    await deliver();
    expect(sentTo(to)).toHaveLength(1);
    expect(await load(id)).toMatchObject({ status: 'sent', draftId: drafted?.draftId });
  });

  it('sends exactly once when the worker died after sending but before recording it: Sent has it', async () => {
    const { queue, load, deliver } = await senderWithGoogle();
    const to = `after-send-${Date.now()}@partner.test`;
    const id = await queue(to);
    await deliver({ deps: dyingAt('after-send') });
    expect(sentTo(to)).toHaveLength(1);
    expect(await load(id)).toMatchObject({ status: 'drafted', gmailMessageId: null });
    await deliver();
    expect(sentTo(to)).toHaveLength(1);
    // The sent message was found in Sent by its Message-ID, and recorded.
    expect(await load(id)).toMatchObject({ status: 'sent', gmailMessageId: sentTo(to)[0]?.id });
  });

  it('composes the message again when the sender deleted its draft before it left', async () => {
    const { sender, queue, load, deliver } = await senderWithGoogle();
    const to = `deleted-draft-${Date.now()}@partner.test`;
    const id = await queue(to);
    await deliver({ deps: dyingAt('after-draft') });
    const draftId = (await load(id))?.draftId ?? '';
    const deps = googleAccountDeps(ctx.config, ctx.database, ctx.encryptionKey);
    const account = await googleAccount(deps, sender.workspaceId, sender.userId);
    await deps.google.gmail(account.auth).users.drafts.delete({ userId: 'me', id: draftId });
    await deliver();
    expect(sentTo(to)).toHaveLength(1);
    const sent = await load(id);
    expect(sent).toMatchObject({ status: 'sent' });
    expect(sent?.draftId).not.toBe(draftId);
  });

  it('retries on its schedule, then gives up visibly, and can be sent again', async () => {
    const { admin, queue, delivery, deliver } = await senderWithGoogle();
    const to = `retry-${Date.now()}@partner.test`;
    const id = await queue(to);
    ctx.google.rateLimitNextCalls(1);
    await deliver();
    const first = await delivery(id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('Gmail') });
    expect(first?.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // Not due yet: nothing is attempted.
    await deliver();
    expect(await delivery(id)).toMatchObject({ attempts: 1 });

    ctx.google.rateLimitNextCalls(100);
    for (let attempt = 1; attempt < 6; attempt++) await deliver({ dueOnly: false });
    ctx.google.rateLimitNextCalls(0);
    expect(await delivery(id)).toMatchObject({ status: 'failed', attempts: 6, nextAttemptAt: null });
    expect(sentTo(to)).toHaveLength(0);

    // The member sees it, and can send it again.
    const undelivered = await ctx.app.inject({
      url: '/api/google/query/undelivered-emails',
      headers: bearer(admin.token),
    });
    expect(undelivered.json()).toEqual([
      expect.objectContaining({ id, to: [to], status: 'failed', attempts: 6, lastError: expect.any(String) }),
    ]);
    const retry = await ctx.app.inject({
      method: 'POST',
      url: `/api/google/command/retry-email/${id}`,
      headers: bearer(admin.token),
    });
    expect(retry.statusCode).toBe(204);
    await deliver();
    expect(sentTo(to)).toHaveLength(1);
    const none = await ctx.app.inject({ url: '/api/google/query/undelivered-emails', headers: bearer(admin.token) });
    expect(none.json()).toEqual([]);
  });

  it('queues again, when a worker starts, an e-mail whose delivery has no job (carried over from the old outbox)', async () => {
    const { sender, load } = await senderWithGoogle();
    const to = `stranded-${Date.now()}@partner.test`;
    // As migration 0041 leaves an e-mail that was waiting: its row and its delivery, and no job.
    const id = await ctx.database.inWorkspace(sender.workspaceId, async (tx) => {
      const emailId = await insertOutboxEmail(tx, {
        ...sender,
        senderUserId: sender.userId,
        purpose: 'test',
        message: {
          to: [to],
          cc: [],
          subject: 'Waiting',
          text: 'Carried over',
          messageId: newMessageId('partner.test'),
        },
      });
      await insertDelivery(tx, sender.workspaceId, { emailId }, 'email');
      return emailId;
    });
    expect(await ctx.jobs.requeueStrandedDeliveries({ workspaceId: sender.workspaceId })).toBe(1);
    // Its job is queued now: nothing more to do.
    expect(await ctx.jobs.requeueStrandedDeliveries({ workspaceId: sender.workspaceId })).toBe(0);
    await deliverPending(ctx, sender.workspaceId);
    expect(sentTo(to)).toHaveLength(1);
    expect(await load(id)).toMatchObject({ status: 'sent' });
  });
});
