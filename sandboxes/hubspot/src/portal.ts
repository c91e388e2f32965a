/**
 * One HubSpot portal (account): its companies, contacts, notes and lists. A portal belongs to an
 * e-mail domain, so teammates share it; it is generated from a generator seeded by that domain on
 * first use (about 24,000 companies, 4,000 contacts and a dozen lists, one of them 20,000 companies
 * long), then takes in the companies of every signed-in user's Google sandbox world, some of them in
 * "Customers – closed won" and "Do not contact", so CRM exclusions visibly change what the user sees.
 */
import {
  CULTURES,
  createRandom,
  drawName,
  generateCompanies,
  generateWorld,
  localPart,
  type Random,
} from '@warmpath/sandbox-google';

export type ObjectType = 'companies' | 'contacts' | 'notes';

export type CrmObject = {
  id: number;
  /** The stored (writable) properties; hs_object_id and the dates are derived when answered. */
  properties: Record<string, string>;
  createdAt: number;
  updatedAt: number;
  /** Associated records by type (a contact's company, a note's contacts and companies). */
  associations: Partial<Record<ObjectType, number[]>>;
};

export type CrmList = {
  listId: number;
  name: string;
  /** '0-2' company lists, '0-1' contact lists. */
  objectTypeId: '0-1' | '0-2';
  processingType: 'MANUAL' | 'DYNAMIC';
  createdAt: number;
  updatedAt: number;
  filtersUpdatedAt: number;
  listVersion: number;
  createdById: string;
  /** Record id → when it joined. */
  members: Map<number, number>;
  lastAddedAt: number;
};

export const DAY = 86_400_000;
const GENERATED_COMPANIES = 24_000;
const GENERATED_CONTACTS = 4_000;
export const IMPORT_LIST_NAME = 'All companies (import)';
export const IMPORT_LIST_SIZE = 20_000;
export const CLOSED_WON_LIST_NAME = 'Customers – closed won';
export const DO_NOT_CONTACT_LIST_NAME = 'Do not contact';

type ListPlan = {
  name: string;
  objectTypeId: '0-1' | '0-2';
  processingType: 'MANUAL' | 'DYNAMIC';
  /** How many generated records it holds, drawn in [min, max]. */
  size: readonly [number, number];
  /** The share of a signed-in user's world companies it holds: [from, to) of a per-company draw. */
  world?: readonly [number, number];
};

/**
 * A real portal's lists: a big import, customers and exclusions, campaign lists; two contact lists
 * beside the company ones, as every portal has them (a client must look at `objectTypeId`).
 */
const LIST_PLANS: readonly ListPlan[] = [
  {
    name: IMPORT_LIST_NAME,
    objectTypeId: '0-2',
    processingType: 'MANUAL',
    size: [IMPORT_LIST_SIZE, IMPORT_LIST_SIZE],
  },
  { name: CLOSED_WON_LIST_NAME, objectTypeId: '0-2', processingType: 'DYNAMIC', size: [150, 260], world: [0, 0.1] },
  { name: DO_NOT_CONTACT_LIST_NAME, objectTypeId: '0-2', processingType: 'MANUAL', size: [20, 60], world: [0.1, 0.15] },
  { name: 'Competitors', objectTypeId: '0-2', processingType: 'MANUAL', size: [12, 30], world: [0.15, 0.17] },
  { name: 'Partners', objectTypeId: '0-2', processingType: 'MANUAL', size: [30, 80], world: [0.17, 0.2] },
  { name: 'Churned customers', objectTypeId: '0-2', processingType: 'DYNAMIC', size: [60, 120], world: [0.2, 0.23] },
  { name: 'Q3 target accounts', objectTypeId: '0-2', processingType: 'MANUAL', size: [100, 200] },
  { name: 'Open opportunities', objectTypeId: '0-2', processingType: 'DYNAMIC', size: [150, 300] },
  { name: 'Enterprise accounts (1,000+ employees)', objectTypeId: '0-2', processingType: 'DYNAMIC', size: [300, 400] },
  { name: 'Event leads – SaaStr Annual', objectTypeId: '0-2', processingType: 'MANUAL', size: [60, 140] },
  { name: 'Tier 1 ABM accounts', objectTypeId: '0-2', processingType: 'MANUAL', size: [25, 50] },
  { name: 'Legal hold – do not email', objectTypeId: '0-2', processingType: 'MANUAL', size: [5, 9] },
  { name: 'Renewals in the next 90 days', objectTypeId: '0-2', processingType: 'DYNAMIC', size: [40, 90] },
  { name: 'Newsletter subscribers', objectTypeId: '0-1', processingType: 'DYNAMIC', size: [250, 400] },
  { name: 'Webinar attendees', objectTypeId: '0-1', processingType: 'MANUAL', size: [40, 120] },
];

