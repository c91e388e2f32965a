import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { analyzeStaleAsOwner } from './analyze.ts';

// Scratch tables of this file's own, so nothing else the suite writes moves their counters.
const suffix = randomBytes(4).toString('hex');
const small = `analyze_small_${suffix}`;
const large = `analyze_large_${suffix}`;
let owner: pg.Client;

beforeAll(async () => {
  owner = new pg.Client({ connectionString: inject('databaseUrl') });
  await owner.connect();
  await owner.query(`create table ${small} (id int)`);
  await owner.query(`create table ${large} (id int, value int)`);
  await owner.query(`insert into ${large} select n, 0 from generate_series(1, 150000) as n`);
  // Analyzed once its rows are counted: counted after, they would be changes since that ANALYZE.
  await changesSinceAnalyze(large, (changes) => changes >= 150000);
  await owner.query(`analyze ${large}`);
  await changesSinceAnalyze(large, (changes) => changes === 0);
});
afterAll(async () => {
  await owner.query(`drop table if exists ${small}, ${large}`);
  await owner.end();
});

/** Waits until the table's count of changes since its last ANALYZE passes `ready` (backends report within a second or so). */
async function changesSinceAnalyze(table: string, ready: (changes: number) => boolean) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { rows } = await owner.query<{ changed: string }>(
      `select n_mod_since_analyze::text as changed from pg_stat_user_tables where relname = $1`,
      [table],
    );
    const changes = Number(rows[0]?.changed ?? 0);
    if (ready(changes)) return changes;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${table}: its changes were never counted`);
}

describe('refreshing statistics only where they are out of date', () => {
  it('always refreshes a small table, such as one a first sync has just filled', async () => {
    await owner.query(`insert into ${small} select generate_series(1, 500)`);
    expect(await analyzeStaleAsOwner(inject('databaseUrl'), [small, large])).toEqual([small]);
    const { rows } = await owner.query<{ rows: number }>(
      `select reltuples::int as rows from pg_class where relname = $1`,
      [small],
    );
    expect(rows[0]?.rows).toBe(500);
  });

  it('leaves a large table that nothing wrote much to, and refreshes it after a bulk write', async () => {
    await owner.query(`update ${large} set value = 1 where id <= 500`);
    await changesSinceAnalyze(large, (changes) => changes >= 500);
    expect(await analyzeStaleAsOwner(inject('databaseUrl'), [large])).toEqual([]);

    // 1,500 rows: a hundredth of the table, as a first sync of one workspace is of a table all share.
    await owner.query(`update ${large} set value = 2 where id <= 1000`);
    await changesSinceAnalyze(large, (changes) => changes >= 1500);
    expect(await analyzeStaleAsOwner(inject('databaseUrl'), [large])).toEqual([large]);
    expect(await changesSinceAnalyze(large, (changes) => changes === 0)).toBe(0);
  });
});
