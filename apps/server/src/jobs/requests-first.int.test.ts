import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CSV_TEMPLATES, type TImportStatus } from '@warmpath/shared';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { bearer, createTestContext } from '../../test/harness.ts';
import { multipartBody } from '../../test/multipart.ts';
import { findImport } from '../features/lists/imports/imports.repo.ts';
import { createRequestsFirst, requestsApplicationName } from './requests-first.ts';

// A job gives way to the requests being served (issue 24): it waits after a unit of its work only while
// an API process's request connection is busy, in proportion to the unit. The processes here are this
// test's own role, so other tests' servers on the same database do not count.
const role = `first-${randomBytes(4).toString('hex')}`;
const waits: number[] = [];
const recordWaits = async (ms: number) => waits.push(ms);
// One request is enough here; how many make the machine busy is the last test's.
const requestsFirst = createRequestsFirst(inject('databaseUrl'), {
  roles: role,
  busyRequests: 1,
  maxWaitMs: 1_000,
  wait: recordWaits,
});
const clients: pg.Client[] = [];
afterAll(async () => {
  await requestsFirst.close();
  for (const client of clients) await client.end();
});

/** A connection of the request pool of an API process of this test's role. */
async function requestConnection() {
  const client = new pg.Client({
    connectionString: inject('databaseUrl'),
    application_name: requestsApplicationName(role),
  });
  await client.connect();
  clients.push(client);
  return client;
}

/** What one unit of `unitMs` of work followed by the pacer waits. */
async function waitAfterUnit(unitMs: number, pacing = requestsFirst) {
  waits.length = 0;
  const pace = pacing.pacer();
  await sleep(unitMs);
  await pace();
  return waits.slice();
}

describe('requests first', () => {
  it('runs a job at full speed while no request is being served, idle connections included', async () => {
    await requestConnection();
    expect(await waitAfterUnit(50)).toEqual([]);
  });

  it('waits twice the unit after it while a request is being served, and only while it is', async () => {
    const request = await requestConnection();
    const serving = request.query('select pg_sleep(2)');
    await sleep(100); // the statement has started
    const [wait] = await waitAfterUnit(100);
    expect(wait).toBeGreaterThanOrEqual(200);
    expect(wait).toBeLessThan(1_000);
    await serving;
    expect(await waitAfterUnit(50)).toEqual([]);
  });

  it('goes on waiting while the requests stay busy, and goes back to work as soon as they are not', async () => {
    const waited: number[] = [];
    const polling = createRequestsFirst(inject('databaseUrl'), {
      roles: role,
      busyRequests: 1,
      maxWaitMs: 5_000,
      pollMs: 50,
      wait: async (ms) => {
        waited.push(ms);
        await sleep(ms);
      },
    });
    try {
      const request = await requestConnection();
      await request.query('begin');
      const pace = polling.pacer();
      await sleep(20);
      const started = performance.now();
      setTimeout(() => void request.query('commit'), 600);
      await pace();
      const total = performance.now() - started;
      // The unit's share (40 ms, at least a poll), then polls until the request ends 600 ms later.
      expect(waited[0]).toBeGreaterThanOrEqual(40);
      expect(waited.length).toBeGreaterThan(2);
      expect(total).toBeGreaterThanOrEqual(550);
      expect(total).toBeLessThan(2_000);
    } finally {
      await polling.close();
    }
  });

  it('counts a request between its statements (a transaction left open) as served', async () => {
    const request = await requestConnection();
    await request.query('begin');
    expect((await waitAfterUnit(20)).length).toBeGreaterThan(0);
    await request.query('commit');
    expect(await waitAfterUnit(20)).toEqual([]);
  });

  it('never waits longer than its limit after one unit, however long the requests stay busy', async () => {
    const request = await requestConnection();
    await request.query('begin');
    expect(await waitAfterUnit(600)).toEqual([1_000]);
    const waits = await waitAfterUnit(50);
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBe(1_000);
    await request.query('commit');
  });

  it('gives way only when as many requests as it is told are being served at once', async () => {
    const twoAtOnce = createRequestsFirst(inject('databaseUrl'), { roles: role, busyRequests: 2, wait: recordWaits });
    try {
      const [first, second] = [await requestConnection(), await requestConnection()];
      await first.query('begin');
      expect(await waitAfterUnit(20, twoAtOnce)).toEqual([]);
      await second.query('begin');
      expect((await waitAfterUnit(20, twoAtOnce)).length).toBeGreaterThan(0);
      await first.query('commit');
      await second.query('commit');
    } finally {
      await twoAtOnce.close();
    }
  });
});

