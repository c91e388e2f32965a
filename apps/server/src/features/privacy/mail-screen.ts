import type { InteractionEvidence } from '../../graph/evidence.repo.ts';
import type { Blocklist } from './blocklist.ts';

/** Who the member is, and who counts as a colleague (a member, or an address at a workspace domain). */
export type ScreenContext = { owner: string; blocklist: Blocklist; isColleague: (email: string) => boolean };

export function colleagueTest(domains: readonly string[], members: readonly string[]) {
  const domainSet = new Set(domains.map((domain) => domain.toLowerCase()));
  const memberSet = new Set(members.map((email) => email.toLowerCase()));
  return (email: string) => memberSet.has(email) || domainSet.has(email.slice(email.lastIndexOf('@') + 1));
}

/** The evidence with the member's blocked addresses taken out of it, as if they had never been there. */
export function withoutBlocked(interactions: readonly InteractionEvidence[], blocklist: Blocklist) {
  if (blocklist.size === 0) return [...interactions];
  return interactions.map((interaction) => ({
    ...interaction,
    participants: interaction.participants.filter((participant) => !blocklist.blocks(participant.email)),
    participantCount:
      interaction.participantCount ?? new Set(interaction.participants.map((participant) => participant.email)).size,
  }));
}

/**
 * Who wrote to the member (sent mail they received) and whom the member wrote to, among the outsiders
 * of the mail: the two halves of the two-way rule.
 */
export function correspondence(mail: readonly InteractionEvidence[], context: ScreenContext) {
  const wrote = new Set<string>();
  const written = new Set<string>();
  const outside = (email: string) => email !== context.owner && !context.isColleague(email);
  for (const message of mail) {
    const from = message.participants.filter((participant) => participant.role === 'from').map((p) => p.email);
    const to = message.participants.filter((participant) => participant.role !== 'from').map((p) => p.email);
    if (from.includes(context.owner)) for (const email of to.filter(outside)) written.add(email);
    if (to.includes(context.owner)) for (const email of from.filter(outside)) wrote.add(email);
  }
  return { wrote: [...wrote], written: [...written] };
}

/** Every outsider address the mail mentions: those whose person the two-way rule decides. */
export function outsidersOf(mail: readonly InteractionEvidence[], context: ScreenContext) {
  const emails = new Set<string>();
  for (const message of mail) {
    for (const { email } of message.participants) {
      if (email !== context.owner && !context.isColleague(email)) emails.add(email);
    }
  }
  return [...emails];
}

/**
 * The evidence a member's account may keep: in mail, outsiders only when `allowed` (already a person, or
 * a two-way exchange with the member; newsletters and cold inbound create nobody); meetings as they are.
 * What is left with fewer than two people, or mail without its sender, says nothing and is dropped.
 */
export function screenInteractions(
  interactions: readonly InteractionEvidence[],
  context: ScreenContext,
  allowed: ReadonlySet<string>,
) {
  const kept: InteractionEvidence[] = [];
  for (const interaction of interactions) {
    const participants =
      interaction.kind === 'meeting'
        ? interaction.participants
        : interaction.participants.filter(
            ({ email }) => email === context.owner || context.isColleague(email) || allowed.has(email),
          );
    const people = new Set(participants.map((participant) => participant.email));
    if (people.size < 2) continue;
    if (interaction.kind === 'mail' && !participants.some((participant) => participant.role === 'from')) continue;
    const everyone = new Set(interaction.participants.map((participant) => participant.email)).size;
    kept.push({ ...interaction, participants, participantCount: interaction.participantCount ?? everyone });
  }
  return kept;
}
