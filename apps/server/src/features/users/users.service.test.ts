import { describe, expect, it } from 'vitest';
import { nonWhitelistedDomains } from './users.service.ts';

describe('nonWhitelistedDomains', () => {
  it("accepts the registering person's own domain", () => {
    expect(nonWhitelistedDomains(['acme.com'], 'jane@acme.com', [])).toEqual([]);
  });

  it('refuses free mailbox providers, even as the own domain or on the allow-list', () => {
    expect(nonWhitelistedDomains(['gmail.com'], 'jane@gmail.com', ['gmail.com'])).toEqual(['gmail.com']);
    for (const domain of ['orange.fr', 'web.de', 'pm.me']) {
      expect(nonWhitelistedDomains([domain], `jane@${domain}`, [domain])).toEqual([domain]);
    }
  });

  it('accepts other domains only from the allow-list', () => {
    expect(nonWhitelistedDomains(['acme.com', 'acme.fr', 'other.io'], 'jane@acme.com', ['acme.fr'])).toEqual([
      'other.io',
    ]);
  });
});