/**
 * An accounts upload of `lines` (after the header) while one request of this test's role is held open
 * in a transaction, with a pacer that waits on it as long as it stays open: `look` sees the import as
 * it gives way (its status, and whether the upload was answered), then the request ends and the
 * upload's answer is returned.
 */
async function uploadWhileARequestIsServed(
  lines: string[],
  look: (status: () => Promise<TImportStatus | null>, answered: () => boolean) => Promise<void>,
) {
  const imports = createRequestsFirst(inject('databaseUrl'), {
    roles: role,
    busyRequests: 1,
    // Longer than these tests: the import goes on only when the request ends.
    maxWaitMs: 60_000,
    pollMs: 50,
  });
  const ctx = await createTestContext({ requestsFirst: imports });
  const request = await requestConnection();
  try {
    const admin = await ctx.registerAdmin();
    const ws = admin.me.workspaceId;
    await request.query('begin');
    const importId = randomUUID();
    const csv = [CSV_TEMPLATES.accounts.columns.join(','), ...lines].join('\r\n');
    const { body, contentType } = multipartBody({}, [{ filename: 'accounts.csv', content: csv }]);
    let answered = false;
    // Sent now (inject sends when its answer is first asked for), answered when the import ends.
    const uploading = ctx.app
      .inject({
        method: 'POST',
        url: `/api/accounts/command/upload-accounts?importId=${importId}`,
        headers: { ...bearer(admin.token), 'content-type': contentType },
        payload: body,
      })
      .finally(() => {
        answered = true;
      });
    await look(
      () => ctx.database.inWorkspace(ws, (tx) => findImport(tx, ws, importId)),
      () => answered,
    );
    await request.query('commit');
    return await uploading;
  } finally {
    // A failed look leaves the request open: the import must not wait on it for ever.
    await request.query('rollback');
    await ctx.close();
    await imports.close();
  }
}

describe("an import's staging", () => {
  it('gives way between its batches while requests are served, and reads the rest once they are not', async () => {
    // About 600 KB: the first batch (a quarter of a megabyte) is staged, then the staging waits.
    const rows = 20_000;
    const domain = `staging-${randomBytes(4).toString('hex')}.test`;
    const lines = Array.from({ length: rows }, (_, n) => `Company number ${n} of a long list,c${n}.${domain}`);
    const response = await uploadWhileARequestIsServed(lines, async (status) => {
      // Its progress shows the rows read so far, and stays there while the request is served.
      await expect.poll(status, { timeout: 10_000 }).toMatchObject({ status: 'receiving' });
      await expect.poll(async () => (await status())?.rowsProcessed, { timeout: 10_000 }).toBeGreaterThan(0);
      const waiting = await status();
      await sleep(1_000);
      expect(await status()).toMatchObject({ status: 'receiving', rowsProcessed: waiting?.rowsProcessed });
      expect(waiting?.rowsProcessed).toBeLessThan(rows);
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'completed', added: rows, rejected: 0 });
  });
});

describe("an import's merge", () => {
  it('gives way between its steps while requests are served, and completes once they are not', async () => {
    const domain = `merge-${randomBytes(4).toString('hex')}.test`;
    const response = await uploadWhileARequestIsServed([`Globex,${domain}`], async (status, answered) => {
      // The uploader sees the merge at its first step, and it stays there while the request is served.
      await expect.poll(status, { timeout: 10_000 }).toMatchObject({ status: 'merging', mergeStep: 0 });
      await sleep(500);
      expect(await status()).toMatchObject({ status: 'merging', mergeStep: 0 });
      expect(answered()).toBe(false);
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'completed', added: 1 });
  });
});
