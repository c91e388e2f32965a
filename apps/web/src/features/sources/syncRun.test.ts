import type { TSyncRun } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { isAccessRevoked, isSyncActive, syncCountsSummary, syncPercent } from './syncRun.ts';

const run: TSyncRun = {
  id: '5e7d1c2b-3a4f-4b6c-8d9e-0f1a2b3c4d5e',
  status: 'running',
  phase: 'Reading mail',
  processed: 0,
  total: null,
  counts: null,
  error: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  finishedAt: null,
};

describe('isSyncActive', () => {
  it('is true while queued or running only', () => {
    expect(isSyncActive({ ...run, status: 'queued' })).toBe(true);
    expect(isSyncActive(run)).toBe(true);
    expect(isSyncActive({ ...run, status: 'succeeded' })).toBe(false);
    expect(isSyncActive({ ...run, status: 'failed' })).toBe(false);
    expect(isSyncActive(null)).toBe(false);
    expect(isSyncActive(undefined)).toBe(false);
  });
});

describe('syncPercent', () => {
  it('is the rounded share when the total is known, null otherwise', () => {
    expect(syncPercent({ processed: 1, total: 3 })).toBe(33);
    expect(syncPercent({ processed: 5, total: 4 })).toBe(100);
    expect(syncPercent({ processed: 5, total: null })).toBeNull();
    expect(syncPercent({ processed: 0, total: 0 })).toBeNull();
  });
});

describe('syncCountsSummary', () => {
  it('names messages, meetings and contacts (both kinds) with thousands separators', () => {
    expect(syncCountsSummary({ contacts: 200, otherContacts: 30, messages: 3021, meetings: 412, ignored: 9 })).toBe(
      '3,021 messages, 412 meetings, 230 contacts',
    );
  });

  it('uses the singular for one and leaves out what was not reported', () => {
    expect(syncCountsSummary({ messages: 1, meetings: 1 })).toBe('1 message, 1 meeting');
    expect(syncCountsSummary({ otherContacts: 1 })).toBe('1 contact');
    expect(syncCountsSummary({})).toBe('');
  });
});

describe('isAccessRevoked', () => {
  it("spots the server's revoked-access failure", () => {
    expect(isAccessRevoked('Google access was revoked: connect your Google account again')).toBe(true);
    expect(isAccessRevoked('Gmail answered 500')).toBe(false);
    expect(isAccessRevoked(null)).toBe(false);
  });
});
