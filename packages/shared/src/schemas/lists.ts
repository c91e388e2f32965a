import { z } from 'zod';
import { ENGAGEMENTS } from '../enums.ts';
import { VALIDATION } from '../messages.ts';
import { ZPagination } from './network.ts';

// The lists teams keep (spec sections 3, 5 and 7: Accounts, Clients, CRM clients) and the CSV imports
// that fill them. One add-client schema serves the server, the web form and every CSV row.

/** Spec section 5: text, an at sign, text, a dot, text, without spaces. */
export const CLIENT_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Dotted labels ending in an alphabetic part of two letters or more. */
export const COMPANY_DOMAIN_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;
/** linkedin.com with optional protocol and optional www or two-letter subdomain, then a path (not only slashes). */
export const LINKEDIN_URL_PATTERN = /^(?:https?:\/\/)?(?:(?:www|[a-z]{2})\.)?linkedin\.com(\/[^\s?#]*[^\s/?#][^\s]*)$/i;

/** Not given by the spec (section 5 says any further rule is ours). */
export const LIST_VALIDATION = {
  contactOwnerInvalid: 'Contact owner must be a valid email address',
  tagTooLong: 'Tag must be at most 50 characters',
  fieldTooLong: 'Value is too long',
} as const;

export const CLIENT_TAG_MAX_LENGTH = 50;
const TEXT_MAX = 300;

/** A leading http(s):// and a trailing slash stripped (spec section 5), lower-cased. */
export function stripCompanyDomain(value: string): string {
  return value
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/$/, '')
    .toLowerCase();
}

/**
 * A LinkedIn address in one form (https://www.linkedin.com + the lower-cased path, no query, no
 * trailing slash), so the same person is matched whichever way the address was written; it is the
 * form the LinkedIn connections import stores too. Null when it is not a LinkedIn address.
 */
export function canonicalLinkedinUrl(value: string): string | null {
  const match = LINKEDIN_URL_PATTERN.exec(value.trim());
  if (!match?.[1]) return null;
  const path = (match[1].split(/[?#]/)[0] ?? '').replace(/\/+$/, '');
  if (path === '') return null;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A stray % is kept as written: still one canonical form.
  }
  return `https://www.linkedin.com${decoded.toLowerCase()}`;
}

const required = (message: string) =>
  z.string(message).trim().min(1, message).max(TEXT_MAX, LIST_VALIDATION.fieldTooLong);
/** Empty optional fields are sent as absent (spec section 5); an empty string is read the same way. */
const optionalText = (schema: z.ZodString) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(schema.optional());

const ZCompanyName = required(VALIDATION.companyNameRequired);
const ZCompanyDomain = z
  .string(VALIDATION.companyDomainRequired)
  .transform(stripCompanyDomain)
  .pipe(
    z
      .string()
      .min(1, VALIDATION.companyDomainRequired)
      .max(253, VALIDATION.companyDomainInvalid)
      .regex(COMPANY_DOMAIN_PATTERN, VALIDATION.companyDomainInvalid),
  );

/** Spec section 5, the add-client form: every field trimmed, then checked. Also each CSV row of a clients import. */
export const ZClientFields = z.object({
  firstName: required(VALIDATION.firstNameRequired),
  lastName: required(VALIDATION.lastNameRequired),
  email: z
    .string(VALIDATION.emailRequired)
    .trim()
    .min(1, VALIDATION.emailRequired)
    .max(TEXT_MAX, VALIDATION.emailInvalid)
    .regex(CLIENT_EMAIL_PATTERN, VALIDATION.emailInvalid)
    .toLowerCase(),
  companyName: ZCompanyName,
  companyDomain: ZCompanyDomain,
  linkedinUrl: z
    .string(VALIDATION.linkedinRequired)
    .trim()
    .min(1, VALIDATION.linkedinRequired)
    .max(TEXT_MAX, VALIDATION.linkedinInvalid)
    .transform((value, context) => {
      const canonical = canonicalLinkedinUrl(value);
      if (canonical) return canonical;
      context.addIssue({ code: 'custom', message: VALIDATION.linkedinInvalid });
      return z.NEVER;
    }),
  contactOwner: optionalText(
    z
      .string()
      .max(TEXT_MAX, LIST_VALIDATION.contactOwnerInvalid)
      .regex(CLIENT_EMAIL_PATTERN, LIST_VALIDATION.contactOwnerInvalid),
  ).transform((value) => value?.toLowerCase()),
  tag: optionalText(z.string().max(CLIENT_TAG_MAX_LENGTH, LIST_VALIDATION.tagTooLong)),
});
export type TClientFieldsInput = z.input<typeof ZClientFields>;
export type TClientFields = z.output<typeof ZClientFields>;

/**
 * `POST /clients/command/create-update-single-client`: no id creates (flags as sent), an id updates
 * (identity fields and flags kept as stored; only company, contact owner and tag change).
 */
export const ZClientForm = ZClientFields.extend({
  id: z.uuid().optional(),
  mapNetwork: z.boolean().default(false),
  trackJobChanges: z.boolean().default(false),
});
export type TClientFormInput = z.input<typeof ZClientForm>;
export type TClientForm = z.output<typeof ZClientForm>;

/** The company columns of an accounts or CRM customers import row (same rules as the form's). */
export const ZCompanyFields = z.object({ companyName: ZCompanyName, companyDomain: ZCompanyDomain });
export type TCompanyFields = z.output<typeof ZCompanyFields>;

export const CLIENT_SOURCES = ['manual', 'csv', 'crm'] as const;
export type ClientSource = (typeof CLIENT_SOURCES)[number];

/** Spec section 3, Client or ally, with what its contact card shows (engagement, proximity). */
export const ZClient = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  companyName: z.string().nullable(),
  companyDomain: z.string().nullable(),
  linkedinUrl: z.string().nullable(),
  /** The contact owner's e-mail. */
  contactOwner: z.string().nullable(),
  tag: z.string().nullable(),
  source: z.enum(CLIENT_SOURCES),
  mapNetwork: z.boolean(),
  trackJobChanges: z.boolean(),
  detailedClientData: z.object({
    clientFullName: z.string(),
    clientImage: z.string().nullable(),
    clientCompanyName: z.string().nullable(),
    clientCompanyImage: z.string().nullable(),
  }),
  engagement: z.enum(ENGAGEMENTS),
  /** 0-100: the client's own proximity as a prospect, or, for a mapped ally, its best edge to a member. */
  proximity: z.number().int(),
});
export type TClient = z.infer<typeof ZClient>;

/** Every table pages (spec section 9: page 1, 30 rows by default). */
export const ZListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(30),
  searchTerm: z.string().trim().max(200).optional(),
});
export type TListQuery = z.input<typeof ZListQuery>;
export type TListParams = z.output<typeof ZListQuery>;

