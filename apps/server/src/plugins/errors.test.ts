import { ERROR_CODES, type TErrorCode, ZError } from '@warmpath/shared';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, ERROR_STATUS } from '../lib/app-error.ts';
import { errors } from './errors.ts';

describe('the error catalogue', () => {
  it('gives every code of the shared catalogue one client or server status, and knows no other code', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      expect(ERROR_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code], code).toBeLessThan(600);
    }
  });

  it('lets services throw catalogue codes only', () => {
    // @ts-expect-error an HTTP name is not a domain code: AppError refuses it at compile time
    const httpName = new AppError('CONFLICT', 'Taken');
    expect(ERROR_CODES).not.toContain(httpName.code);
  });
});

describe('the error handler', () => {
  const app = Fastify({ bodyLimit: 100 }).withTypeProvider<ZodTypeProvider>();

  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errors);
    app.get('/throw/:code', (request) => {
      throw new AppError((request.params as { code: TErrorCode }).code, `Refused: ${request.url}`);
    });
    app.get('/crash', () => {
      throw new Error('a secret detail');
    });
    app.post('/names', { schema: { body: z.object({ names: z.array(z.string().min(2)) }) } }, () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  it.each(ERROR_CODES)('answers %s with its status and { code, message }', async (code) => {
    const response = await app.inject({ url: `/throw/${code}` });
    expect(response.statusCode).toBe(ERROR_STATUS[code]);
    expect(ZError.parse(response.json())).toEqual({ code, message: `Refused: /throw/${code}` });
  });

  it('answers a schema violation with VALIDATION_FAILED, naming the field', async () => {
    const response = await app.inject({ method: 'POST', url: '/names', payload: { names: ['Ada', 'B'] } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^names\.1: /) });
  });

  it("answers Fastify's own client errors with a code of their kind and Fastify's message", async () => {
    const malformed = await app.inject({
      method: 'POST',
      url: '/names',
      headers: { 'content-type': 'application/json' },
      payload: '{"names":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_FAILED' });

    const tooLarge = await app.inject({ method: 'POST', url: '/names', payload: { names: ['x'.repeat(200)] } });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ code: 'TOO_LARGE', message: 'Request body is too large' });

    const media = await app.inject({
      method: 'POST',
      url: '/names',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'names',
    });
    expect(media.statusCode).toBe(415);
    expect(media.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers anything unexpected with INTERNAL and no detail', async () => {
    const response = await app.inject({ url: '/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'INTERNAL', message: 'Internal server error' });
  });
});

describe('a request its client closed', () => {
  it('is logged as information, not as an error to look at', async () => {
    const lines: { level: number; msg: string }[] = [];
    const app = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    await app.register(errors);
    app.get('/left', () => {
      throw Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    });
    app.get('/crash', () => {
      throw new Error('a real failure');
    });
    await app.ready();
    await app.inject({ url: '/left' });
    await app.inject({ url: '/crash' });
    await app.close();
    const logged = lines.filter((line) => line.level >= 30 && /closed|unhandled/.test(line.msg));
    expect(logged.map((line) => [line.level, line.msg])).toEqual([
      [30, 'the client closed the request'],
      [50, 'unhandled error'],
    ]);
  });
});
