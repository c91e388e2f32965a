/**
 * The CRM API on a portal, as HubSpot answers it: objects (read, batch read, search, create), lists
 * (search, fetch) and list memberships. Request bodies arrive as parsed JSON of unknown shape; every
 * function checks what it reads and throws HubSpot's own errors.
 */
import { crmError, type PropertyProblem, propertyError, validationError } from './errors.ts';
import { associate, type CrmList, type CrmObject, type ObjectType, type Portal } from './portal.ts';

type TypeInfo = {
  /** How HubSpot names the type in messages. */
  label: string;
  objectTypeId: string;
  writable: readonly string[];
  /** Read-only properties HubSpot derives. */
  derived: readonly string[];
  /** What a read without `properties` answers. */
  defaults: readonly string[];
  created: string;
  modified: string;
  /** What a search's free-text `query` looks in. */
  searchable: readonly string[];
};

export const OBJECT_TYPES: Record<ObjectType, TypeInfo> = {
  companies: {
    label: 'COMPANY',
    objectTypeId: '0-2',
    writable: ['name', 'domain', 'website', 'industry', 'city', 'country', 'phone', 'numberofemployees', 'description'],
    derived: ['hs_object_id', 'createdate', 'hs_lastmodifieddate'],
    defaults: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', 'name'],
    created: 'createdate',
    modified: 'hs_lastmodifieddate',
    searchable: ['name', 'domain', 'website', 'phone'],
  },
  contacts: {
    label: 'CONTACT',
    objectTypeId: '0-1',
    writable: ['email', 'firstname', 'lastname', 'company', 'jobtitle', 'phone', 'website', 'lifecyclestage', 'city'],
    derived: ['hs_object_id', 'createdate', 'lastmodifieddate', 'associatedcompanyid'],
    defaults: ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'],
    created: 'createdate',
    modified: 'lastmodifieddate',
    searchable: ['firstname', 'lastname', 'email', 'phone', 'company'],
  },
  notes: {
    label: 'NOTE',
    objectTypeId: '0-46',
    writable: ['hs_note_body', 'hs_timestamp', 'hs_attachment_ids'],
    derived: ['hs_object_id', 'hs_createdate', 'hs_lastmodifieddate'],
    defaults: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
    created: 'hs_createdate',
    modified: 'hs_lastmodifieddate',
    searchable: ['hs_note_body'],
  },
};

const ALL_OWNER = ['hubspot_owner_id'];

/** The names and ids HubSpot accepts for an object type in a path. */
export function objectTypeOf(name: string): ObjectType {
  const lower = name.toLowerCase();
  if (['companies', 'company', '0-2'].includes(lower)) return 'companies';
  if (['contacts', 'contact', '0-1'].includes(lower)) return 'contacts';
  if (['notes', 'note', '0-46'].includes(lower)) return 'notes';
  throw crmError(400, 'OBJECT_NOT_FOUND', `Unable to infer object type from: ${name}`);
}

export type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const iso = (ms: number) => new Date(ms).toISOString();

function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw validationError(`Invalid input JSON: ${field} must be an array of strings`);
  }
  return value as string[];
}

/** `properties=a,b` or `properties=a&properties=b`, as the clients send them in a query. */
export function queryList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items
    .flatMap((item) => String(item).split(','))
    .map((item) => item.trim())
    .filter(Boolean);
}

function knownProperty(type: ObjectType, name: string): boolean {
  const info = OBJECT_TYPES[type];
  return info.writable.includes(name) || info.derived.includes(name) || ALL_OWNER.includes(name);
}

export function propertyValue(type: ObjectType, object: CrmObject, name: string): string | null {
  const info = OBJECT_TYPES[type];
  if (name === 'hs_object_id') return String(object.id);
  if (name === info.created) return iso(object.createdAt);
  if (name === info.modified) return iso(object.updatedAt);
  if (name === 'associatedcompanyid') {
    const company = object.associations.companies?.[0];
    return company === undefined ? null : String(company);
  }
  return object.properties[name] ?? null;
}

export type ReadOptions = { properties?: string[]; propertiesWithHistory?: string[] };

