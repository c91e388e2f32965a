import { ENGAGEMENT_DEFINITIONS, type Engagement, engagementCode } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';

// A prospect's engagement as the roll-up computes it and network rows store it: each rule written
// once, the codes from the registry (ENGAGEMENT_DEFINITIONS in packages/shared).

/**
 * When an edge `s` (the roll-up's: `colleague`, `meetings`, `mails`) engages its prospect at least this
 * much; NEVER_MET is what is left.
 */
const ENGAGEMENT_RULES: Record<Exclude<Engagement, 'NEVER_MET'>, SQL> = {
  MET: sql`s.colleague and s.meetings > 0`,
  TOUCHED: sql`s.colleague and s.mails > 0`,
};

/** An engagement's stored code, as an SQL literal. */
export const engagementCodeSql = (engagement: Engagement) => sql.raw(String(engagementCode(engagement)));

/** The code of the strongest engagement among a prospect's edges `s`, as an aggregate (codes grow with strength). */
export function engagementSql() {
  const strongestFirst = [...ENGAGEMENT_DEFINITIONS].reverse();
  const cases = strongestFirst.flatMap(({ engagement }) =>
    engagement === 'NEVER_MET' ? [] : [sql`when ${ENGAGEMENT_RULES[engagement]} then ${engagementCodeSql(engagement)}`],
  );
  return sql`max(case ${sql.join(cases, sql` `)} else ${engagementCodeSql('NEVER_MET')} end)`;
}

/** A stored code's engagement key (NULL for a code no entry has). */
export const engagementKeySql = (code: SQL) =>
  sql`case ${code} ${sql.join(
    ENGAGEMENT_DEFINITIONS.map(
      ({ engagement }) => sql`when ${engagementCodeSql(engagement)} then ${sql.raw(`'${engagement}'`)}`,
    ),
    sql` `,
  )} end`;
