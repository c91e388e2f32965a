import { describe, expect, it } from 'vitest';
import { emailDomain, isFreeEmailDomain } from './free-email-domains.ts';

describe('isFreeEmailDomain', () => {
  it('knows the free mailboxes of every country, whatever the case', () => {
    for (const domain of ['gmail.com', 'orange.fr', 'web.de', 'pm.me', 'proton.me', 'yahoo.co.uk', 'GMail.com']) {
      expect(isFreeEmailDomain(domain), domain).toBe(true);
    }
  });

  it('leaves company domains alone', () => {
    for (const domain of ['acme.com', 'dupont-sas.fr', 'siemens.de', 'google.com']) {
      expect(isFreeEmailDomain(domain), domain).toBe(false);
    }
  });
});

describe('emailDomain', () => {
  it('is what follows the last @, lower-cased', () => {
    expect(emailDomain('"a@b" <Jean@Dupont.FR')).toBe('dupont.fr');
  });
});
