import { IMPORT_MERGE_STEPS, type ImportKind, type ImportMergeStep } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { mergeNamelessCompanies, nameReplaces } from '../../../graph/company-names.ts';
import { markDirty, neighbourhoodOf } from '../../../graph/dirty.ts';
import { isErased } from '../../../graph/erased.ts';
import { KINDS, stagingTableSql } from './import-kinds.ts';

// The set-based merge of a staged import into the workspace's lists, in the caller's transaction.
// The staging table `import_rows` (line, reason, values...) holds every row of the file, valid ones
// with a null reason. Within a file the first row of an e-mail, LinkedIn address or domain wins; the
// others are skipped (found as the min(line) of each group: hash aggregates, where windows sorted
// millions of rows by text). Rows that would change nothing are not written, so a second upload of
// the same file adds and updates nothing.

export type MergeCounts = { added: number; updated: number; skipped: number; rejected: number; dirty: boolean };
export type MergeOptions = {
  workspaceId: string;
  importId: string;
  mapNetwork: boolean;
  trackJobChanges: boolean;
  /** How new clients came in: a file, or the add-client form (which merges through here too). */
  source?: 'csv' | 'manual';
  /**
   * Told as each step of the merge begins, by its index in IMPORT_MERGE_STEPS of the kind; the next
   * step waits for it (the merge gives way to requests between its steps).
   */
  onStep?: (index: number) => Promise<void> | void;
};

/** Announces a step of the merge of kind K (typed by IMPORT_MERGE_STEPS: a renamed step fails to compile). */
type Step<K extends ImportKind> = (name: ImportMergeStep<K>) => Promise<void>;

const count = async (tx: Tx, query: ReturnType<typeof sql>) => {
  const result = await tx.execute<{ n: string | number }>(query);
  return Number(result.rows[0]?.n ?? 0);
};

/**
 * Joined on `line`, keeps the first row of each `key` in `table` (the valid rows of the staging).
 * A join, not `line in (...)`: the lines are unique already, and the semi-join's extra hashing of
 * them took half the statement's time.
 */
const firstRowPer = (table: 'import_rows' | 'import_kept', key: string) =>
  sql.raw(`join (select min(line) as line from ${table}${table === 'import_rows' ? ' where reason is null' : ''}
                  group by ${key}) as first_per_${key} using (line)`);

/** A file's company names are an admin's list: they rename what the evidence named (company-names.ts). */
async function upsertCompanies(tx: Tx, workspaceId: string) {
  await tx.execute(sql`
    insert into companies (workspace_id, domain, name, name_source)
    select ${workspaceId}::uuid, company_domain, company_name, 'list'
      from import_kept ${firstRowPer('import_kept', 'company_domain')}
    on conflict (workspace_id, domain) do update set name = excluded.name, name_source = excluded.name_source
     where companies.name <> excluded.name
       and ${nameReplaces(sql`excluded.name_source`, sql`companies.name_source`)}`);
  await mergeNamelessCompanies(tx, workspaceId);
}

/** The first valid row per domain: accounts and CRM customers are companies. */
async function keepFirstPerDomain(tx: Tx) {
  await tx.execute(sql`
    create temp table import_kept on commit drop as
    select line, company_name, company_domain from import_rows ${firstRowPer('import_rows', 'company_domain')}`);
  await tx.execute(sql`analyze import_kept`);
}

async function mergeAccounts(tx: Tx, { workspaceId: ws }: MergeOptions, step: Step<'accounts'>) {
  await step('Finding the first row of each domain');
  await keepFirstPerDomain(tx);
  await tx.execute(sql`
    create temp table import_accounts on commit drop as
    select k.company_domain, a.id is null as is_new,
           a.id is not null and co.name <> k.company_name
             and ${nameReplaces(sql`'list'`, sql`co.name_source`)} as renamed
      from import_kept k
      left join companies co on co.workspace_id = ${ws} and co.domain = k.company_domain
      left join accounts a on a.workspace_id = ${ws} and a.company_id = co.id`);
  await step('Adding companies');
  await upsertCompanies(tx, ws);
  await step('Adding accounts');
  await tx.execute(sql`
    insert into accounts (workspace_id, company_id)
    select ${ws}::uuid, co.id from import_accounts ia
      join companies co on co.workspace_id = ${ws} and co.domain = ia.company_domain
     where ia.is_new
    on conflict (workspace_id, company_id) do nothing`);
  return {
    added: await count(tx, sql`select count(*) as n from import_accounts where is_new`),
    updated: await count(tx, sql`select count(*) as n from import_accounts where renamed`),
    dirty: false,
  };
}

