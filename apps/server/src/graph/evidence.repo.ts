import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { cleanDisplayName } from '../lib/display-name.ts';
import { isFreeEmailDomain } from '../lib/free-email-domains.ts';
import { mergeNamelessCompanies, nameCompaniesFromContacts } from './company-names.ts';
import { leftTheirCompany } from './departures.ts';
import { markDirty, peopleWithIds } from './dirty.ts';
import { isErased } from './erased.ts';

export type Participant = { email: string; name: string | null; role: 'from' | 'to' | 'cc' | 'organizer' | 'attendee' };
export type InteractionEvidence = {
  kind: 'mail' | 'meeting';
  externalId: string;
  occurredAt: Date;
  participants: Participant[];
  /**
   * How many people it had, when some were screened out (a member's blocklist, the two-way rule): the
   * too-wide rule counts everyone who was there.
   */
  participantCount?: number;
};

const param = <T>(values: T[]) => sql.param(values);

/**
 * People by e-mail, created once per workspace. A name learnt later replaces a placeholder (the
 * address itself) but never a real name. Header names are cleaned first ('Last, First' reversed,
 * quotes and counts stripped: lib/display-name.ts). Each person with a company domain joins that company; a
 * free mailbox's domain (gmail.com...) names no company, and someone who left it (a confirmed departure)
 * does not join it again.
 */
export async function upsertPeopleByEmail(
  tx: Tx,
  workspaceId: string,
  people: { email: string; name: string | null }[],
) {
  const byEmail = new Map<string, string | null>();
  for (const person of people) {
    const email = person.email.trim().toLowerCase();
    if (!email.includes('@')) continue;
    byEmail.set(email, cleanDisplayName(person.name) || byEmail.get(email) || null);
  }
  if (byEmail.size === 0) return;
  const emails = [...byEmail.keys()];
  const names = emails.map((email) => byEmail.get(email) ?? email);
  const domains = emails.map((email) => email.slice(email.lastIndexOf('@') + 1));
  const companyDomains = [...new Set(domains)].filter((domain) => !isFreeEmailDomain(domain));

  const created = await tx.execute(sql`
    insert into companies (workspace_id, domain, name)
    select ${workspaceId}::uuid, d.domain, initcap(split_part(d.domain, '.', 1))
      from unnest(${param(companyDomains)}::text[]) as d(domain)
    on conflict (workspace_id, domain) do nothing`);
  if ((created.rowCount ?? 0) > 0) await mergeNamelessCompanies(tx, workspaceId);

  await tx.execute(sql`
    insert into people (workspace_id, full_name, email, company_id)
    select ${workspaceId}::uuid, input.name, input.email, c.id
      from unnest(${param(emails)}::text[], ${param(names)}::text[], ${param(domains)}::text[])
             as input(email, name, domain)
      left join companies c on c.workspace_id = ${workspaceId} and c.domain = input.domain
     -- An erased person is not created again from old mail by the next sync.
     where not ${isErased(workspaceId, sql`input.email`)}
    on conflict (workspace_id, email) do update
       set full_name = case when people.full_name = people.email then excluded.full_name else people.full_name end,
           company_id = case when people.company_id is not null or ${leftTheirCompany('people')} then people.company_id
                             else excluded.company_id end,
           updated_at = now()
     where people.full_name = people.email and excluded.full_name <> excluded.email
        or people.company_id is null and excluded.company_id is not null and not ${leftTheirCompany('people')}`);
}

/**
 * Records interactions seen in one member's account. Each is unique by its provider id, so a re-sync
 * (or a sync interrupted and run again) adds nothing twice; participants come with their interaction.
 */
export async function recordInteractions(
  tx: Tx,
  workspaceId: string,
  sourceUserId: string,
  interactions: InteractionEvidence[],
) {
  if (interactions.length === 0) return 0;
  await upsertPeopleByEmail(
    tx,
    workspaceId,
    interactions.flatMap((interaction) => interaction.participants),
  );
  const rows = interactions.flatMap((interaction) =>
    interaction.participants.map((participant) => ({ interaction, participant })),
  );
  const inserted = await tx.execute(sql`
    with input as (
      select * from unnest(
        ${param(interactions.map((i) => i.kind))}::text[],
        ${param(interactions.map((i) => i.externalId))}::text[],
        ${param(interactions.map((i) => i.occurredAt.toISOString()))}::timestamptz[],
        ${param(interactions.map((i) => i.participantCount ?? new Set(i.participants.map((p) => p.email.toLowerCase())).size))}::int[]
      ) as input(kind, external_id, occurred_at, participant_count)
    ), added as (
      insert into interactions (workspace_id, source_user_id, kind, external_id, occurred_at, participant_count)
      select ${workspaceId}::uuid, ${sourceUserId}::uuid, kind, external_id, occurred_at, participant_count from input
      on conflict (workspace_id, source_user_id, kind, external_id) do nothing
      returning id, kind, external_id
    ), participants as (
      select * from unnest(
        ${param(rows.map((r) => r.interaction.kind))}::text[],
        ${param(rows.map((r) => r.interaction.externalId))}::text[],
        ${param(rows.map((r) => r.participant.email.toLowerCase()))}::text[],
        ${param(rows.map((r) => r.participant.role))}::text[]
      ) as p(kind, external_id, email, role)
    )
    insert into interaction_participants (workspace_id, interaction_id, person_id, role)
    select distinct ${workspaceId}::uuid, added.id, people.id, participants.role
      from participants
      join added on added.kind = participants.kind and added.external_id = participants.external_id
      join people on people.workspace_id = ${workspaceId} and people.email = participants.email
    on conflict do nothing`);
  // Everyone in this batch may have a new edge; the incremental recompute takes it from here.
  await markDirty(
    tx,
    workspaceId,
    sql`select id from people
         where workspace_id = ${workspaceId} and email = any(${param([...new Set(rows.map((r) => r.participant.email.toLowerCase()))])}::text[])`,
  );
  return inserted.rowCount ?? 0;
}

