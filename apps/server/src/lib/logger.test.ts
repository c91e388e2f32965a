import { DrizzleQueryError } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  createLogger,
  formatCounts,
  formatDuration,
  formatLogRecord,
  loggedJob,
  loggerOptions,
  QuietRequestLogs,
  withoutQueryValues,
} from './logger.ts';

/** 9:05:07 today, local time, as pino stamps it. */
const at = new Date(2025, 0, 2, 9, 5, 7).getTime();

function capture() {
  const lines: string[] = [];
  return { lines, write: (text: string) => void lines.push(text) };
}

describe('a log record as a line a person reads', () => {
  it('is the time and the message; warnings and errors say so, with what failed and where', () => {
    expect(formatLogRecord({ level: 30, time: at, msg: 'graph: 902 people, 694 edges in 213 ms' })).toBe(
      '09:05:07 graph: 902 people, 694 edges in 213 ms\n',
    );
    expect(
      formatLogRecord({
        level: 40,
        time: at,
        msg: 'network index: a copy failed to refresh',
        err: {
          type: 'Error',
          message: 'copy timed out',
          stack: 'Error: copy timed out\n    at refresh (index.ts:3:9)',
        },
      }),
    ).toBe('09:05:07 WARN network index: a copy failed to refresh: copy timed out\n');
    expect(
      formatLogRecord({
        level: 50,
        time: at,
        msg: 'unhandled error',
        err: {
          type: 'TypeError',
          message: "Cannot read properties of undefined (reading 'id')",
          stack: 'TypeError: Cannot read...\n    at listActions (actions.service.ts:120:14)\n    at next (x.js:1:1)',
        },
      }),
    ).toBe(
      "09:05:07 ERROR unhandled error: TypeError: Cannot read properties of undefined (reading 'id') (at listActions (actions.service.ts:120:14))\n",
    );
  });

  it('is one short line for a request, with its status and time', () => {
    const request = { req: { method: 'POST', url: '/api/actions/query' }, res: { statusCode: 200 } };
    expect(formatLogRecord({ level: 20, time: at, msg: 'request completed', ...request, responseTime: 12.4 })).toBe(
      '09:05:07 POST /api/actions/query 200 12 ms\n',
    );
    expect(
      formatLogRecord({
        level: 50,
        time: at,
        msg: 'request errored',
        ...request,
        res: { statusCode: 500 },
        responseTime: 3,
        err: { type: 'Error', message: 'socket hang up' },
      }),
    ).toBe('09:05:07 ERROR POST /api/actions/query 500 3 ms: request errored: socket hang up\n');
  });

  it('says durations and counts the way a person does', () => {
    expect([213.4, 4240, 125_000].map(formatDuration)).toEqual(['213 ms', '4.2 s', '2 min 5 s']);
    expect(formatCounts({ messages: 3021, meetings: 412, otherContacts: 51 })).toBe(
      '3,021 messages, 412 meetings, 51 other contacts',
    );
  });
});

describe('the server’s logs', () => {
  async function server(logLevel: 'info' | 'debug', logFormat: 'text' | 'json') {
    const { lines, write } = capture();
    const app = Fastify({
      logger: loggerOptions({ logLevel, logFormat }, write),
      ...(logFormat === 'text' ? { logController: new QuietRequestLogs() } : {}),
    });
    app.get('/api/hello', async () => ({ hello: 'world' }));
    app.get('/api/broken', async () => {
      throw new Error('the database went away');
    });
    await app.inject({ url: '/api/hello?code=secret' });
    await app.inject({ url: '/api/broken' });
    await app.close();
    return lines;
  }

  it('in local mode have no line per request at the default level, and keep the errors', async () => {
    const lines = await server('info', 'text');
    expect(lines.some((line) => line.includes('/api/hello'))).toBe(false);
    expect(lines).toEqual([
      expect.stringMatching(
        /^\d\d:\d\d:\d\d ERROR GET \/api\/broken 500: the database went away \(at .*logger\.test\.ts:\d+:\d+\)+\n$/,
      ),
    ]);
    expect(lines.every((line) => !line.startsWith('{'))).toBe(true);
  });

  it('in local mode at debug have one line a request, without its query string', async () => {
    const lines = await server('debug', 'text');
    expect(lines.filter((line) => line.includes('/api/hello'))).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d GET \/api\/hello 200 \d+ ms\n$/),
    ]);
  });

  it('in production are pino’s JSON, the requests included', async () => {
    const records = (await server('info', 'json')).map((line) => JSON.parse(line));
    expect(records).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'incoming request', req: { method: 'GET', url: '/api/hello' } }),
    );
    expect(records).toContainEqual(expect.objectContaining({ level: 50, err: expect.anything() }));
  });
});

