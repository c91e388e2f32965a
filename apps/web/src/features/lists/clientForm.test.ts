import { type TClient, ZClientFields } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import { allRequiredEmpty, clientFormDefaults, toClientRequest } from './clientForm.ts';

const ally: TClient = {
  id: '5d0c8f0e-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@navy.example',
  companyName: 'Navy',
  companyDomain: 'navy.example',
  linkedinUrl: 'https://www.linkedin.com/in/grace',
  contactOwner: null,
  tag: null,
  source: 'manual',
  mapNetwork: true,
  trackJobChanges: true,
  detailedClientData: {
    clientFullName: 'Grace Hopper',
    clientImage: null,
    clientCompanyName: 'Navy',
    clientCompanyImage: null,
  },
  engagement: 'MET',
  proximity: 80,
};

describe('the add-client form', () => {
  it('starts empty, or from the row with an empty contact owner and tag', () => {
    expect(Object.values(clientFormDefaults(null)).every((value) => value === '')).toBe(true);
    expect(clientFormDefaults(ally)).toMatchObject({ firstName: 'Grace', contactOwner: '', tag: '' });
  });

  it('counts the six required fields as empty when they hold only spaces', () => {
    expect(allRequiredEmpty(clientFormDefaults(null))).toBe(true);
    expect(allRequiredEmpty({ ...clientFormDefaults(null), firstName: '  ', tag: 'Ally' })).toBe(true);
    expect(allRequiredEmpty({ ...clientFormDefaults(null), companyDomain: 'a.io' })).toBe(false);
  });

  it('creates with the flags of the list it was opened for, and updates keeping the flags', () => {
    const fields = ZClientFields.parse({ ...clientFormDefaults(ally), tag: ' ', contactOwner: '' });
    expect(fields.tag).toBeUndefined();
    expect(fields.contactOwner).toBeUndefined();
    expect(toClientRequest(fields, null, 'MAP_NETWORK')).toMatchObject({ mapNetwork: true, trackJobChanges: false });
    expect(toClientRequest(fields, null, 'TRACK_JOB_CHANGES')).toMatchObject({
      mapNetwork: false,
      trackJobChanges: true,
    });
    expect(toClientRequest(fields, { ...ally, mapNetwork: false }, 'TRACK_JOB_CHANGES')).toMatchObject({
      id: ally.id,
      mapNetwork: false,
      trackJobChanges: true,
    });
  });
});