/** An address a delivery failure report named, with the report. */
export type DeadAddress = { email: string; bouncedAt: Date; messageId: string; sender: string };

/**
 * Records the addresses delivery failure reports named, keeping each one's latest report: a re-sync
 * reading the same reports again changes nothing. No person and no interaction comes of it.
 */
export async function recordDeadAddresses(tx: Tx, workspaceId: string, sourceUserId: string, dead: DeadAddress[]) {
  const latest = new Map<string, DeadAddress>();
  for (const item of dead) {
    const email = item.email.trim().toLowerCase();
    const known = latest.get(email);
    if (!known || known.bouncedAt < item.bouncedAt) latest.set(email, { ...item, email });
  }
  if (latest.size === 0) return 0;
  const rows = [...latest.values()];
  const written = await tx.execute(sql`
    insert into dead_addresses (workspace_id, email, bounced_at, source_user_id, evidence)
    select ${workspaceId}::uuid, input.email, input.bounced_at, ${sourceUserId}::uuid,
           jsonb_build_object('messageId', input.message_id, 'sender', input.sender)
      from unnest(${param(rows.map((row) => row.email))}::text[],
                  ${param(rows.map((row) => row.bouncedAt.toISOString()))}::timestamptz[],
                  ${param(rows.map((row) => row.messageId))}::text[],
                  ${param(rows.map((row) => row.sender))}::text[]) as input(email, bounced_at, message_id, sender)
    on conflict (workspace_id, email) do update
       set bounced_at = excluded.bounced_at, source_user_id = excluded.source_user_id, evidence = excluded.evidence
     where excluded.bounced_at > dead_addresses.bounced_at`);
  return written.rowCount ?? 0;
}

/** A member's address book, replacing what an earlier sync recorded from the same source. */
export async function recordAddressBook(
  tx: Tx,
  workspaceId: string,
  userId: string,
  source: 'contact' | 'other_contact',
  entries: AddressBookEntry[],
) {
  await upsertPeopleByEmail(tx, workspaceId, entries);
  const byEmail = new Map(entries.map((entry) => [entry.email.trim().toLowerCase(), entry]));
  const emails = [...byEmail.keys()];
  const text = (pick: (entry: AddressBookEntry) => string | null | undefined) =>
    param(emails.map((email) => pick(byEmail.get(email) as AddressBookEntry)?.trim() || null));
  const input = sql`
    select p.id as person_id, input.organization, input.job_title
      from unnest(${param(emails)}::text[], ${text((entry) => entry.organization)}::text[],
                  ${text((entry) => entry.title)}::text[]) as input(email, organization, job_title)
      join people p on p.workspace_id = ${workspaceId} and p.email = input.email`;
  await tx.execute(sql`
    insert into address_book_entries (workspace_id, user_id, person_id, source, organization, job_title)
    select ${workspaceId}::uuid, ${userId}::uuid, person_id, ${source}, organization, job_title from (${input}) input
    on conflict (workspace_id, user_id, person_id, source) do update
       set organization = excluded.organization, job_title = excluded.job_title
     where (address_book_entries.organization, address_book_entries.job_title)
           is distinct from (excluded.organization, excluded.job_title)`);
  // A title from an address book fills a gap; LinkedIn, imports and the CRM say it better and overwrite it.
  const titled = await tx.execute<{ id: string }>(sql`
    update people p set title = input.job_title, updated_at = now()
      from (${input}) input
     where p.workspace_id = ${workspaceId} and p.id = input.person_id and p.title is null and input.job_title is not null
    returning p.id`);
  if (titled.rows.length > 0) {
    await markDirty(tx, workspaceId, peopleWithIds(titled.rows.map((row) => row.id)));
  }
  await nameCompaniesFromContacts(
    tx,
    workspaceId,
    sql`select p.company_id from (${input}) input
          join people p on p.workspace_id = ${workspaceId} and p.id = input.person_id
         where input.organization is not null and p.company_id is not null`,
  );
}

export type AddressBookEntry = {
  email: string;
  name: string | null;
  /** The contact's organisation and job title (Google contacts' organizations; none for other contacts). */
  organization?: string | null;
  title?: string | null;
};

/**
 * A new member becomes a connector: their person record (created if evidence never mentioned them)
 * and everyone their evidence reaches are marked for the incremental recompute.
 */
export async function recordMember(tx: Tx, workspaceId: string, member: { email: string; fullName: string }) {
  const email = member.email.trim().toLowerCase();
  await tx.execute(sql`
    insert into people (workspace_id, full_name, email)
    values (${workspaceId}, ${member.fullName}, ${email})
    on conflict (workspace_id, email) do update set full_name = excluded.full_name, updated_at = now()`);
  // Only the member themself, on the request's path: marking everyone their evidence reaches made
  // joining a workspace wait on large scans. Their neighbours' edges follow as evidence touches them
  // or with `recompute --from-evidence` (known gap, issue 5).
  await markDirty(tx, workspaceId, sql`select id from people where workspace_id = ${workspaceId} and email = ${email}`);
}
