import { DrizzleQueryError } from 'drizzle-orm';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pg from 'pg';
import { type DestinationStream, type Logger, type LoggerOptions, pino, stdSerializers } from 'pino';
import type { Config } from '../config.ts';

// One logger setup for the server and its jobs. In JSON (production) every record is pino's object on
// a line, request lines included, for a log collector. In text (local mode) a person reads the terminal:
// short lines for what happens (the address, each job's start and end, warnings and errors), a line per
// request only at `debug`.

type LogConfig = Pick<Config, 'logLevel' | 'logFormat'>;
type Write = (text: string) => void;

/**
 * pino's options, for Fastify's `logger` and for `createLogger`. Records go to standard output (in
 * JSON, through pino's own fast destination), or to `write` when given (tests).
 */
export function loggerOptions(config: LogConfig, write?: Write): LoggerOptions & { stream?: DestinationStream } {
  const text = config.logFormat === 'text';
  const out = write ?? ((line: string) => process.stdout.write(line));
  return {
    level: config.logLevel,
    // Never log tokens, cookies or query strings (OAuth codes travel there).
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }),
      err: serializeError,
    },
    ...(text ? { stream: textStream(out) } : write ? { stream: { write } } : {}),
  };
}

/** Fields of a PostgreSQL error that quote the values of the statement (`Key (email)=(...)`). */
const VALUE_FIELDS = new Set(['params', 'detail', 'where', 'internalQuery']);

/**
 * An error as a log may tell it: a failed query's statement but never its values (names, e-mails).
 * Drizzle's error says `Failed query: ...\nparams: ...` and carries `params`; PostgreSQL's quotes the
 * values in `detail`, and a data error (class 22, `invalid input syntax for type uuid: "..."`) in its
 * message. A copy is made with those left out, down the chain of causes.
 */
export function withoutQueryValues(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 10) return error;
  let message = error.message;
  if (error instanceof DrizzleQueryError) message = `Failed query: ${error.query}\nparams: [not logged]`;
  else if (error instanceof pg.DatabaseError && error.code?.startsWith('22'))
    message = message.replace(/: "[\s\S]*"$/, ': "[not logged]"');
  const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(error));
  for (const [key, value] of Object.entries(error)) if (!VALUE_FIELDS.has(key)) copy[key] = value;
  Object.defineProperty(copy, 'message', { value: message, enumerable: false });
  // The stack opens with the message: the same text is left out there (a function replacer, so that
  // nothing in the message reads as a replacement pattern).
  Object.defineProperty(copy, 'stack', {
    value: error.stack?.replace(error.message, () => message),
    enumerable: false,
  });
  if (error.cause !== undefined) copy.cause = withoutQueryValues(error.cause, depth + 1);
  return copy;
}

/** pino's error serializer, over the error without its query values. */
export const serializeError = (error: Error) => stdSerializers.err(withoutQueryValues(error) as Error);

/** The logger of what runs beside the HTTP server: start-up, jobs. */
export function createLogger(config: LogConfig, write?: Write): Logger {
  const { stream, ...options } = loggerOptions(config, write);
  return stream ? pino(options, stream) : pino(options);
}

/**
 * Fastify's request lines in text mode: a request that went well is one `debug` line (method, path,
 * status, time) instead of two `info` ones; a failed one is still an error.
 */
export class QuietRequestLogs extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.debug(line, 'request completed');
  }

  override routeNotFound(request: FastifyRequest) {
    request.log.debug({ req: request, res: { statusCode: 404 } }, 'route not found');
  }
}

/** pino's numeric levels and the word a line shows for them; `info` and below show none. */
const LEVEL_WORDS: [number, string][] = [
  [60, 'FATAL'],
  [50, 'ERROR'],
  [40, 'WARN'],
];

type LogRecord = {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { type?: string; message?: string; stack?: string };
};

/**
 * One pino record as a line a person reads: the local time, the level when it is a warning or worse,
 * the message; a request as 'GET /api/x 200 12 ms'; an error's type and message, and for errors the
 * place it was thrown.
 */
export function formatLogRecord(record: LogRecord): string {
  const level = record.level ?? 30;
  const word = LEVEL_WORDS.find(([at]) => level >= at)?.[1];
  const time = new Date(record.time ?? Date.now()).toTimeString().slice(0, 8);
  const { err, msg } = record;
  const request = record.req ? `${record.req.method ?? ''} ${record.req.url ?? ''}`.trim() : null;
  const status = record.res?.statusCode;
  const parts: string[] = [];
  if (request && status !== undefined) {
    const took = record.responseTime === undefined ? '' : ` ${Math.round(record.responseTime)} ms`;
    parts.push(`${request} ${status}${took}`);
    // A request's line says what went wrong only when something did.
    if (level >= 40 && msg && msg !== err?.message) parts.push(msg);
  } else {
    parts.push(`${msg ?? ''}${request ? ` (${request})` : ''}`);
  }
  if (err) {
    const thrownAt = level >= 50 ? err.stack?.split('\n').find((line) => line.trim().startsWith('at ')) : undefined;
    const type = err.type && err.type !== 'Error' ? `${err.type}: ` : '';
    parts.push(`${type}${err.message ?? ''}${thrownAt ? ` (${thrownAt.trim()})` : ''}`);
  }
  return `${time} ${word ? `${word} ` : ''}${parts.join(': ')}\n`;
}

/** pino writes a JSON line a record: each is written again as text; anything else passes as it is. */
export function textStream(write: Write): DestinationStream {
  return {
    write(line: string) {
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        write(line);
        return;
      }
      write(typeof record === 'object' && record !== null ? formatLogRecord(record) : line);
    },
  };
}

/** '213 ms', '4.2 s', '2 min 5 s'. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** '3,021 messages, 412 meetings, 51 other contacts' from a run's counts. */
export function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([key, count]) => `${count.toLocaleString('en-US')} ${key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`)
    .join(', ');
}

/**
 * Runs a job between a start line and an end line that says what it did and how long it took
 * ('graph: 902 people, 694 edges in 213 ms'); a failure is a warning with the error, then thrown on
 * (the queue retries). `fields` go into the JSON records (which workspace, which user).
 */
export async function loggedJob<T>(
  logger: Pick<Logger, 'info' | 'warn'>,
  job: { name: string; fields: Record<string, unknown> },
  run: () => Promise<T>,
  summary: (result: T) => string,
): Promise<T> {
  const started = performance.now();
  logger.info(job.fields, `${job.name}: started`);
  try {
    const result = await run();
    const said = summary(result);
    const took = formatDuration(performance.now() - started);
    logger.info(job.fields, `${job.name}: ${said ? `${said} in ${took}` : `done in ${took}`}`);
    return result;
  } catch (error) {
    logger.warn(
      { ...job.fields, err: error },
      `${job.name}: failed after ${formatDuration(performance.now() - started)}`,
    );
    throw error;
  }
}
