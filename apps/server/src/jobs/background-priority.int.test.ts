import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { createDatabase } from '../db/client.ts';

const run = promisify(execFile);

/** A thread's or a process's niceness: field 19 of its /proc stat, counted after the command's parenthesis. */
const nicenessOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);

// What an operator sees in `top` on a machine where a worker runs beside API processes (issue 24):
// the worker's threads, and the embedded PostgreSQL's backends of the jobs' pool, at a lower priority.
describe('background work yields the CPU to requests', () => {
  it("lowers every thread of a worker's process, those it starts later included", async () => {
    const script = `
      import { pbkdf2 } from 'node:crypto';
      import fs from 'node:fs';
      import { lowerOwnPriority } from './apps/server/src/jobs/background-priority.ts';
      lowerOwnPriority(7);
      // libuv's pool starts its threads with its first task: after the process lowered itself.
      await new Promise((resolve) => pbkdf2('secret', 'salt', 1, 8, 'sha256', resolve));
      const threads = fs.readdirSync('/proc/self/task');
      process.stdout.write(JSON.stringify(threads.map((t) => fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8'))));
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
    });
    const threads = (JSON.parse(stdout) as string[]).map(nicenessOf);
    // The main thread, V8's helpers and libuv's four.
    expect(threads.length).toBeGreaterThanOrEqual(9);
    expect(new Set(threads)).toEqual(new Set([7]));
  });

  it("lowers the backends of a pool given a niceness, and only theirs, on this machine's PostgreSQL", async () => {
    const background = createDatabase(inject('databaseUrl'), { backendNiceness: 5 });
    const requests = createDatabase(inject('databaseUrl'));
    try {
      const backendOf = async (database: typeof background) => {
        const { rows } = await database.pool.query<{ pid: number }>('select pg_backend_pid() as pid');
        return nicenessOf(fs.readFileSync(`/proc/${rows[0]?.pid}/stat`, 'utf8'));
      };
      expect(await backendOf(background)).toBe(5);
      expect(await backendOf(requests)).toBe(0);
    } finally {
      await background.close();
      await requests.close();
    }
  });
});
