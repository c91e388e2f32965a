import type { gmail_v1 } from '@googleapis/gmail';
import { addressParser } from 'postal-mime';
import type { Database } from '../../db/client.ts';
import { recordActionReplies, type SyncedMessage } from './actions.repo.ts';

// The outcome loop: an intro request or a direct message sent from an action is answered when the
// connector or the prospect writes back in its thread. The Google sync reads every new message's
// headers anyway; these are the ones that tell a reply.

/** The headers a reply is recognised by, besides the sender and the time the sync already asks for. */
export const REPLY_HEADERS = ['In-Reply-To', 'References'];

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
  database: Database,
  target: { workspaceId: string; userId: string; accountEmail: string | null },
  messages: (gmail_v1.Schema$Message | null)[],
) {
  const synced = messages.flatMap((message) => {
    const facts = message ? syncedMessage(message) : null;
    return facts ? [facts] : [];
  });
  if (synced.length === 0) return 0;
  return database.inWorkspace(target.workspaceId, (tx) =>
    recordActionReplies(
      tx,
      target.workspaceId,
      { userId: target.userId, emails: target.accountEmail ? [target.accountEmail.toLowerCase()] : [] },
      synced,
    ),
  );
}
