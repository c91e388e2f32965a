import { afterEach, describe, expect, it } from 'vitest';
import { setAccessTokenProvider } from '../../lib/api.ts';
import { errorAnswer, stubApi } from '../../testing/fakeApi.ts';
import { fetchMe } from './api.ts';

afterEach(() => setAccessTokenProvider(null));

describe('fetchMe', () => {
  it('is null for a signed-in identity that has not registered, and fails on any other refusal', async () => {
    setAccessTokenProvider(async () => 'secret');
    stubApi({ 'GET /users/query/me': errorAnswer(403, 'NOT_REGISTERED', 'This account has not registered yet') });
    await expect(fetchMe()).resolves.toBeNull();

    stubApi({ 'GET /users/query/me': errorAnswer(404, 'NOT_FOUND', 'Failed to fetch user') });
    await expect(fetchMe()).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Failed to fetch user' });
  });
});
