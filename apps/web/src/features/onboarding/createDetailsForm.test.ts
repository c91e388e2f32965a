import { describe, expect, it } from 'vitest';
import { createDetailsDefaults, toRegistration, ZCreateDetailsForm } from './createDetailsForm.ts';

const valid = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  companyName: 'Analytical Engines',
  domains: ['engines.example'],
  termsAccepted: true,
};

function messagesOf(value: unknown): Record<string, string[]> {
  const result = ZCreateDetailsForm.safeParse(value);
  if (result.success) return {};
  const messages: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    messages[field] = [...(messages[field] ?? []), issue.message];
  }
  return messages;
}

describe('ZCreateDetailsForm', () => {
  it('accepts a complete form, trimmed and with lower-cased domains', () => {
    const parsed = ZCreateDetailsForm.parse({ ...valid, firstName: '  Ada ', domains: ['Engines.Example'] });
    expect(parsed.firstName).toBe('Ada');
    expect(parsed.domains).toEqual(['engines.example']);
  });

  it('gives the spec messages for missing names, company and terms', () => {
    expect(
      messagesOf({ firstName: ' ', lastName: '', companyName: '  ', domains: valid.domains, termsAccepted: false }),
    ).toEqual({
      firstName: ['First name is required'],
      lastName: ['Last name is required'],
      companyName: ['Company name is required'],
      termsAccepted: ['You must agree to the terms and conditions and the privacy policy.'],
    });
  });

  it('requires at least one domain', () => {
    expect(messagesOf({ ...valid, domains: [] })).toEqual({ domains: ['At least one domain is required'] });
  });

  it('allows at most 5 domains', () => {
    const six = ['a.example', 'b.example', 'c.example', 'd.example', 'e.example', 'f.example'];
    expect(messagesOf({ ...valid, domains: six.slice(0, 5) })).toEqual({});
    expect(messagesOf({ ...valid, domains: six })).toEqual({ domains: ['Max 5 tags'] });
  });

  it('refuses a domain that is not one', () => {
    expect(messagesOf({ ...valid, domains: ['not a domain'] })).toHaveProperty('domains');
  });
});

describe('createDetailsDefaults', () => {
  it('pre-fills the names and the first domain from the ID token profile', () => {
    expect(
      createDetailsDefaults({ sub: 's1', email: 'ada@Engines.Example', given_name: 'Ada', family_name: 'Lovelace' }),
    ).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: '',
      domains: ['engines.example'],
      termsAccepted: false,
    });
  });

  it('leaves the fields empty when the profile says nothing', () => {
    expect(createDetailsDefaults({ sub: 's1' })).toEqual({
      firstName: '',
      lastName: '',
      companyName: '',
      domains: [],
      termsAccepted: false,
    });
  });
});

describe('toRegistration', () => {
  it('builds the registration payload with the identity from the ID token', () => {
    expect(toRegistration(valid, { sub: 'idp|42', email: 'ada@engines.example' })).toEqual({
      idpId: 'idp|42',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@engines.example',
      workspaceName: 'Analytical Engines',
      workspaceDomains: ['engines.example'],
    });
  });
});
