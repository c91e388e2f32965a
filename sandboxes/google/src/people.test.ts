import { type people_v1, people as peopleApi } from '@googleapis/people';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningGoogleSandbox } from './server.ts';
import { connect, rejection, startSandbox } from './testing.ts';

const EMAIL = 'maria.rossi@bluefin.it';
let running: RunningGoogleSandbox;
let people: people_v1.People;

beforeAll(async () => {
  running = await startSandbox();
  const { client } = await connect(running, EMAIL);
  people = peopleApi({ version: 'v1', auth: client, rootUrl: running.rootUrl });
});
afterAll(async () => {
  await running.close();
});

async function allConnections(options: { syncToken?: string } = {}) {
  const found: people_v1.Schema$Person[] = [];
  let pageToken: string | undefined;
  let total = 0;
  let syncToken = '';
  do {
    const { data } = await people.people.connections.list({
      resourceName: 'people/me',
      personFields: 'names,emailAddresses,organizations',
      pageSize: 100,
      pageToken,
      requestSyncToken: true,
      syncToken: options.syncToken,
    });
    found.push(...(data.connections ?? []));
    total = data.totalItems ?? 0;
    expect(data.totalPeople).toBe(total);
    pageToken = data.nextPageToken ?? undefined;
    syncToken = data.nextSyncToken ?? '';
  } while (pageToken);
  return { found, total, syncToken };
}

describe('People connections', () => {
  it('pages through the saved contacts with the requested fields', async () => {
    const { found, total, syncToken } = await allConnections();
    expect(total).toBeGreaterThan(200);
    expect(found).toHaveLength(total);
    expect(syncToken).toBeTruthy();
    const person = found.find((item) => item.organizations?.length && item.emailAddresses?.length);
    expect(person?.resourceName).toMatch(/^people\/c\d+$/);
    expect(person?.etag).toMatch(/^%Eg/);
    expect(person?.names?.[0]).toMatchObject({ displayName: expect.any(String), metadata: { primary: true } });
    expect(person?.organizations?.[0]).toMatchObject({ name: expect.any(String), title: expect.any(String) });
    expect(person?.emailAddresses?.[0]?.value).toContain('@');
    expect(person?.phoneNumbers).toBeUndefined();
    const colleagues = found.filter((item) => item.emailAddresses?.[0]?.value?.endsWith('@bluefin.it'));
    expect(colleagues.length).toBeGreaterThan(10);
    expect(found.some((item) => /[^\x20-\x7e]/.test(item.names?.[0]?.displayName ?? ''))).toBe(true);
  });

  it('requires personFields, as the People API does', async () => {
    const missing = await rejection(people.people.connections.list({ resourceName: 'people/me' }, { retry: false }));
    expect(missing.status).toBe(400);
    expect(missing.data).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const wrong = await rejection(
      people.people.connections.list({ resourceName: 'people/me', personFields: 'names,shoeSize' }, { retry: false }),
    );
    expect(wrong.status).toBe(400);
  });

  it('syncs incrementally with a sync token; an expired one gets FAILED_PRECONDITION', async () => {
    const { syncToken } = await allConnections();
    const incremental = await allConnections({ syncToken });
    expect(incremental.found).toEqual([]);
    running.sandbox.invalidatePeopleSyncTokens(EMAIL);
    const expired = await rejection(allConnections({ syncToken: incremental.syncToken }));
    expect(expired.status).toBe(400);
    expect(expired.data).toMatchObject({ error: { status: 'FAILED_PRECONDITION' } });
  });
});

describe('Other contacts', () => {
  it('pages through the people the user mailed but never saved', async () => {
    const seen = new Set<string>();
    let pageToken: string | undefined;
    let totalSize = 0;
    let pages = 0;
    do {
      const { data } = await people.otherContacts.list({ readMask: 'names,emailAddresses', pageSize: 50, pageToken });
      for (const contact of data.otherContacts ?? []) {
        expect(contact.resourceName).toMatch(/^otherContacts\/c\d+$/);
        seen.add(contact.emailAddresses?.[0]?.value ?? '');
      }
      totalSize = data.totalSize ?? 0;
      pageToken = data.nextPageToken ?? undefined;
      pages++;
    } while (pageToken);
    expect(pages).toBeGreaterThan(2);
    expect(seen.size).toBe(totalSize);
    const { found } = await allConnections();
    const saved = new Set(found.flatMap((person) => (person.emailAddresses ?? []).map((email) => email.value)));
    for (const email of seen) expect(saved.has(email)).toBe(false);
  });

  it('takes only the fields other contacts have', async () => {
    const refused = await rejection(people.otherContacts.list({ readMask: 'names,organizations' }, { retry: false }));
    expect(refused.status).toBe(400);
    const missing = await rejection(people.otherContacts.list({}, { retry: false }));
    expect(missing.status).toBe(400);
  });

  it('adds the recipient of mail the user sends (seen by an incremental sync)', async () => {
    const first = await people.otherContacts.list({
      readMask: 'emailAddresses',
      pageSize: 1000,
      requestSyncToken: true,
    });
    let pageToken = first.data.nextPageToken ?? undefined;
    let syncToken = first.data.nextSyncToken ?? '';
    while (pageToken) {
      const { data } = await people.otherContacts.list({
        readMask: 'emailAddresses',
        pageSize: 1000,
        pageToken,
        requestSyncToken: true,
      });
      pageToken = data.nextPageToken ?? undefined;
      syncToken = data.nextSyncToken ?? '';
    }
    running.sandbox.addMail(EMAIL, { from: EMAIL, to: ['brand.new@contact.example'], subject: 'Nice to meet you' });
    const { data } = await people.otherContacts.list({ readMask: 'emailAddresses,names', syncToken });
    expect(data.otherContacts?.map((contact) => contact.emailAddresses?.[0]?.value)).toEqual([
      'brand.new@contact.example',
    ]);
  });
});
