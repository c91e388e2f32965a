import { describe, expect, it } from 'vitest';
import { VALIDATION } from '../messages.ts';
import { canonicalLinkedinUrl, LIST_VALIDATION, ZClientForm } from './lists.ts';

const valid = {
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@acme.com',
  companyName: 'Acme',
  companyDomain: 'acme.com',
  linkedinUrl: 'https://www.linkedin.com/in/jane',
};
const messages = (input: Record<string, unknown>) => {
  const result = ZClientForm.safeParse(input);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('the add-client form (spec section 5)', () => {
  it('requires the six identity fields, with the spec messages, after trimming', () => {
    expect(messages({ firstName: '  ', lastName: '', companyName: ' ' })).toEqual({
      firstName: VALIDATION.firstNameRequired,
      lastName: VALIDATION.lastNameRequired,
      email: VALIDATION.emailRequired,
      companyName: VALIDATION.companyNameRequired,
      companyDomain: VALIDATION.companyDomainRequired,
      linkedinUrl: VALIDATION.linkedinRequired,
    });
  });

  it('checks the e-mail, the domain, the LinkedIn address and the contact owner', () => {
    expect(
      messages({
        ...valid,
        email: 'jane @acme.com',
        companyDomain: 'acme',
        linkedinUrl: 'https://x.com/in/jane',
        contactOwner: 'me',
      }),
    ).toEqual({
      email: VALIDATION.emailInvalid,
      companyDomain: VALIDATION.companyDomainInvalid,
      linkedinUrl: VALIDATION.linkedinInvalid,
      contactOwner: LIST_VALIDATION.contactOwnerInvalid,
    });
  });

  it('strips a protocol and a trailing slash from the domain, and reads empty optionals as absent', () => {
    const parsed = ZClientForm.parse({ ...valid, companyDomain: ' HTTPS://Acme.co.uk/ ', contactOwner: ' ', tag: '' });
    expect(parsed).toMatchObject({ companyDomain: 'acme.co.uk', mapNetwork: false, trackJobChanges: false });
    expect(parsed.contactOwner).toBeUndefined();
    expect(parsed.tag).toBeUndefined();
  });

  it('accepts LinkedIn addresses with or without protocol, www or a two-letter subdomain, in one form', () => {
    for (const url of [
      'linkedin.com/in/Jane',
      'http://fr.linkedin.com/in/jane/',
      'https://www.linkedin.com/in/jane?trk=1',
    ]) {
      expect(canonicalLinkedinUrl(url)).toBe('https://www.linkedin.com/in/jane');
    }
    for (const url of [
      'https://linkedin.com',
      'https://linkedin.com/',
      'https://abc.linkedin.com/in/x',
      'linkedin.org/in/x',
    ]) {
      expect(canonicalLinkedinUrl(url)).toBeNull();
    }
  });
});
