import { freeEmailDomains } from 'free-email-domains-typescript';

// Mailbox providers anyone can sign up to: owning an address there proves nothing about a company,
// so such a domain can never name a workspace, nor become a company of the graph. The list is
// HubSpot's (the domains its forms refuse as not a company's), as the `free-email-domains-typescript`
// package ships it; a newer list arrives with `npm update`.

/** Providers HubSpot's list lacks (Proton, Tuta, Hey, SFR...), which we refused before adopting it. */
const MISSING_FROM_HUBSPOT = [
  'gmx.fr',
  'hey.com',
  'mailbox.org',
  'neuf.fr',
  'pm.me',
  'proton.me',
  'protonmail.ch',
  'sfr.fr',
  'tuta.com',
  'tuta.io',
  'tutanota.com',
  'tutanota.de',
];
const FREE_EMAIL_DOMAINS = new Set([...freeEmailDomains, ...MISSING_FROM_HUBSPOT]);

/** Whether anyone can get an address at this domain: the one place the rule lives. */
export function isFreeEmailDomain(domain: string) {
  return FREE_EMAIL_DOMAINS.has(domain.toLowerCase());
}

export function emailDomain(email: string) {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** The same providers as a list, for a statement to leave their addresses out where they are stored. */
export function freeEmailDomainList(): string[] {
  return [...FREE_EMAIL_DOMAINS];
}
