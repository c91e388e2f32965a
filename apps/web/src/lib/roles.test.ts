import { describe, expect, it } from 'vitest';
import { isRestrictedRole } from './roles.ts';

describe('isRestrictedRole', () => {
  it('is false for admin, member and viewer, true for a role outside them', () => {
    expect(['admin', 'member', 'viewer'].map(isRestrictedRole)).toEqual([false, false, false]);
    expect(isRestrictedRole('restricted')).toBe(true);
  });
});