describe('a job’s lines', () => {
  it('say when it starts, and what it did in how long when it ends', async () => {
    const { lines, write } = capture();
    const logger = createLogger({ logLevel: 'info', logFormat: 'text' }, write);
    const report = await loggedJob(
      logger,
      { name: 'graph', fields: { workspaceId: 'w1' } },
      async () => ({ people: 902, edges: 694 }),
      (done) => formatCounts(done),
    );
    expect(report).toEqual({ people: 902, edges: 694 });
    expect(lines).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d graph: started\n$/),
      expect.stringMatching(/^\d\d:\d\d:\d\d graph: 902 people, 694 edges in \d+ ms\n$/),
    ]);
  });

  it('warn of a failure and pass it on, for the queue to retry', async () => {
    const { lines, write } = capture();
    const logger = createLogger({ logLevel: 'info', logFormat: 'json' }, write);
    const failing = loggedJob(
      logger,
      { name: 'google-sync', fields: { workspaceId: 'w1', userId: 'u1' } },
      async () => {
        throw new Error('Gmail answered 503');
      },
      () => '',
    );
    await expect(failing).rejects.toThrow('Gmail answered 503');
    const records = lines.map((line) => JSON.parse(line));
    expect(records[0]).toMatchObject({ level: 30, msg: 'google-sync: started', workspaceId: 'w1', userId: 'u1' });
    expect(records[1]).toMatchObject({
      level: 40,
      msg: expect.stringMatching(/^google-sync: failed after \d+ ms$/),
      err: { message: 'Gmail answered 503' },
    });
  });
});

describe('a failed query in the log', () => {
  /** Drizzle's error around PostgreSQL's, as a unique violation on an e-mail makes them. */
  function failedQuery() {
    const database = new pg.DatabaseError(
      'duplicate key value violates unique constraint "people_email_key"',
      0,
      'error',
    );
    database.code = '23505';
    database.constraint = 'people_email_key';
    database.detail = 'Key (workspace_id, email)=(w1, vic$1@secret.test) already exists.';
    return new DrizzleQueryError(
      'insert into people (full_name, email) values ($1, $2)',
      ['Vic Secret', 'vic$1@secret.test'],
      database,
    );
  }

  it('names the statement and the constraint, never the values, in JSON and in text', () => {
    for (const logFormat of ['json', 'text'] as const) {
      const { lines, write } = capture();
      createLogger({ logLevel: 'info', logFormat }, write).error({ err: failedQuery() }, 'unhandled error');
      const line = lines.join('');
      expect(line).toContain('insert into people (full_name, email) values ($1, $2)');
      expect(line).not.toContain('secret.test');
      expect(line).not.toContain('Vic Secret');
      if (logFormat === 'json') {
        const { err } = JSON.parse(line) as { err: Record<string, unknown> };
        expect(err).toMatchObject({ type: 'DrizzleQueryError', query: expect.any(String) });
        expect(err.params).toBeUndefined();
        expect(String(err.message)).toContain('duplicate key value violates unique constraint "people_email_key"');
      }
    }
  });

  it('leaves out the value a data error quotes', () => {
    const error = new pg.DatabaseError('invalid input syntax for type uuid: "vic@secret.test"', 0, 'error');
    error.code = '22P02';
    const serialized = withoutQueryValues(error) as Error;
    expect(serialized.message).toBe('invalid input syntax for type uuid: "[not logged]"');
    expect(serialized.stack).not.toContain('secret.test');
    expect(serialized).toBeInstanceOf(pg.DatabaseError);
  });
});
