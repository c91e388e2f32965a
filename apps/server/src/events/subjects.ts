import type { EventData } from '@warmpath/shared';
import type { Tx } from '../db/client.ts';
import { findEventPeople, findEventUser } from './events.repo.ts';

// Who an event is about, in the catalogue's shapes. One place, so every event names a person the
// same way and links back to the same page.

type EventPerson = EventData<'intro.requested'>['prospect'];
type EventUser = EventData<'intro.requested'>['requestedBy'];

/** Where the product shows a person: the network page, opened on them. */
export const personUrl = (publicUrl: string, personId: string) =>
  `${publicUrl}/network?personId=${encodeURIComponent(personId)}`;

/** The people of an event by id, each with its link; throws when one is unknown (a bug, not a state). */
export async function eventPeople(tx: Tx, workspaceId: string, publicUrl: string, personIds: readonly string[]) {
  const rows = await findEventPeople(tx, workspaceId, personIds);
  const byId = new Map(
    rows.map((row): [string, EventPerson] => [
      row.id,
      {
        id: row.id,
        name: row.name,
        email: row.email,
        title: row.title,
        companyName: row.company_name,
        companyDomain: row.company_domain,
        url: personUrl(publicUrl, row.id),
      },
    ]),
  );
  return (id: string) => {
    const person = byId.get(id);
    if (!person) throw new Error(`person ${id} of an event is not in workspace ${workspaceId}`);
    return person;
  };
}

export async function eventUser(tx: Tx, workspaceId: string, userId: string): Promise<EventUser> {
  const user = await findEventUser(tx, workspaceId, userId);
  if (!user) throw new Error(`user ${userId} of an event is not in workspace ${workspaceId}`);
  return user;
}
