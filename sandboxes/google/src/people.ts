/** People's API on the sandbox's state: connections, other contacts, people/me, and oauth2 userinfo. */
import { OTHER_CONTACT_FIELDS, PERSON_FIELDS, readFieldMask, serializeContact } from './contacts.ts';
import { invalidArgument } from './errors.ts';
import { SCOPES } from './oauth.ts';
import { booleanParam, integerParam, type Query, stringParam } from './params.ts';
import type { GoogleSandbox } from './sandbox.ts';

const CONTACTS = [SCOPES.contacts, SCOPES.contactsReadonly];
const OTHER_CONTACTS = [SCOPES.otherContacts, SCOPES.contacts];

export function peopleConnections(
  sandbox: GoogleSandbox,
  authorization: string | undefined,
  query: Query,
  resourceName: string,
) {
  const { state } = sandbox.authenticate(authorization, query, CONTACTS);
  if (resourceName !== 'people/me') {
    throw invalidArgument('Must be a valid resource name. Only "people/me" is valid.');
  }
  const fields = readFieldMask(
    stringParam(query, 'personFields') ?? stringParam(query, 'requestMask.includeField'),
    'personFields',
    PERSON_FIELDS,
    'https://developers.google.com/people/api/rest/v1/people.connections/list',
  );
  return state.contacts.listConnections({
    fields,
    pageSize: integerParam(query, 'pageSize', { fallback: 100, min: 1, max: 1000, rejectAbove: true }),
    pageToken: stringParam(query, 'pageToken'),
    requestSyncToken: booleanParam(query, 'requestSyncToken', false),
    syncToken: stringParam(query, 'syncToken'),
    sortOrder: stringParam(query, 'sortOrder'),
  });
}

export function otherContacts(sandbox: GoogleSandbox, authorization: string | undefined, query: Query) {
  const { state } = sandbox.authenticate(authorization, query, OTHER_CONTACTS);
  const fields = readFieldMask(
    stringParam(query, 'readMask'),
    'readMask',
    OTHER_CONTACT_FIELDS,
    'https://developers.google.com/people/api/rest/v1/otherContacts/list',
  );
  return state.contacts.listOtherContacts({
    fields,
    pageSize: integerParam(query, 'pageSize', { fallback: 100, min: 1, max: 1000, rejectAbove: true }),
    pageToken: stringParam(query, 'pageToken'),
    requestSyncToken: booleanParam(query, 'requestSyncToken', false),
    syncToken: stringParam(query, 'syncToken'),
  });
}

export function peopleMe(sandbox: GoogleSandbox, authorization: string | undefined, query: Query) {
  const { auth, state } = sandbox.authenticate(authorization, query, null);
  const fields = readFieldMask(
    stringParam(query, 'personFields'),
    'personFields',
    PERSON_FIELDS,
    'https://developers.google.com/people/api/rest/v1/people/get',
  );
  const me = state.world.people[0];
  const body = serializeContact(
    {
      resourceName: `people/${state.world.accountId}`,
      sourceId: state.world.accountId,
      givenName: me?.givenName ?? '',
      familyName: me?.familyName ?? '',
      displayName: me?.displayName ?? auth.email,
      familyFirst: false,
      emails: [{ value: auth.email }],
      updated: state.world.anchor,
      version: 1,
    },
    fields,
    'CONTACT',
  );
  return body;
}

export function userinfo(sandbox: GoogleSandbox, authorization: string | undefined, query: Query) {
  const { auth, state } = sandbox.authenticate(authorization, query, null);
  const me = state.world.people[0];
  const body: Record<string, unknown> = { id: state.world.accountId, email: auth.email, verified_email: true };
  if (auth.scopes.includes(SCOPES.profile)) {
    body.name = me?.displayName;
    body.given_name = me?.givenName;
    body.family_name = me?.familyName;
    body.picture = `${sandbox.publicUrl}/avatar.svg`;
  }
  const domain = auth.email.split('@')[1] ?? '';
  if (!/^(gmail|googlemail)\.com$/.test(domain)) body.hd = domain;
  return body;
}