/** FNV-1a: a stable 32-bit hash, for ids and shares that must not depend on generation order. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Adds an association once. */
export function associate(associations: CrmObject['associations'], type: ObjectType, id: number): void {
  const ids = associations[type];
  if (!ids) associations[type] = [id];
  else if (!ids.includes(id)) ids.push(id);
}

const unit = (text: string) => hash32(text) / 4_294_967_296;

/** Mailbox providers: their users get a portal each rather than one shared by the provider's domain. */
const FREE_MAIL = /^(gmail|googlemail|outlook|hotmail|live|yahoo|icloud|me|aol|proton|protonmail|gmx)\.[a-z.]+$/;

/** The portal an e-mail address signs in to: its domain's, or its own at a mailbox provider. */
export function portalKeyFor(email: string): string {
  const domain = email.split('@')[1] ?? email;
  return FREE_MAIL.test(domain) ? email : domain;
}

/** The account name HubSpot shows: the domain's first label in words (acme-labs.io → Acme Labs). */
export function portalNameFor(key: string): string {
  if (key.includes('@')) return `${key.split('@')[0]}'s account`;
  const label = key.split('.')[0] ?? key;
  return label
    .split(/[-_]+/)
    .filter(Boolean)
    .map((part) => (part[0]?.toUpperCase() ?? '') + part.slice(1))
    .join(' ');
}

/** Hub ids are 7 to 9 digits, stable per portal. */
export const hubIdFor = (key: string) => 1_000_000 + (hash32(`hub:${key}`) % 240_000_000);

const normalizeDomain = (domain: string) =>
  domain
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');

export class Portal {
  readonly hubId: number;
  readonly name: string;
  readonly objects: Record<ObjectType, Map<number, CrmObject>> = {
    companies: new Map(),
    contacts: new Map(),
    notes: new Map(),
  };
  lists: CrmList[] = [];
  private generated = false;
  private anchor = 0;
  private readonly signedIn = new Set<string>();
  private readonly merged = new Set<string>();
  private readonly companyByDomain = new Map<string, number>();
  private readonly contactByEmail = new Map<string, number>();
  private nextId = 0;

  constructor(
    readonly key: string,
    private readonly clock: () => number,
  ) {
    this.hubId = hubIdFor(key);
    this.name = portalNameFor(key);
  }

  get domain(): string {
    return this.key.includes('@') ? (this.key.split('@')[1] ?? this.key) : this.key;
  }

  /** Someone of the portal's domain signed in: their world's companies join it on next use. */
  signIn(email: string): void {
    this.signedIn.add(email);
  }

  /** Generates the portal on first use, then takes in the worlds of users who signed in since. */
  ready(): this {
    if (!this.generated) this.generate();
    for (const email of this.signedIn) {
      if (this.merged.has(email)) continue;
      this.merged.add(email);
      this.mergeWorld(email);
    }
    return this;
  }

  listById(listId: number): CrmList | undefined {
    return this.lists.find((list) => list.listId === listId);
  }

  contactIdByEmail(email: string): number | undefined {
    return this.contactByEmail.get(email.trim().toLowerCase());
  }

  companyIdByDomain(domain: string): number | undefined {
    return this.companyByDomain.get(normalizeDomain(domain));
  }

