import fs from 'node:fs';
import os from 'node:os';
import type pg from 'pg';

/**
 * Background work yields the CPU to requests when they share a machine. The pacer
 * (requests-first.ts) makes a job wait between its units, but a unit is one statement: a merge step
 * or a graph batch held a core for 3 to 7 s under the scale bench, and the answers queued behind it.
 * The operating system's scheduler can do what the pacer cannot: with a lower priority (a higher
 * niceness), a job's thread or backend still gets a core that is free, and gives it up at once to a
 * request's.
 */

/** This process's threads (Linux): niceness is per thread, and `os.setPriority(pid)` sets only the first's. */
function ownThreads() {
  try {
    return fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    return [];
  }
}

/**
 * Lowers every thread of this process to `niceness` (a worker's): its main thread, V8's and libuv's
 * helpers; threads started later inherit it from the thread that starts them. Off Linux, the process.
 */
export function lowerOwnPriority(niceness: number) {
  const threads = ownThreads();
  for (const thread of threads.length > 0 ? threads : [0]) {
    try {
      os.setPriority(thread, niceness);
    } catch {
      // A thread that has ended since it was listed.
    }
  }
}

/**
 * Lowers the PostgreSQL backend serving `client` to `niceness`: only for the embedded cluster, whose
 * backends are this machine's processes (a backend's pid on another machine names something else
 * here). The pid is the one the server sent as the connection opened (its BackendKeyData, which pg
 * keeps for cancelling; @types/pg does not declare it). Raising niceness needs no privilege over a
 * process of one's own user; as another user (root starting the embedded cluster as `postgres`), it
 * needs root, which that case has. A refusal leaves the backend as it was.
 */
export function lowerBackendPriority(client: pg.ClientBase, niceness: number) {
  const { processID } = client as pg.ClientBase & { processID?: number | null };
  if (!processID) return;
  try {
    os.setPriority(processID, niceness);
  } catch {
    // Not permitted: the backend keeps its priority.
  }
}