/** A record as the v3 objects API answers it: a requested property without a value is null. */
export function objectJson(type: ObjectType, object: CrmObject, options: ReadOptions = {}): Json {
  const info = OBJECT_TYPES[type];
  const names = options.properties?.length
    ? [...new Set([...options.properties, 'hs_object_id', info.created, info.modified])]
    : info.defaults;
  const properties: Record<string, string | null> = {};
  for (const name of names) if (knownProperty(type, name)) properties[name] = propertyValue(type, object, name);
  const json: Json = {
    id: String(object.id),
    properties,
    createdAt: iso(object.createdAt),
    updatedAt: iso(object.updatedAt),
    archived: false,
  };
  if (options.propertiesWithHistory?.length) {
    const history: Record<string, Json[]> = {};
    for (const name of options.propertiesWithHistory) {
      const value = knownProperty(type, name) ? propertyValue(type, object, name) : null;
      history[name] =
        value === null ? [] : [{ value, timestamp: iso(object.updatedAt), sourceType: 'CRM_UI', sourceId: 'userId:0' }];
    }
    json.propertiesWithHistory = history;
  }
  return json;
}

const ASSOCIATION_NAMES: Record<ObjectType, Partial<Record<ObjectType, string>>> = {
  companies: { contacts: 'company_to_contact', notes: 'company_to_note' },
  contacts: { companies: 'contact_to_company_unlabeled', notes: 'contact_to_note' },
  notes: { contacts: 'note_to_contact', companies: 'note_to_company' },
};

/** GET of one record, with `associations=contacts,companies` listed as HubSpot does. */
export function getObject(portal: Portal, type: ObjectType, rawId: string, query: Json): Json {
  const object = /^\d+$/.test(rawId) ? portal.objects[type].get(Number(rawId)) : undefined;
  if (!object) throw crmError(404, 'OBJECT_NOT_FOUND', 'Object not found.  objectId are usually numeric.');
  const json = objectJson(type, object, {
    properties: queryList(query.properties),
    propertiesWithHistory: queryList(query.propertiesWithHistory),
  });
  const wanted = queryList(query.associations).map(objectTypeOf);
  if (wanted.length > 0) {
    const associations: Json = {};
    for (const other of wanted) {
      const ids = object.associations[other] ?? [];
      if (ids.length === 0) continue;
      const kind = ASSOCIATION_NAMES[type][other] ?? `${type}_to_${other}`;
      associations[other] = { results: ids.map((id) => ({ id: String(id), type: kind })) };
    }
    json.associations = associations;
  }
  return json;
}

export const BATCH_LIMIT = 100;

/** Batch read: 200 when every id exists, else 207 with the missing ids in `errors`. */
export function batchRead(
  portal: Portal,
  type: ObjectType,
  body: unknown,
  now: number,
): { statusCode: number; body: Json } {
  if (!isRecord(body) || !Array.isArray(body.inputs)) throw validationError('Invalid input JSON: inputs is required');
  if (body.inputs.length > BATCH_LIMIT) {
    throw validationError(`Batch input size ${body.inputs.length} exceeds the maximum of ${BATCH_LIMIT} inputs.`);
  }
  if (body.idProperty !== undefined && body.idProperty !== 'hs_object_id') {
    throw validationError(`The sandbox reads records by id only (idProperty ${String(body.idProperty)})`);
  }
  const options = {
    properties: stringList(body.properties, 'properties'),
    propertiesWithHistory: stringList(body.propertiesWithHistory, 'propertiesWithHistory'),
  };
  const results: Json[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const input of body.inputs) {
    const id =
      isRecord(input) && (typeof input.id === 'string' || typeof input.id === 'number') ? String(input.id) : '';
    if (seen.has(id)) continue;
    seen.add(id);
    const object = /^\d+$/.test(id) ? portal.objects[type].get(Number(id)) : undefined;
    if (object) results.push(objectJson(type, object, options));
    else missing.push(id);
  }
  const json: Json = { status: 'COMPLETE', results, startedAt: iso(now), completedAt: iso(now) };
  if (missing.length === 0) return { statusCode: 200, body: json };
  json.numErrors = 1;
  json.errors = [
    {
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      message: `Could not get some ${OBJECT_TYPES[type].label} objects, they may be deleted or not exist. Check that ids are valid.`,
      context: { ids: missing },
      errors: [],
      links: {},
    },
  ];
  return { statusCode: 207, body: json };
}

// ---- search ----