export const ZClientsPage = z.object({ rows: z.array(ZClient), pagination: ZPagination });
export type TClientsPage = z.infer<typeof ZClientsPage>;

/** `GET /clients/query/tags?searchTerm`: the tags the workspace already uses, for the tag input's suggestions. */
export const ZClientTagsQuery = z.object({ searchTerm: z.string().trim().max(CLIENT_TAG_MAX_LENGTH).optional() });
export const ZClientTags = z.object({ tags: z.array(z.string()) });
export type TClientTags = z.infer<typeof ZClientTags>;

/** A user as the accounts page shows them. */
export const ZAccountUser = z.object({ id: z.uuid(), name: z.string(), avatar: z.string().nullable() });
export type TAccountUser = z.infer<typeof ZAccountUser>;

/** Spec section 3, Account: a target company. */
export const ZAccount = z.object({
  id: z.uuid(),
  name: z.string(),
  domain: z.string(),
  /** The company's logo. */
  avatar: z.string().nullable(),
  assignedTo: z.array(ZAccountUser),
  /** ISO time of the last intro or message about the account, null when none yet. */
  lastActivity: z.string().nullable(),
});
export type TAccount = z.infer<typeof ZAccount>;
export const ZAccountsPage = z.object({ rows: z.array(ZAccount), pagination: ZPagination });
export type TAccountsPage = z.infer<typeof ZAccountsPage>;