  /** A record created through the API: ids keep growing, as HubSpot's do. */
  create(type: ObjectType, properties: Record<string, string>, associations: CrmObject['associations']): CrmObject {
    const now = this.clock();
    this.nextId += 1 + (hash32(`${this.key}:${this.nextId}`) % 40);
    const object: CrmObject = { id: this.nextId, properties, createdAt: now, updatedAt: now, associations };
    this.add(type, object);
    for (const [otherType, ids] of Object.entries(associations) as [ObjectType, number[]][]) {
      for (const id of ids) {
        const other = this.objects[otherType].get(id);
        if (other) associate(other.associations, type, object.id);
      }
    }
    return object;
  }

  /** A record joins or leaves a list (a company changed stage, or someone edited the list). */
  changeMembership(list: CrmList, add: number[], remove: number[]): void {
    const now = this.clock();
    for (const id of add) {
      if (list.members.has(id)) continue;
      list.members.set(id, now);
      list.lastAddedAt = now;
    }
    for (const id of remove) list.members.delete(id);
    list.updatedAt = now;
    list.listVersion += 1;
  }

  private add(type: ObjectType, object: CrmObject): void {
    this.objects[type].set(object.id, object);
    if (type === 'companies' && object.properties.domain) {
      const domain = normalizeDomain(object.properties.domain);
      if (!this.companyByDomain.has(domain)) this.companyByDomain.set(domain, object.id);
    }
    if (type === 'contacts' && object.properties.email) {
      this.contactByEmail.set(object.properties.email.toLowerCase(), object.id);
    }
  }

  private generate(): void {
    this.generated = true;
    this.anchor = Math.floor(this.clock() / DAY) * DAY;
    const random = createRandom(`hubspot-sandbox:${this.key}`);
    this.nextId = 90_000_000_000 + random.int(0, 999_999_999);
    const companyIds = this.generateCompanies(random.fork('companies'));
    const contactIds = this.generateContacts(random.fork('contacts'), companyIds);
    this.generateLists(random.fork('lists'), companyIds, contactIds);
  }

  /** A creation date within the portal's six years, and a last change after it. */
  private dates(random: Random): { createdAt: number; updatedAt: number } {
    const createdAt = this.anchor - random.int(1, 6 * 365) * DAY + random.int(0, DAY - 1);
    return { createdAt, updatedAt: createdAt + Math.floor(random.next() * (this.anchor - createdAt)) };
  }

  private generateCompanies(random: Random): number[] {
    const taken = new Set<string>([this.domain]);
    const companies = generateCompanies(random.fork('names'), GENERATED_COMPANIES, taken);
    let id = 10_000_000_000 + random.int(0, 3_999_999_999);
    const ids: number[] = [];
    for (const company of companies) {
      id += random.int(1, 97);
      // A real CRM is untidy: some records lack a domain, some were typed with www.
      const shape = random.next();
      const properties: Record<string, string> = { name: company.name };
      if (shape >= 0.02) properties.domain = shape < 0.03 ? `www.${company.domain}` : company.domain;
      this.add('companies', { id, properties, ...this.dates(random), associations: {} });
      ids.push(id);
    }
    return ids;
  }

  private generateContacts(random: Random, companyIds: number[]): number[] {
    const cultures = CULTURES.map((culture) => [culture, culture.weight] as const);
    let id = 50_000_000_000 + random.int(0, 3_999_999_999);
    const ids: number[] = [];
    while (ids.length < GENERATED_CONTACTS) {
      const company = this.objects.companies.get(random.pick(companyIds));
      const domain = company?.properties.domain;
      if (!company || !domain) continue;
      const name = drawName(random, random.weighted(cultures));
      const email = `${localPart(random.pick(['first.last', 'flast', 'first'] as const), name)}@${normalizeDomain(domain)}`;
      if (this.contactByEmail.has(email)) continue;
      id += random.int(1, 97);
      this.addContact(id, { email, firstname: name.given, lastname: name.family }, company, this.dates(random));
      ids.push(id);
    }
    return ids;
  }

