import { afterEach, describe, expect, it } from 'vitest';
import { clearRegistration, readRegistration, readReturnTo, storeRegistration } from './auth.ts';

describe('readReturnTo', () => {
  it('follows the path stored in the sign-in state', () => {
    expect(readReturnTo({ returnTo: '/sign-up/create-details' })).toBe('/sign-up/create-details');
  });

  it('defaults to / without a usable state', () => {
    expect(readReturnTo(undefined)).toBe('/');
    expect(readReturnTo({ returnTo: 42 })).toBe('/');
  });

  it('never leaves the origin', () => {
    expect(readReturnTo({ returnTo: 'https://evil.example/' })).toBe('/');
    expect(readReturnTo({ returnTo: '//evil.example/' })).toBe('/');
  });
});

describe('stored registration process', () => {
  afterEach(() => window.localStorage.clear());

  it('is stored, read back and cleared', () => {
    expect(readRegistration()).toBeNull();
    storeRegistration({ process: 'member-registration', target: '/sign-up/register-invite/abc' });
    expect(readRegistration()).toEqual({ process: 'member-registration', target: '/sign-up/register-invite/abc' });
    clearRegistration();
    expect(readRegistration()).toBeNull();
  });

  it('ignores what is not a registration process', () => {
    window.localStorage.setItem('registrationProcess', '{not json');
    expect(readRegistration()).toBeNull();
    window.localStorage.setItem('registrationProcess', JSON.stringify({ process: 'other', target: '/x' }));
    expect(readRegistration()).toBeNull();
    window.localStorage.setItem(
      'registrationProcess',
      JSON.stringify({ process: 'admin-registration', target: 'https://evil.example' }),
    );
    expect(readRegistration()).toBeNull();
  });
});