async function mergeCrmClients(tx: Tx, { workspaceId: ws }: MergeOptions, step: Step<'crm-clients'>) {
  await step('Finding the first row of each domain');
  await keepFirstPerDomain(tx);
  await step('Adding companies');
  await upsertCompanies(tx, ws);
  await step('Adding CRM customers');
  await tx.execute(sql`
    create temp table import_crm on commit drop as
    select k.company_domain, k.company_name, co.id as company_id, cc.id is null as is_new,
           cc.id is not null and (cc.company_name, cc.company_id) is distinct from (k.company_name, co.id) as changed
      from import_kept k
      join companies co on co.workspace_id = ${ws} and co.domain = k.company_domain
      left join crm_clients cc on cc.workspace_id = ${ws} and cc.company_domain = k.company_domain`);
  await tx.execute(sql`
    insert into crm_clients (workspace_id, company_id, company_name, company_domain)
    select ${ws}::uuid, company_id, company_name, company_domain from import_crm where is_new or changed
    on conflict (workspace_id, company_domain) do update
       set company_name = excluded.company_name, company_id = excluded.company_id`);
  await step('Taking their people out of the network');
  // A new customer's people stop being prospects: the graph's next roll-up takes them out.
  const customersPeople = sql`select p.id from people p join import_crm c on p.company_id = c.company_id
                               where p.workspace_id = ${ws} and (c.is_new or c.changed)`;
  const dirty = await count(tx, sql`select count(*) as n from (${customersPeople}) as people`);
  if (dirty > 0) await markDirty(tx, ws, customersPeople);
  return {
    added: await count(tx, sql`select count(*) as n from import_crm where is_new`),
    updated: await count(tx, sql`select count(*) as n from import_crm where changed`),
    dirty: dirty > 0,
  };
}

/** Why a row naming an erased person is refused. */
export const ERASED_ROW_REASON = 'This person asked to be erased from the workspace: they are not added again';

/**
 * Clients and allies: people matched by e-mail, else by LinkedIn address (created when neither is
 * known), their company by domain, then their client entry. A known person's missing e-mail or LinkedIn
 * address is filled in when no one else has it; their name and current company follow the file (a
 * tracked client at a new company is a job change). Flags only ever turn on: an upload to one list
 * never removes anybody from the other.
 */