  private addContact(
    id: number,
    properties: Record<string, string>,
    company: CrmObject,
    dates: { createdAt: number; updatedAt: number },
  ): void {
    if (company.properties.name) properties.company = company.properties.name;
    this.add('contacts', { id, properties, ...dates, associations: { companies: [company.id] } });
    associate(company.associations, 'contacts', id);
  }

  private generateLists(random: Random, companyIds: number[], contactIds: number[]): void {
    let listId = random.int(3, 40);
    for (const plan of LIST_PLANS) {
      listId += random.int(1, 60);
      const createdAt = this.anchor - random.int(30, 4 * 365) * DAY + random.int(0, DAY - 1);
      const pool = plan.objectTypeId === '0-2' ? companyIds : contactIds;
      const size = random.int(plan.size[0], plan.size[1]);
      const members = new Map<number, number>();
      if (size >= pool.length / 2) {
        // An import: most of the pool, all joined within seconds of each other.
        for (const [index, id] of random.sample(pool, size).entries()) members.set(id, createdAt + index * 3);
      } else {
        while (members.size < size)
          members.set(random.pick(pool), createdAt + Math.floor(random.next() * (this.anchor - createdAt)));
      }
      let updatedAt = createdAt;
      for (const joined of members.values()) updatedAt = Math.max(updatedAt, joined);
      this.lists.push({
        listId,
        name: plan.name,
        objectTypeId: plan.objectTypeId,
        processingType: plan.processingType,
        createdAt,
        updatedAt,
        filtersUpdatedAt: createdAt,
        listVersion: random.int(1, 30),
        createdById: String(10_000_000 + random.int(0, 89_999_999)),
        members,
        lastAddedAt: updatedAt,
      });
    }
  }

  /**
   * The companies of a user's Google sandbox world (and a quarter of the people there, as contacts),
   * with ids and list memberships drawn from their domains, so they do not depend on who signed in first.
   */
  private mergeWorld(email: string): void {
    const world = generateWorld(email, this.clock());
    const worldCompanyIds = new Map<number, number>();
    for (const company of world.companies) {
      const domain = normalizeDomain(company.domain);
      let id = this.companyByDomain.get(domain);
      const random = createRandom(`${this.key}:company:${domain}`);
      if (id === undefined) {
        id = 20_000_000_000 + hash32(`${this.key}:company:${domain}`) * 2;
        while (this.objects.companies.has(id)) id += 1;
        this.add('companies', {
          id,
          properties: { name: company.name, domain },
          ...this.dates(random),
          associations: {},
        });
      }
      const share = unit(`${this.key}:lists:${domain}`);
      for (const [index, plan] of LIST_PLANS.entries()) {
        const list = this.lists[index];
        if (!list || !plan.world || share < plan.world[0] || share >= plan.world[1] || list.members.has(id)) continue;
        const joined = list.createdAt + Math.floor(random.next() * (this.anchor - list.createdAt));
        list.members.set(id, joined);
        list.lastAddedAt = Math.max(list.lastAddedAt, joined);
        list.updatedAt = Math.max(list.updatedAt, joined);
      }
      worldCompanyIds.set(company.index, id);
    }
    for (const person of world.people) {
      const companyId = person.company === null ? undefined : worldCompanyIds.get(person.company);
      const company = companyId === undefined ? undefined : this.objects.companies.get(companyId);
      if (!company || this.contactByEmail.has(person.email) || unit(`${this.key}:contact:${person.email}`) >= 0.25) {
        continue;
      }
      let id = 60_000_000_000 + hash32(`${this.key}:contact:${person.email}`) * 2;
      while (this.objects.contacts.has(id)) id += 1;
      const properties: Record<string, string> = {
        email: person.email,
        firstname: person.givenName,
        lastname: person.familyName,
      };
      if (person.title) properties.jobtitle = person.title;
      this.addContact(id, properties, company, this.dates(createRandom(`${this.key}:contact:${person.email}`)));
    }
  }
}
