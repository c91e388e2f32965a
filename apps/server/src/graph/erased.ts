import { type SQL, sql } from 'drizzle-orm';

// Erased people (issue 22): what is kept of them is the hash of each address and profile URL they had,
// and every path that creates people from a source asks it first. Hashed in SQL, so the writer and every
// reader agree on one form: lower-cased, trimmed.

/** The tombstone key of an address or LinkedIn URL (an SQL text expression). */
export const erasureKey = (value: SQL) => sql`encode(sha256(convert_to(lower(trim(${value})), 'UTF8')), 'hex')`;

/** Whether an address or profile URL (an SQL text expression, may be null) belongs to an erased person. */
export const isErased = (workspaceId: string, value: SQL) => sql`(${value} is not null and exists (
  select 1 from erased_people ep where ep.workspace_id = ${workspaceId} and ep.key_hash = ${erasureKey(value)}))`;