/** `GET /accounts/query/assignable-account-users/{id}`: who is assigned, and the workspace's other users. */
export const ZAssignableAccountUsers = z.object({
  assignedTo: z.array(ZAccountUser),
  assignable: z.array(ZAccountUser),
});
export type TAssignableAccountUsers = z.infer<typeof ZAssignableAccountUsers>;

/** `POST /accounts/command/update-assignees/{id}`: the complete new list (answers with the account). */
export const ZUpdateAssignees = z.object({ assigneeIds: z.array(z.uuid()).max(1000) });
export type TUpdateAssignees = z.infer<typeof ZUpdateAssignees>;

/** `POST /users/command/set-my-accounts`: the accounts the signed-in user works ('My accounts'). */
export const ZMyAccounts = z.object({ accountIds: z.array(z.uuid()).max(10_000) });
export type TMyAccounts = z.infer<typeof ZMyAccounts>;

/** Spec section 3, CRM client: a customer company, excluded from recommendations. */
export const ZCrmClient = z.object({ id: z.uuid(), companyName: z.string(), companyDomain: z.string() });
export type TCrmClient = z.infer<typeof ZCrmClient>;
export const ZCrmClientsPage = z.object({ rows: z.array(ZCrmClient), pagination: ZPagination });
export type TCrmClientsPage = z.infer<typeof ZCrmClientsPage>;

// CSV imports -------------------------------------------------------------------------------------

