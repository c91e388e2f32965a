import { ContactBook } from './contacts.ts';
import type { StoredMessage } from './mailbox.ts';
import { createRandom } from './random.ts';
import type { World } from './world.ts';

/** Saved contacts (stale after a job change, as real contact books are) and the "other contacts". */
export function buildContacts(world: World, messages: readonly StoredMessage[]): ContactBook {
  const contacts = new ContactBook(createRandom(`${world.seed}:contacts`));
  const random = createRandom(`${world.seed}:contact-details`);
  const saved = world.people.filter((person) => person.saved && person.kind !== 'self');
  const entries = saved.map((person) => {
    const stale = person.formerEmail !== undefined && person.changedAt !== undefined && person.start < person.changedAt;
    const companyIndex = stale ? person.formerCompany : person.company;
    const company = companyIndex === undefined || companyIndex === null ? undefined : world.companies[companyIndex];
    const organizationName = person.kind === 'colleague' ? world.userCompany.name : company?.name;
    const email = stale ? (person.formerEmail ?? person.email) : person.email;
    const phoneOnly = person.phone !== undefined && random.chance(0.5);
    const updated = Math.floor(Math.min(world.anchor, person.start + random.next() * (world.anchor - person.start)));
    return {
      givenName: person.givenName,
      familyName: person.familyName,
      displayName: person.displayName,
      familyFirst: person.displayName === `${person.familyName}${person.givenName}`,
      emails: phoneOnly
        ? []
        : [{ value: email, type: person.company === null && person.kind !== 'colleague' ? 'home' : 'work' }],
      organization: organizationName
        ? { name: organizationName, title: (stale ? person.formerTitle : person.title) ?? '' }
        : undefined,
      phone: person.phone,
      updated,
    };
  });
  entries.sort((a, b) => a.updated - b.updated);
  for (const entry of entries) contacts.addConnection(entry);
  for (const message of messages) {
    if (!message.labelIds.includes('SENT')) continue;
    for (const recipient of [...message.to, ...message.cc, ...message.bcc]) {
      if (recipient.email !== world.email) contacts.addOtherContact(recipient, message.internalDate, false);
    }
  }
  return contacts;
}
