/** One user's contact book: People connections (saved contacts) and "Other contacts" (people mailed). */
import { GoogleApiError, invalidArgument } from './errors.ts';
import { decodePageToken, encodePageToken, numberField } from './params.ts';
import type { Random } from './random.ts';
import type { Address } from './rfc5322.ts';
import { isoUtc } from './time.ts';

export type Contact = {
  resourceName: string;
  sourceId: string;
  givenName: string;
  familyName: string;
  displayName: string;
  /** Family name first without a comma (East Asian names). */
  familyFirst: boolean;
  emails: { value: string; type?: string }[];
  organization?: { name: string; title: string };
  phone?: string;
  updated: number;
  version: number;
  deleted?: boolean;
};

export const PERSON_FIELDS = [
  'addresses',
  'ageRanges',
  'biographies',
  'birthdays',
  'calendarUrls',
  'clientData',
  'coverPhotos',
  'emailAddresses',
  'events',
  'externalIds',
  'genders',
  'imClients',
  'interests',
  'locales',
  'locations',
  'memberships',
  'metadata',
  'miscKeywords',
  'names',
  'nicknames',
  'occupations',
  'organizations',
  'phoneNumbers',
  'photos',
  'relations',
  'sipAddresses',
  'skills',
  'urls',
  'userDefined',
];

export const OTHER_CONTACT_FIELDS = ['emailAddresses', 'metadata', 'names', 'phoneNumbers', 'photos'];

/** Reads a field mask (`names,emailAddresses` or `person.names`), as the People API checks it. */
export function readFieldMask(
  value: string | undefined,
  name: 'personFields' | 'readMask',
  valid: string[],
  doc: string,
) {
  if (!value?.trim()) {
    throw invalidArgument(
      `${name} mask is required. Please specify one or more valid paths. Valid paths are documented at ${doc}.`,
    );
  }
  const fields = new Set<string>();
  for (const raw of value.split(',')) {
    const path = raw.trim().replace(/^person\./, '');
    if (!path) continue;
    if (!valid.includes(path)) {
      throw invalidArgument(`Invalid ${name} mask path: "${path}". Valid paths are documented at ${doc}.`);
    }
    fields.add(path);
  }
  return fields;
}

const SORT_ORDERS = [
  'LAST_MODIFIED_ASCENDING',
  'LAST_MODIFIED_DESCENDING',
  'FIRST_NAME_ASCENDING',
  'LAST_NAME_ASCENDING',
];

function expiredSyncToken(): GoogleApiError {
  return new GoogleApiError(400, 'Sync token is expired. Clear local cache and retry call without the sync token.', {
    reason: 'failedPrecondition',
    status: 'FAILED_PRECONDITION',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'EXPIRED_SYNC_TOKEN',
        domain: 'people.googleapis.com',
      },
    ],
  });
}

export class ContactBook {
  private readonly connections: Contact[] = [];
  private readonly others: Contact[] = [];
  private readonly known = new Set<string>();
  private readonly syncTokens = new Map<string, number>();
  private readonly random: Random;
  version = 1;

  constructor(random: Random) {
    this.random = random;
  }

  get connectionCount(): number {
    return this.connections.filter((contact) => !contact.deleted).length;
  }

  get otherCount(): number {
    return this.others.length;
  }

  allConnections(): readonly Contact[] {
    return this.connections;
  }

  allOtherContacts(): readonly Contact[] {
    return this.others;
  }

  knows(email: string): boolean {
    return this.known.has(email.toLowerCase());
  }

  private newSourceId(): string {
    return this.random.hex(16).replace(/^0+/, '1');
  }

  addConnection(contact: Omit<Contact, 'resourceName' | 'sourceId' | 'version'>, version = this.version): Contact {
    const sourceId = this.newSourceId();
    const saved: Contact = {
      ...contact,
      resourceName: `people/c${BigInt(`0x${sourceId}`).toString()}`,
      sourceId,
      version,
    };
    this.connections.push(saved);
    for (const email of contact.emails) this.known.add(email.value.toLowerCase());
    return saved;
  }

  /** Gmail keeps everyone the user writes to as an "other contact", unless already saved. */
  addOtherContact(address: Address, updated: number, bump: boolean): Contact | undefined {
    const email = address.email.toLowerCase();
    if (this.known.has(email)) return undefined;
    this.known.add(email);
    if (bump) this.version++;
    const sourceId = this.newSourceId();
    const [given = '', ...rest] = address.name.split(' ');
    const contact: Contact = {
      resourceName: `otherContacts/c${BigInt(`0x${sourceId}`).toString()}`,
      sourceId,
      givenName: address.name ? given : '',
      familyName: address.name ? rest.join(' ') : '',
      displayName: address.name,
      familyFirst: false,
      emails: [{ value: address.email }],
      updated,
      version: this.version,
    };
    this.others.push(contact);
    return contact;
  }

  invalidateSyncTokens(): number {
    const count = this.syncTokens.size;
    this.syncTokens.clear();
    return count;
  }

  private issueSyncToken(kind: string, version: number): string {
    const token = `${kind}${Buffer.from(this.random.hex(24), 'hex').toString('base64url')}`;
    this.syncTokens.set(token, version);
    return token;
  }