async function mergeClients(tx: Tx, options: MergeOptions, step: Step<'clients'>) {
  const ws = options.workspaceId;
  await step('Finding the first row of each address');
  // A person erased at their request (issue 22) is not brought back by an admin's list: the row is
  // rejected, with its line and why, and the rest of the file is imported.
  await tx.execute(sql`
    update import_rows set reason = ${ERASED_ROW_REASON}
     where reason is null and (${isErased(ws, sql`email`)} or ${isErased(ws, sql`linkedin_url`)})`);
  await tx.execute(sql`
    create temp table import_kept on commit drop as
    select line, first_name, last_name, email, company_name, company_domain, linkedin_url, contact_owner, tag
      from import_rows ${firstRowPer('import_rows', 'email')} ${firstRowPer('import_rows', 'linkedin_url')}`);
  await tx.execute(sql`analyze import_kept`);
  await step('Adding companies');
  await upsertCompanies(tx, ws);

  await step('Matching known people');
  const mapNetwork = sql`${options.mapNetwork}::boolean`;
  const trackJobChanges = sql`${options.trackJobChanges}::boolean`;
  await tx.execute(sql`
    create temp table import_matched on commit drop as
    select k.*, k.first_name || ' ' || k.last_name as full_name, co.id as company_id,
           pe.id as by_email, pl.id as by_linkedin, coalesce(pe.id, pl.id) as existing_id,
           coalesce(pe.id, pl.id, gen_random_uuid()) as person_id, owner.id as owner_user_id
      from import_kept k
      join companies co on co.workspace_id = ${ws} and co.domain = k.company_domain
      left join people pe on pe.workspace_id = ${ws} and pe.email = k.email
      left join people pl on pl.workspace_id = ${ws} and pl.linkedin_url = k.linkedin_url
      left join (
        select distinct on (lower(u.email)) lower(u.email) as email, u.id
          from users u where u.workspace_id = ${ws} order by lower(u.email), u.created_at
      ) owner on owner.email = k.contact_owner`);

  // Two rows of the file can name one known person (one by e-mail, one by LinkedIn): the first wins.
  await tx.execute(sql`
    create temp table import_people on commit drop as
    select m.*, p.id is null as new_person,
           p.id is not null and (p.email is null and m.by_email is null) as fill_email,
           p.id is not null and (p.linkedin_url is null and m.by_linkedin is null) as fill_linkedin,
           p.id is not null and (p.full_name is distinct from m.full_name or p.company_id is distinct from m.company_id
             or (p.email is null and m.by_email is null) or (p.linkedin_url is null and m.by_linkedin is null))
             as person_changed,
           cl.id is null as new_client,
           -- What the upsert below would write, against what is there.
           cl.id is not null and (
             (m.first_name, m.last_name, coalesce(m.tag, cl.tag), coalesce(m.contact_owner, cl.contact_owner_email),
              coalesce(m.owner_user_id, cl.contact_owner_user_id),
              cl.map_network or ${mapNetwork}, cl.track_job_changes or ${trackJobChanges},
              case when cl.track_job_changes then coalesce(cl.company_id_at_import, m.company_id) else m.company_id end)
             is distinct from
             (cl.first_name, cl.last_name, cl.tag, cl.contact_owner_email, cl.contact_owner_user_id,
              cl.map_network, cl.track_job_changes, cl.company_id_at_import)) as client_changed,
           ${mapNetwork} and (cl.id is null or not cl.map_network) as newly_mapped,
           -- A tracked client at another company than before: a past client now, a path into it
           -- (isConnectorClient), or back where they were tracked, no longer one.
           (cl.track_job_changes or ${trackJobChanges}) and p.id is not null and p.company_id is distinct from m.company_id
             as tracked_moved
      from import_matched m
      left join people p on p.workspace_id = ${ws} and p.id = m.existing_id
      left join clients cl on cl.workspace_id = ${ws} and cl.person_id = m.existing_id
     where m.existing_id is null
        or m.line in (select min(line) from import_matched where existing_id is not null group by existing_id)`);

  await step('Adding and updating people');
  await tx.execute(sql`
    insert into people (workspace_id, id, full_name, email, linkedin_url, company_id)
    select ${ws}::uuid, person_id, full_name, email, linkedin_url, company_id from import_people where new_person`);
  await tx.execute(sql`
    update people p
       set full_name = ip.full_name, company_id = ip.company_id,
           email = case when ip.fill_email then ip.email else p.email end,
           linkedin_url = case when ip.fill_linkedin then ip.linkedin_url else p.linkedin_url end,
           updated_at = now()
      from import_people ip
     where p.workspace_id = ${ws} and p.id = ip.person_id and ip.person_changed`);
  await step('Adding and updating clients and allies');
  // New clients are inserted, changed ones updated: two plain statements, cheaper per row than one
  // upsert. Imports and the add-client form hold the merge lock; a conflict with any other writer
  // fails the import whole, to be retried.
  await tx.execute(sql`
    insert into clients (workspace_id, person_id, first_name, last_name, tag, contact_owner_email,
                         contact_owner_user_id, source, map_network, track_job_changes, company_id_at_import)
    select ${ws}::uuid, person_id, first_name, last_name, tag, contact_owner, owner_user_id, ${options.source ?? 'csv'},
           ${mapNetwork}, ${trackJobChanges}, company_id
      from import_people where new_client`);
  await tx.execute(sql`
    update clients cl set
           first_name = ip.first_name, last_name = ip.last_name,
           tag = coalesce(ip.tag, cl.tag),
           contact_owner_email = coalesce(ip.contact_owner, cl.contact_owner_email),
           contact_owner_user_id = coalesce(ip.owner_user_id, cl.contact_owner_user_id),
           map_network = cl.map_network or ${mapNetwork},
           track_job_changes = cl.track_job_changes or ${trackJobChanges},
           company_id_at_import = case when cl.track_job_changes then coalesce(cl.company_id_at_import, ip.company_id)
                                       else ip.company_id end
      from import_people ip
     where cl.workspace_id = ${ws} and cl.person_id = ip.person_id and ip.client_changed`);

  const changed = sql`(new_person or person_changed or new_client or client_changed)`;
  await step('Marking the network for an update');
  const dirty = await count(tx, sql`select count(*) as n from import_people where ${changed}`);
  if (dirty > 0) {
    // Someone new has no evidence yet and no mark (their id was made above): a plain insert, where
    // an upsert checks each row for a conflict first and costs twice as much.
    await tx.execute(sql`
      insert into graph_dirty (workspace_id, person_id)
      select ${ws}::uuid, person_id from import_people where new_person`);
    // A newly mapped ally's evidence now reaches the people it knows; so does a tracked client's who
    // moved (or stops reaching them where they were).
    await markDirty(
      tx,
      ws,
      sql`(${neighbourhoodOf(ws, sql`select person_id from import_people where newly_mapped or tracked_moved`)})
          union select person_id from import_people where ${changed} and not new_person`,
    );
  }
  return {
    added: await count(tx, sql`select count(*) as n from import_people where new_client`),
    updated: await count(
      tx,
      sql`select count(*) as n from import_people where not new_client and (client_changed or person_changed)`,
    ),
    dirty: dirty > 0,
  };
}