const OPERATORS = [
  'EQ',
  'NEQ',
  'LT',
  'LTE',
  'GT',
  'GTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'HAS_PROPERTY',
  'NOT_HAS_PROPERTY',
  'CONTAINS_TOKEN',
  'NOT_CONTAINS_TOKEN',
] as const;
type Operator = (typeof OPERATORS)[number];
type Filter = { propertyName: string; operator: Operator; value?: string; highValue?: string; values?: string[] };

export const SEARCH_LIMIT = 200;
/** HubSpot's search pages stop at 10,000 results. */
const SEARCH_WINDOW = 10_000;

/** Numbers and dates compare as numbers (filters give dates in epoch milliseconds), the rest case-insensitively. */
function comparable(value: string): number | string {
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const time = Date.parse(value);
    if (!Number.isNaN(time)) return time;
  }
  return value.toLowerCase();
}

function compare(left: string, right: string): number {
  const a = comparable(left);
  const b = comparable(right);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Words of a text, as HubSpot's search index splits them (HTML tags and punctuation separate words). */
const tokens = (text: string) =>
  text
    .replace(/<[^>]*>/g, ' ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** CONTAINS_TOKEN: the value's words, in order, among the property's; `*` is a wildcard. */
function containsToken(actual: string, value: string): boolean {
  if (value.includes('*')) {
    const pattern = new RegExp(
      `^${value
        .toLowerCase()
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      'u',
    );
    return pattern.test(actual.toLowerCase()) || tokens(actual).some((token) => pattern.test(token));
  }
  const wanted = tokens(value);
  if (wanted.length === 0) return false;
  const words = tokens(actual);
  for (let start = 0; start + wanted.length <= words.length; start++) {
    if (wanted.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

function matches(actual: string | null, filter: Filter): boolean {
  const value = filter.value ?? '';
  const present = actual !== null && actual !== '';
  switch (filter.operator) {
    case 'EQ':
      return present && compare(actual, value) === 0;
    case 'NEQ':
      return !present || compare(actual, value) !== 0;
    case 'LT':
      return present && compare(actual, value) < 0;
    case 'LTE':
      return present && compare(actual, value) <= 0;
    case 'GT':
      return present && compare(actual, value) > 0;
    case 'GTE':
      return present && compare(actual, value) >= 0;
    case 'BETWEEN':
      return present && compare(actual, value) >= 0 && compare(actual, filter.highValue ?? '') <= 0;
    case 'IN':
      return present && (filter.values ?? []).some((item) => compare(actual, item) === 0);
    case 'NOT_IN':
      return !present || !(filter.values ?? []).some((item) => compare(actual, item) === 0);
    case 'HAS_PROPERTY':
      return present;
    case 'NOT_HAS_PROPERTY':
      return !present;
    case 'CONTAINS_TOKEN':
      return present && containsToken(actual, value);
    case 'NOT_CONTAINS_TOKEN':
      return !present || !containsToken(actual, value);
  }
}

function readFilter(raw: unknown): Filter {
  if (!isRecord(raw) || typeof raw.propertyName !== 'string' || typeof raw.operator !== 'string') {
    throw validationError('Invalid input JSON: a filter needs propertyName and operator');
  }
  const operator = raw.operator.toUpperCase();
  if (!(OPERATORS as readonly string[]).includes(operator)) {
    throw validationError(`Invalid input JSON: Cannot build FilterOperator, unknown operator ${raw.operator}`);
  }
  const scalar = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
  const filter: Filter = { propertyName: raw.propertyName, operator: operator as Operator };
  const value = scalar(raw.value);
  if (value !== undefined) filter.value = value;
  const highValue = scalar(raw.highValue);
  if (highValue !== undefined) filter.highValue = highValue;
  if (Array.isArray(raw.values)) filter.values = raw.values.map(scalar).filter((item) => item !== undefined);
  if ((operator === 'IN' || operator === 'NOT_IN') && !filter.values?.length) {
    throw validationError(`${operator} filter on ${raw.propertyName} requires values`);
  }
  const needsValue = !['IN', 'NOT_IN', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY'].includes(operator);
  if (needsValue && filter.value === undefined) {
    throw validationError(`${operator} filter on ${raw.propertyName} requires a value`);
  }
  return filter;
}

type Sort = { propertyName: string; descending: boolean };

function readSorts(raw: unknown): Sort[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw validationError('Invalid input JSON: sorts must be an array');
  return raw.map((item) => {
    if (typeof item === 'string') {
      return { propertyName: item.replace(/^-/, ''), descending: item.startsWith('-') };
    }
    if (isRecord(item) && typeof item.propertyName === 'string') {
      return { propertyName: item.propertyName, descending: item.direction === 'DESCENDING' };
    }
    throw validationError('Invalid input JSON: a sort needs propertyName and direction');
  });
}

/** POST /crm/v3/objects/{type}/search: filter groups OR'ed, filters in a group AND'ed. */
export function searchObjects(portal: Portal, type: ObjectType, body: unknown): Json {
  const request = isRecord(body) ? body : {};
  const groups = request.filterGroups ?? [];
  if (!Array.isArray(groups)) throw validationError('Invalid input JSON: filterGroups must be an array');
  if (groups.length > 5) throw validationError(`Too many filter groups (${groups.length}); the maximum is 5.`);
  const filterGroups = groups.map((group) => {
    const filters = isRecord(group) && Array.isArray(group.filters) ? group.filters : [];
    if (filters.length > 6) throw validationError(`Too many filters in a group (${filters.length}); the maximum is 6.`);
    return filters.map(readFilter);
  });
  if (filterGroups.flat().length > 18) throw validationError('Too many filters; the maximum is 18 in all groups.');
  const limit = request.limit === undefined ? 10 : Number(request.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT) {
    throw validationError(`limit must be between 1 and ${SEARCH_LIMIT}, got ${String(request.limit)}`);
  }
  const offset = request.after === undefined || request.after === '' ? 0 : Number(request.after);
  if (!Number.isInteger(offset) || offset < 0) throw validationError(`Invalid after: ${String(request.after)}`);
  if (offset + limit > SEARCH_WINDOW) {
    throw crmError(400, 'VALIDATION_ERROR', `The search cannot page past ${SEARCH_WINDOW} results.`);
  }
  const sorts = readSorts(request.sorts);
  const query = typeof request.query === 'string' ? tokens(request.query) : [];
  const info = OBJECT_TYPES[type];

  const found: CrmObject[] = [];
  for (const object of portal.objects[type].values()) {
    const passes =
      filterGroups.length === 0 ||
      filterGroups.some((filters) =>
        filters.every((filter) => matches(propertyValue(type, object, filter.propertyName), filter)),
      );
    if (!passes) continue;
    if (query.length > 0) {
      const words = info.searchable.flatMap((name) => tokens(object.properties[name] ?? ''));
      if (!query.every((word) => words.some((candidate) => candidate.startsWith(word)))) continue;
    }
    found.push(object);
  }
  found.sort((a, b) => {
    for (const sort of sorts) {
      const left = propertyValue(type, a, sort.propertyName);
      const right = propertyValue(type, b, sort.propertyName);
      if (left === right) continue;
      if (left === null) return 1;
      if (right === null) return -1;
      const order = compare(left, right);
      if (order !== 0) return sort.descending ? -order : order;
    }
    return a.id - b.id;
  });
  const properties = stringList(request.properties, 'properties');
  const page = found.slice(offset, offset + limit);
  const json: Json = { total: found.length, results: page.map((object) => objectJson(type, object, { properties })) };
  if (offset + limit < found.length) json.paging = { next: { after: String(offset + limit) } };
  return json;
}

// ---- create ----

/** HubSpot-defined association types the sandbox knows, by the type that creates them. */
const ASSOCIATION_TYPES: Record<ObjectType, Record<number, ObjectType>> = {
  companies: { 280: 'contacts' },
  contacts: { 1: 'companies', 279: 'companies' },
  notes: { 202: 'contacts', 190: 'companies' },
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function readAssociations(portal: Portal, type: ObjectType, raw: unknown): CrmObject['associations'] {
  if (raw === undefined || raw === null) return {};
  if (!Array.isArray(raw)) throw validationError('Invalid input JSON: associations must be an array');
  const associations: CrmObject['associations'] = {};
  for (const item of raw) {
    const to = isRecord(item) && isRecord(item.to) ? item.to : undefined;
    const types = isRecord(item) && Array.isArray(item.types) ? item.types : [];
    const id = to && (typeof to.id === 'string' || typeof to.id === 'number') ? String(to.id) : '';
    if (!id || types.length === 0) throw validationError('Invalid input JSON: an association needs to.id and types');
    for (const spec of types) {
      const typeId = isRecord(spec) ? Number(spec.associationTypeId) : Number.NaN;
      const target =
        isRecord(spec) && spec.associationCategory === 'HUBSPOT_DEFINED' ? ASSOCIATION_TYPES[type][typeId] : undefined;
      if (!target) {
        const category = isRecord(spec) ? String(spec.associationCategory) : '';
        throw validationError(
          `Invalid association type: ${category} ${String(typeId)} does not go from ${OBJECT_TYPES[type].label}`,
        );
      }
      if (!/^\d+$/.test(id) || !portal.objects[target].has(Number(id))) {
        throw validationError(
          `One or more associations are invalid: no ${OBJECT_TYPES[target].label} with ID ${id} exists.`,
          { context: { ids: [id] } },
        );
      }
      associate(associations, target, Number(id));
    }
  }
  return associations;
}

function readProperties(type: ObjectType, raw: unknown): Record<string, string> {
  if (!isRecord(raw)) throw validationError('Invalid input JSON: properties is required');
  const properties: Record<string, string> = {};
  const problems: PropertyProblem[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === null || value === undefined) continue;
    if (!OBJECT_TYPES[type].writable.includes(name) && !ALL_OWNER.includes(name)) {
      const message = OBJECT_TYPES[type].derived.includes(name)
        ? `"${name}" is a read only property; its value cannot be set.`
        : `Property "${name}" does not exist`;
      problems.push({
        name,
        error: OBJECT_TYPES[type].derived.includes(name) ? 'READ_ONLY_VALUE' : 'PROPERTY_DOESNT_EXIST',
        message,
      });
      continue;
    }
    properties[name] = String(value);
  }
  if (type === 'contacts' && properties.email !== undefined) {
    properties.email = properties.email.trim();
    if (!EMAIL.test(properties.email)) {
      problems.push({ name: 'email', error: 'INVALID_EMAIL', message: `Email address ${properties.email} is invalid` });
    }
  }
  if (type === 'notes') {
    const timestamp = properties.hs_timestamp;
    const time =
      timestamp === undefined ? Number.NaN : /^\d+$/.test(timestamp) ? Number(timestamp) : Date.parse(timestamp);
    if (timestamp === undefined) {
      problems.push({ name: 'hs_timestamp', error: 'REQUIRED_FIELD', message: 'hs_timestamp is required' });
    } else if (Number.isNaN(time)) {
      problems.push({
        name: 'hs_timestamp',
        error: 'INVALID_DATE',
        message: `${timestamp} was not a valid long or ISO 8601 date`,
      });
    } else {
      properties.hs_timestamp = iso(time);
    }
  }
  if (problems.length > 0) throw propertyError(problems);
  return properties;
}

/** POST /crm/v3/objects/{type}: 201 and the record; a contact's e-mail is unique (409 CONFLICT). */
export function createObject(portal: Portal, type: ObjectType, body: unknown): Json {
  if (!isRecord(body)) throw validationError('Invalid input JSON: a request body was expected, but none found');
  const properties = readProperties(type, body.properties);
  const associations = readAssociations(portal, type, body.associations);
  if (type === 'contacts' && properties.email) {
    const existing = portal.contactIdByEmail(properties.email);
    if (existing !== undefined) throw crmError(409, 'CONFLICT', `Contact already exists. Existing ID: ${existing}`);
  }
  const object = portal.create(type, properties, associations);
  return objectJson(type, object, { properties: Object.keys(properties) });
}

// ---- lists ----

export const LIST_SEARCH_LIMIT = 500;
export const MEMBERSHIP_LIMIT = 250;

const LIST_PROPERTIES = ['hs_list_size', 'hs_list_reference_count', 'hs_last_record_added_at'];

function listBase(list: CrmList): Json {
  return {
    listId: String(list.listId),
    listVersion: list.listVersion,
    name: list.name,
    objectTypeId: list.objectTypeId,
    processingType: list.processingType,
    processingStatus: 'COMPLETE',
    createdAt: iso(list.createdAt),
    updatedAt: iso(list.updatedAt),
    filtersUpdatedAt: iso(list.filtersUpdatedAt),
    createdById: list.createdById,
    updatedById: list.createdById,
  };
}

function listProperties(list: CrmList, names: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {
    hs_list_size: String(list.members.size),
    hs_list_reference_count: '0',
    hs_last_record_added_at: String(list.lastAddedAt),
  };
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = values[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** POST /crm/v3/lists/search: `query` is part of the name, any case; `offset` in the answer is the next page's. */
export function searchLists(portal: Portal, body: unknown): Json {
  const request = isRecord(body) ? body : {};
  const count = request.count === undefined ? 20 : Number(request.count);
  if (!Number.isInteger(count) || count < 1 || count > LIST_SEARCH_LIMIT) {
    throw validationError(`count must be between 1 and ${LIST_SEARCH_LIMIT}, got ${String(request.count)}`);
  }
  const offset = request.offset === undefined ? 0 : Number(request.offset);
  if (!Number.isInteger(offset) || offset < 0) throw validationError(`Invalid offset: ${String(request.offset)}`);
  const query = typeof request.query === 'string' ? request.query.trim().toLowerCase() : '';
  const processingTypes = stringList(request.processingTypes, 'processingTypes');
  const listIds = stringList(request.listIds, 'listIds');
  const extra = stringList(request.additionalProperties, 'additionalProperties');
  const names = [...new Set([...LIST_PROPERTIES, ...extra])];
  const found = portal.lists.filter(
    (list) =>
      (!query || list.name.toLowerCase().includes(query)) &&
      (processingTypes.length === 0 || processingTypes.includes(list.processingType)) &&
      (listIds.length === 0 || listIds.includes(String(list.listId))),
  );
  const page = found.slice(offset, offset + count);
  return {
    offset: offset + page.length,
    hasMore: offset + page.length < found.length,
    total: found.length,
    lists: page.map((list) => ({ ...listBase(list), additionalProperties: listProperties(list, names) })),
  };
}

export function listOf(portal: Portal, rawId: string): CrmList {
  const list = /^\d+$/.test(rawId) ? portal.listById(Number(rawId)) : undefined;
  if (!list) throw crmError(404, 'OBJECT_NOT_FOUND', `List does not exist with listId ${rawId}.`);
  return list;
}

/** GET /crm/v3/lists/{listId}: `{ list }`. */
export function fetchList(portal: Portal, rawId: string): Json {
  const list = listOf(portal, rawId);
  return {
    list: { ...listBase(list), size: list.members.size, additionalProperties: listProperties(list, LIST_PROPERTIES) },
  };
}

const cursor = (recordId: number) => Buffer.from(String(recordId)).toString('base64url');

function fromCursor(value: string, field: string): number {
  const decoded = Buffer.from(value, 'base64url').toString('utf8');
  if (!/^\d+$/.test(decoded)) throw validationError(`Invalid ${field} cursor: ${value}`);
  return Number(decoded);
}

/** The first index in a sorted array whose value is greater than (or, with `orEqual`, not less than) `value`. */
function firstAbove(sorted: number[], value: number, orEqual: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const item = sorted[middle] ?? 0;
    if (item < value || (!orEqual && item === value)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** GET /crm/v3/lists/{listId}/memberships: record ids ascending, opaque `after`/`before` cursors. */
export function listMemberships(portal: Portal, rawId: string, query: Json, selfUrl: string): Json {
  const list = listOf(portal, rawId);
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MEMBERSHIP_LIMIT) {
    throw validationError(`limit must be between 1 and ${MEMBERSHIP_LIMIT}, got ${String(query.limit)}`);
  }
  const sorted = [...list.members.keys()].sort((a, b) => a - b);
  let start = 0;
  if (typeof query.after === 'string' && query.after)
    start = firstAbove(sorted, fromCursor(query.after, 'after'), false);
  else if (typeof query.before === 'string' && query.before) {
    start = Math.max(0, firstAbove(sorted, fromCursor(query.before, 'before'), true) - limit);
  }
  const page = sorted.slice(start, start + limit);
  const link = (name: string, value: string) =>
    `${selfUrl}?${new URLSearchParams({ [name]: value, limit: String(limit) })}`;
  const paging: Json = {};
  const last = page[page.length - 1];
  if (last !== undefined && start + page.length < sorted.length) {
    paging.next = { after: cursor(last), link: link('after', cursor(last)) };
  }
  const first = page[0];
  if (first !== undefined && start > 0) paging.prev = { before: cursor(first), link: link('before', cursor(first)) };
  const json: Json = {
    results: page.map((recordId) => ({
      recordId: String(recordId),
      membershipTimestamp: iso(list.members.get(recordId) ?? list.createdAt),
    })),
    total: sorted.length,
  };
  if (Object.keys(paging).length > 0) json.paging = paging;
  return json;
}