  private page(
    kind: 'connections' | 'others',
    items: Contact[],
    options: { pageSize: number; pageToken?: string; requestSyncToken: boolean; syncToken?: string },
  ) {
    const cursor = decodePageToken(kind, options.pageToken);
    const snapshot = cursor ? numberField(cursor, 'v') : this.version;
    let since: number | undefined;
    if (options.syncToken !== undefined) {
      since = cursor ? numberField(cursor, 's') : this.syncTokens.get(options.syncToken);
      if (since === undefined) throw expiredSyncToken();
    }
    const selected =
      since === undefined
        ? items.filter((contact) => !contact.deleted && contact.version <= snapshot)
        : items.filter((contact) => contact.version > (since ?? 0) && contact.version <= snapshot);
    const offset = cursor ? numberField(cursor, 'o') : 0;
    const page = selected.slice(offset, offset + options.pageSize);
    const more = offset + options.pageSize < selected.length;
    const token: Record<string, number> = { o: offset + options.pageSize, v: snapshot };
    if (since !== undefined) token.s = since;
    return {
      page,
      total: selected.length,
      nextPageToken: more ? encodePageToken(kind, token) : undefined,
      nextSyncToken:
        !more && (options.requestSyncToken || options.syncToken !== undefined)
          ? this.issueSyncToken(kind === 'connections' ? 'EAE' : 'EAO', snapshot)
          : undefined,
    };
  }

  listConnections(options: {
    fields: Set<string>;
    pageSize: number;
    pageToken?: string;
    requestSyncToken: boolean;
    syncToken?: string;
    sortOrder?: string;
  }) {
    if (options.sortOrder && !SORT_ORDERS.includes(options.sortOrder)) {
      throw invalidArgument(
        `Invalid value at 'sort_order' (type.googleapis.com/google.people.v1.ListConnectionsRequest.SortOrder), "${options.sortOrder}"`,
      );
    }
    const items = this.connections.slice();
    switch (options.sortOrder) {
      case 'LAST_MODIFIED_DESCENDING':
        items.reverse();
        break;
      case 'FIRST_NAME_ASCENDING':
        items.sort((a, b) => a.givenName.localeCompare(b.givenName));
        break;
      case 'LAST_NAME_ASCENDING':
        items.sort((a, b) => a.familyName.localeCompare(b.familyName));
        break;
      default:
        break;
    }
    const result = this.page('connections', items, options);
    const body: Record<string, unknown> = {};
    if (result.page.length > 0)
      body.connections = result.page.map((contact) => serializeContact(contact, options.fields, 'CONTACT'));
    if (result.nextPageToken) body.nextPageToken = result.nextPageToken;
    if (result.nextSyncToken) body.nextSyncToken = result.nextSyncToken;
    body.totalPeople = result.total;
    body.totalItems = result.total;
    return body;
  }

  listOtherContacts(options: {
    fields: Set<string>;
    pageSize: number;
    pageToken?: string;
    requestSyncToken: boolean;
    syncToken?: string;
  }) {
    const result = this.page('others', this.others, options);
    const body: Record<string, unknown> = {};
    if (result.page.length > 0) {
      body.otherContacts = result.page.map((contact) => serializeContact(contact, options.fields, 'OTHER_CONTACT'));
    }
    if (result.nextPageToken) body.nextPageToken = result.nextPageToken;
    if (result.nextSyncToken) body.nextSyncToken = result.nextSyncToken;
    body.totalSize = result.total;
    return body;
  }
}

export function serializeContact(contact: Contact, fields: Set<string>, sourceType: 'CONTACT' | 'OTHER_CONTACT') {
  const etag = `%Eg${Buffer.from(`${contact.sourceId}.${contact.version}`).toString('base64').replace(/=+$/, '')}`;
  const source = { type: sourceType, id: contact.sourceId };
  const out: Record<string, unknown> = { resourceName: contact.resourceName, etag };
  if (fields.has('metadata') || contact.deleted) {
    const metadata: Record<string, unknown> = {
      sources: [{ ...source, etag: `#${contact.sourceId.slice(0, 12)}`, updateTime: isoUtc(contact.updated) }],
      objectType: 'PERSON',
    };
    if (contact.deleted) metadata.deleted = true;
    out.metadata = metadata;
  }
  if (contact.deleted) return out;
  if (fields.has('names') && contact.displayName) {
    const lastFirst = contact.familyFirst
      ? contact.displayName
      : contact.familyName
        ? `${contact.familyName}, ${contact.givenName}`
        : contact.givenName;
    const name: Record<string, unknown> = {
      metadata: { primary: true, source },
      displayName: contact.displayName,
      displayNameLastFirst: lastFirst,
      unstructuredName: contact.displayName,
    };
    if (contact.familyName) name.familyName = contact.familyName;
    if (contact.givenName) name.givenName = contact.givenName;
    out.names = [name];
  }
  if (fields.has('emailAddresses') && contact.emails.length > 0) {
    out.emailAddresses = contact.emails.map((email, index) => {
      const entry: Record<string, unknown> = {
        metadata: index === 0 ? { primary: true, source } : { source },
        value: email.value,
      };
      if (email.type) {
        entry.type = email.type;
        entry.formattedType = email.type[0]?.toUpperCase() + email.type.slice(1);
      }
      return entry;
    });
  }
  if (fields.has('organizations') && contact.organization) {
    out.organizations = [
      {
        metadata: { primary: true, source },
        name: contact.organization.name,
        title: contact.organization.title,
        type: 'work',
        formattedType: 'Work',
      },
    ];
  }
  if (fields.has('phoneNumbers') && contact.phone) {
    out.phoneNumbers = [
      {
        metadata: { primary: true, source },
        value: contact.phone,
        canonicalForm: contact.phone.replace(/\s+/g, ''),
        type: 'mobile',
        formattedType: 'Mobile',
      },
    ];
  }
  return out;
}