/** The tables each kind's merge writes to. */
export const MERGED_TABLES: Record<ImportKind, readonly string[]> = {
  accounts: ['companies', 'accounts'],
  'crm-clients': ['companies', 'crm_clients', 'graph_dirty'],
  clients: ['companies', 'people', 'clients', 'graph_dirty'],
};

const MERGES: {
  [K in ImportKind]: (
    tx: Tx,
    options: MergeOptions,
    step: Step<K>,
  ) => Promise<Omit<MergeCounts, 'skipped' | 'rejected'>>;
} = {
  accounts: mergeAccounts,
  'crm-clients': mergeCrmClients,
  clients: mergeClients,
};

/** Merges the staged rows and records the rejected ones; returns the counts of the import. */
export async function mergeImport(tx: Tx, kind: ImportKind, options: MergeOptions): Promise<MergeCounts> {
  // Two imports of one workspace merge one after the other: each sees what the other wrote.
  await tx.execute(sql`select pg_advisory_xact_lock(7262013, hashtext(${options.workspaceId}))`);
  // Grouping millions of staged rows by e-mail and address spills to disk at the default 4 MB.
  await tx.execute(sql`set local work_mem = '256MB'`);
  // A temporary table is never analyzed on its own: without statistics the first-row-per-address
  // groups below were planned as sorts of a few hundred rows, and sorted millions.
  await tx.execute(sql`analyze import_rows`);
  const steps: readonly string[] = IMPORT_MERGE_STEPS[kind];
  const step = async (name: string) => {
    await options.onStep?.(steps.indexOf(name));
  };
  const merged = await MERGES[kind](tx, options, step);
  await step('Recording the rejected rows');
  const inserted = await tx.execute(sql`
    insert into import_rejections (workspace_id, import_id, line, reason)
    select ${options.workspaceId}::uuid, ${options.importId}::uuid, line, reason from import_rows where reason is not null`);
  const rejected = inserted.rowCount ?? 0;
  const valid = await count(tx, sql`select count(*) as n from import_rows where reason is null`);
  return { ...merged, rejected, skipped: valid - merged.added - merged.updated };
}

/**
 * Merges one row given outside a file (the add-client form) by the same rules as an import: staged
 * in this transaction, merged, and the staging dropped at commit.
 */
export async function mergeRow(tx: Tx, kind: ImportKind, values: (string | null)[], options: MergeOptions) {
  await tx.execute(sql.raw(stagingTableSql(KINDS[kind], { dropOnCommit: true })));
  await tx.execute(
    sql`insert into import_rows values (1, null, ${sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    )})`,
  );
  return mergeImport(tx, kind, options);
}
