// Mailbox providers anyone can sign up to: owning an address there proves nothing about a company,
// so such a domain can never name a workspace.
export const FREE_EMAIL_DOMAINS: readonly string[] = [
  '163.com',
  'aol.com',
  'free.fr',
  'fastmail.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.fr',
  'gmx.net',
  'googlemail.com',
  'hey.com',
  'hotmail.co.uk',
  'hotmail.com',
  'hotmail.fr',
  'icloud.com',
  'laposte.net',
  'live.com',
  'live.fr',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'orange.fr',
  'outlook.com',
  'outlook.fr',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'sfr.fr',
  't-online.de',
  'tutanota.com',
  'ukr.net',
  'wanadoo.fr',
  'web.de',
  'yahoo.co.uk',
  'yahoo.com',
  'yahoo.de',
  'yahoo.fr',
  'yandex.com',
  'yandex.ru',
  'zoho.com',
];
const FREE_EMAIL_DOMAIN_SET = new Set(FREE_EMAIL_DOMAINS);

export function isFreeEmailDomain(domain: string) {
  return FREE_EMAIL_DOMAIN_SET.has(domain.toLowerCase());
}

export function emailDomain(email: string) {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
