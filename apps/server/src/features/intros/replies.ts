import type { gmail_v1 } from '@googleapis/gmail';
import { addressParser } from 'postal-mime';
import type { Database, Tx } from '../../db/client.ts';
import type { EventsDeps } from '../../events/record.ts';
import { eventPeople, eventUser } from '../../events/subjects.ts';
import { type RepliedAction, recordActionReplies, type SyncedMessage } from './intros.repo.ts';

// The outcome loop: an intro request or a direct message sent from an action is answered when the
// connector or the prospect writes back in its thread. The Google sync reads every new message's
// headers anyway; these are the ones that tell a reply.

/** The headers a reply is recognised by, besides the sender and the time the sync already asks for. */
export const REPLY_HEADERS = ['In-Reply-To', 'References'];

export type RepliesDeps = {
  database: Database;
  /**
   * Where `intro.replied` goes. Absent when a sync runs outside the worker (tests, benchmarks drive it
   * directly): replies are recorded all the same, and no event is.
   */
  replyEvents?: EventsDeps;
};

export function syncedMessage(message: gmail_v1.Schema$Message): SyncedMessage | null {
  const header = (name: string) =>
    message.payload?.headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? '';
  const from = addressParser(header('From'), { flatten: true })[0]?.address?.toLowerCase();
  if (!message.id || !from || !message.internalDate) return null;
  return {
    id: message.id,
    threadId: message.threadId ?? null,
    from,
    references: `${header('In-Reply-To')} ${header('References')}`.trim(),
    at: new Date(Number(message.internalDate)),
  };
}

/** Marks the member's sent actions these synced messages answer; returns how many got their first reply. */
export async function recordReplies(
  deps: RepliesDeps,
  target: { workspaceId: string; userId: string; accountEmail: string | null },
  messages: (gmail_v1.Schema$Message | null)[],
) {
  const synced = messages.flatMap((message) => {
    const facts = message ? syncedMessage(message) : null;
    return facts ? [facts] : [];
  });
  if (synced.length === 0) return 0;
  const ws = target.workspaceId;
  return deps.database.inWorkspace(ws, async (tx) => {
    const replied = await recordActionReplies(
      tx,
      ws,
      { userId: target.userId, emails: target.accountEmail ? [target.accountEmail.toLowerCase()] : [] },
      synced,
    );
    const { replyEvents } = deps;
    if (replyEvents) {
      for (const action of replied) await recordIntroReplied(tx, ws, replyEvents, action);
    }
    return replied.length;
  });
}

/** An intro request's first reply, as `intro.replied` (a direct message's reply has no event of its own). */
async function recordIntroReplied(tx: Tx, workspaceId: string, deps: EventsDeps, action: RepliedAction) {
  const { connector_id: connectorId, owner_user_id: ownerUserId } = action;
  if (action.type !== 'ask-intro' || !connectorId || !ownerUserId) return;
  await deps.events.record(tx, workspaceId, 'intro.replied', async () => {
    const person = await eventPeople(tx, workspaceId, deps.publicUrl, [action.prospect_id, connectorId]);
    const connector = person(connectorId);
    return {
      actionId: action.id,
      prospect: person(action.prospect_id),
      connector: { id: connector.id, name: connector.name, email: connector.email },
      requestedBy: await eventUser(tx, workspaceId, ownerUserId),
      repliedAt: action.replied_at.toISOString(),
    };
  });
}
