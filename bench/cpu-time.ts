import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import pg from 'pg';

/**
 * Where a window's CPU went, from Linux's /proc: the machine's busy and idle core-seconds, each of
 * the bench's processes, and PostgreSQL's backends by the pool they serve (their application_name:
 * `warmpath-<role>-requests`, `warmpath-<role>` for the jobs and background work, pg-boss's
 * `warmpath-jobs-<role>`, or the backend type of PostgreSQL's own processes). On a machine whose
 * cores the requests and the jobs share, this says how much of it the jobs leave to the requests.
 */

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const round = (value: number) => Math.round(value * 10) / 10;

/** A process's CPU seconds (all its threads), and those of its children it has waited for; null once gone. */
async function cpuOf(pid: number) {
  const stat = await fsp.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // The fields after the command's closing parenthesis, from the state (field 3) on.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  const at = (field: number) => fields[field - 3] ?? 0;
  return { own: (at(14) + at(15)) / TICKS_PER_SECOND, children: (at(16) + at(17)) / TICKS_PER_SECOND };
}

/** Busy and idle core-seconds since boot (every core), from the first line of /proc/stat. */
async function machineSeconds() {
  const line = (await fsp.readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
  const [, ...ticks] = line.trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = ticks;
  return {
    busy: (user + nice + system + irq + softirq) / TICKS_PER_SECOND,
    idle: (idle + iowait) / TICKS_PER_SECOND,
    stolen: steal / TICKS_PER_SECOND,
  };
}

/**
 * Opens a ledger as the window opens; `sample` every second reads which backend serves which pool
 * (a backend that lives and dies between two samples is counted in the total, not by pool); `close`
 * gives the figures. `processes` are the node processes to account (the bench's own included).
 */
export async function openCpuLedger(ownerUrl: string, postmasterPid: number | null, processes: Record<string, number>) {
  const client = new pg.Client({ connectionString: ownerUrl, application_name: 'bench' });
  await client.connect();
  const machineAtStart = await machineSeconds();
  const processesAtStart = new Map<string, number>();
  for (const [name, pid] of Object.entries(processes)) processesAtStart.set(name, (await cpuOf(pid))?.own ?? 0);
  const postmasterAtStart = postmasterPid === null ? null : await cpuOf(postmasterPid);
  // Per backend: the pool it serves, its CPU when first seen (0 if born in the window), and when last seen.
  const backends = new Map<number, { name: string; first: number; last: number }>();
  /** Reads every backend's pool and CPU; returns the pids alive now. */
  const readBackends = async (bornInWindow: boolean) => {
    const { rows } = await client.query<{ pid: number; name: string }>(
      `select pid, coalesce(nullif(application_name, ''), backend_type) as name from pg_stat_activity`,
    );
    const alive = new Set<number>();
    for (const { pid, name } of rows) {
      const cpu = await cpuOf(pid);
      if (cpu === null) continue;
      alive.add(pid);
      const known = backends.get(pid);
      if (known) known.last = cpu.own;
      else backends.set(pid, { name, first: bornInWindow ? 0 : cpu.own, last: cpu.own });
    }
    return alive;
  };
  await readBackends(false);
  // With PG_STAT_STATEMENTS=on (db/embedded.ts), the statements' own account of the window too.
  const statements =
    process.env.PG_STAT_STATEMENTS === 'on' &&
    (await client
      .query(`create extension if not exists pg_stat_statements; select pg_stat_statements_reset()`)
      .then(() => true));
  const startedAt = performance.now();
  let sampling: Promise<void> = Promise.resolve();

  return {
    sample: () => {
      sampling = sampling.then(() => readBackends(true).then(() => {})).catch(() => {});
    },
    close: async () => {
      await sampling;
      const aliveNow = await readBackends(true);
      const seconds = (performance.now() - startedAt) / 1000;
      const machine = await machineSeconds();
      const processCpu: Record<string, number> = {};
      for (const [name, pid] of Object.entries(processes)) {
        processCpu[name] = round(((await cpuOf(pid))?.own ?? 0) - (processesAtStart.get(name) ?? 0));
      }
      const byPool: Record<string, number> = {};
      let seen = 0;
      let aliveSpent = 0;
      let endedBeforeWindow = 0;
      for (const [pid, backend] of backends) {
        const spent = backend.last - backend.first;
        byPool[backend.name] = (byPool[backend.name] ?? 0) + spent;
        seen += spent;
        if (aliveNow.has(pid)) aliveSpent += spent;
        else endedBeforeWindow += backend.first;
      }
      const topStatements = statements ? await heaviestStatements(client) : undefined;
      await client.end();
      // PostgreSQL's whole: its backends alive now, plus those that ended in the window (in the
      // postmaster's children's time, whole lives: less what they had spent before the window).
      const postmaster = postmasterPid === null ? null : await cpuOf(postmasterPid);
      const postgres =
        postmaster && postmasterAtStart
          ? postmaster.own -
            postmasterAtStart.own +
            postmaster.children -
            postmasterAtStart.children -
            endedBeforeWindow +
            aliveSpent
          : null;
      return {
        seconds: round(seconds),
        cores: {
          busy: round((machine.busy - machineAtStart.busy) / seconds),
          idle: round((machine.idle - machineAtStart.idle) / seconds),
          stolen: round((machine.stolen - machineAtStart.stolen) / seconds),
        },
        coreSeconds: {
          processes: processCpu,
          postgres: postgres === null ? null : round(postgres),
          postgresByPool: Object.fromEntries(
            Object.entries(byPool)
              .map(([name, spent]) => [name, round(spent)] as const)
              .sort((a, b) => b[1] - a[1]),
          ),
          postgresNotByPool: postgres === null ? null : round(postgres - seen),
        },
        topStatements,
      };
    },
  };
}

/** The statements that took PostgreSQL's most time since the reset: calls, execution (total, mean) and planning (mean). */
async function heaviestStatements(client: pg.Client) {
  const { rows } = await client.query<{
    calls: string;
    plans: string;
    total_ms: number;
    mean_ms: number;
    plan_ms: number;
    query: string;
  }>(
    `select calls, plans, total_exec_time as total_ms, mean_exec_time as mean_ms, mean_plan_time as plan_ms, query
       from pg_stat_statements order by total_exec_time + total_plan_time desc limit 15`,
  );
  return rows.map((row) => ({
    calls: Number(row.calls),
    // Fewer plans than calls: the rest ran a prepared statement's cached generic plan (db/prepared.ts).
    plans: Number(row.plans),
    totalSeconds: round(row.total_ms / 1000),
    meanMs: round(row.mean_ms),
    meanPlanMs: round(row.plan_ms),
    query: row.query.replace(/\s+/g, ' ').slice(0, 300),
  }));
}
