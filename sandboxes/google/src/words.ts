/**
 * Word lists behind the generated worlds: names from many cultures (with their ASCII forms for
 * e-mail addresses), company name parts, industries, subjects and meeting titles.
 */

export * from './words/calendar.ts';
export * from './words/companies.ts';
export { CULTURES, type Culture } from './words/cultures.ts';
export * from './words/mail.ts';
