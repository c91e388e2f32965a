import { describe, expect, it } from 'vitest';
import { acceptInvitationDefaults, closedInvitationMessage, ZAcceptInvitationForm } from './acceptInvitationForm.ts';

describe('acceptInvitationDefaults', () => {
  it("takes the invitation's names, else the ID token's", () => {
    const profile = { given_name: 'Ada', family_name: 'Lovelace' };
    expect(acceptInvitationDefaults({ firstName: 'Augusta', lastName: '' }, profile)).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
      termsAccepted: false,
    });
    expect(acceptInvitationDefaults({ firstName: ' ', lastName: '' }, undefined)).toEqual({
      firstName: '',
      lastName: '',
      termsAccepted: false,
    });
  });
});

describe('ZAcceptInvitationForm', () => {
  it("gives the spec's messages for missing names and terms", () => {
    const result = ZAcceptInvitationForm.safeParse({ firstName: ' ', lastName: '', termsAccepted: false });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'First name is required',
      'Last name is required',
      'You must agree to the terms and conditions and the privacy policy.',
    ]);
  });
});

describe('closedInvitationMessage', () => {
  it('lets a pending invitation through and explains the others', () => {
    expect(closedInvitationMessage('pending')).toBeNull();
    expect(closedInvitationMessage('accepted')).toBe('This invitation has already been used.');
    expect(closedInvitationMessage('expired')).toMatch(/expired/);
    expect(closedInvitationMessage('revoked')).toMatch(/withdrawn/);
  });
});