export const IMPORT_KINDS = ['accounts', 'clients', 'crm-clients'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_STATUSES = ['receiving', 'merging', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * What the merge of each kind of import does, in order: a merging import's `mergeStep` is the index
 * of the step under way. A million-row merge takes minutes, and this is how its progress is shown.
 */
export const IMPORT_MERGE_STEPS = {
  accounts: [
    'Finding the first row of each domain',
    'Adding companies',
    'Adding accounts',
    'Recording the rejected rows',
  ],
  'crm-clients': [
    'Finding the first row of each domain',
    'Adding companies',
    'Adding CRM customers',
    'Taking their people out of the network',
    'Recording the rejected rows',
  ],
  clients: [
    'Finding the first row of each address',
    'Adding companies',
    'Matching known people',
    'Adding and updating people',
    'Adding and updating clients and allies',
    'Marking the network for an update',
    'Recording the rejected rows',
  ],
} as const satisfies Record<ImportKind, readonly string[]>;
export type ImportMergeStep<K extends ImportKind = ImportKind> = (typeof IMPORT_MERGE_STEPS)[K][number];

/**
 * The query string of every upload: `importId`, a uuid the client picks, lets it poll
 * `GET /imports/query/{importId}` while the upload is still streaming (404 until the file part starts
 * arriving). Optional: the server picks one otherwise. Retrying a failed import takes a new id.
 *
 * The multipart body carries exactly one `file` part; for `/clients/command/upload-clients` the
 * `mapNetwork` and `trackJobChanges` fields ('true' or 'false') must come before the file, since the
 * file is read as it arrives.
 */
export const ZUploadQuery = z.object({ importId: z.uuid().optional() });
export type TUploadQuery = z.infer<typeof ZUploadQuery>;

/** `GET /imports/query/{id}`, and the answer of every upload (its final state). */
export const ZImportStatus = z.object({
  id: z.uuid(),
  kind: z.enum(IMPORT_KINDS),
  fileName: z.string(),
  status: z.enum(IMPORT_STATUSES),
  /** Bytes of the file read so far. */
  bytesReceived: z.number().int(),
  /** Data rows read so far (blank lines not counted). */
  rowsProcessed: z.number().int(),
  /** While merging: the index in IMPORT_MERGE_STEPS[kind] of the step under way; null otherwise. */
  mergeStep: z.number().int().nullable(),
  /** Once completed: rows that created a list entry, changed one, changed nothing (already there or repeated in the file), or were invalid. */
  added: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  rejected: z.number().int(),
  /** API path of the CSV (line, reason) of the rejected rows, fetched with the bearer token; null when none was rejected. */
  rejectedRowsUrl: z.string().nullable(),
  /** Why the import failed; nothing of it was merged. */
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TImportStatus = z.infer<typeof ZImportStatus>;

/**
 * The columns each import reads, in the order of its downloadable template, with an example row.
 * Headers match case- and space-insensitively ('First name', 'firstname', 'FIRST NAME'); other columns
 * are ignored.
 */
export const CSV_TEMPLATES = {
  accounts: {
    fileName: 'accounts-import-template.csv',
    columns: ['Company name', 'Company domain'],
    example: ['Acme', 'acme.com'],
  },
  clients: {
    fileName: 'clients-and-allies-import-template.csv',
    columns: [
      'First name',
      'Last name',
      'Email',
      'Company name',
      'Company domain',
      'Linkedin profile URL',
      'Contact owner',
      'Tag',
    ],
    example: [
      'Jane',
      'Doe',
      'jane.doe@acme.com',
      'Acme',
      'acme.com',
      'https://www.linkedin.com/in/jane-doe',
      'owner@yourcompany.com',
      'Client',
    ],
  },
  'crm-clients': {
    fileName: 'crm-customers-import-template.csv',
    columns: ['Company name', 'Company domain'],
    example: ['Acme', 'acme.com'],
  },
} as const satisfies Record<ImportKind, { fileName: string; columns: readonly string[]; example: readonly string[] }>;

/**
 * `GET /clients/query/job-changes`: the newest first, moves to a known company and departures apart;
 * `recentDays` keeps those seen within that many days.
 */
export const ZJobChangesQuery = z.object({ recentDays: z.coerce.number().int().min(1).max(3650).optional() });
export const JOB_CHANGE_SOURCES = ['linkedin', 'import', 'manual', 'mail'] as const;
export const JOB_CHANGE_CONFIDENCES = ['certain', 'probable'] as const;
/** A change of someone's current company, as the Job changes tracking page shows it. */
export const ZJobChange = z.object({
  id: z.uuid(),
  person: z.object({ id: z.uuid(), name: z.string() }),
  pastCompanyName: z.string().nullable(),
  newCompanyName: z.string(),
  changedOn: z.iso.date(),
  source: z.enum(JOB_CHANGE_SOURCES),
  confidence: z.enum(JOB_CHANGE_CONFIDENCES),
  /** Whether the person is a client the team tracks (their change raises PAST_CLIENT). */
  tracked: z.boolean(),
  /** A probable change 'detected' waits for an admin to confirm or dismiss it (dismissed ones are not listed). */
  status: z.enum(['detected', 'confirmed']),
});
export type TJobChange = z.infer<typeof ZJobChange>;
/**
 * Someone who may have left their company for one unknown: mail to their company address bounced, and
 * nothing came from it since. Confirmed and dismissed as a job change is.
 */
export const ZDeparture = z.object({
  id: z.uuid(),
  person: z.object({ id: z.uuid(), name: z.string() }),
  pastCompanyName: z.string().nullable(),
  /** The address the delivery failure report named. */
  address: z.string(),
  /** The day of the bounce (of the latest one). */
  bouncedOn: z.iso.date(),
  source: z.enum(JOB_CHANGE_SOURCES),
  confidence: z.enum(JOB_CHANGE_CONFIDENCES),
  tracked: z.boolean(),
  status: z.enum(['detected', 'confirmed']),
});
export type TDeparture = z.infer<typeof ZDeparture>;
export const ZJobChanges = z.object({ changes: z.array(ZJobChange), departures: z.array(ZDeparture) });
export type TJobChanges = z.infer<typeof ZJobChanges>;
