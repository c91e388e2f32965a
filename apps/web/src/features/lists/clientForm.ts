import type { TClient, TClientFields, TClientFieldsInput, TClientFormInput } from '@warmpath/shared';
import { CLIENT_LIST_FLAGS, type ClientList } from './api.ts';

/** The add-client form's values: every field as typed. */
export type ClientFormValues = TClientFieldsInput;

/** The six fields the form requires (spec section 5). */
export const REQUIRED_CLIENT_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'companyName',
  'companyDomain',
  'linkedinUrl',
] as const satisfies readonly (keyof ClientFormValues)[];

/** Who the client is: fixed once created, so disabled when editing. */
export const IDENTITY_FIELDS: ReadonlySet<keyof ClientFormValues> = new Set([
  'firstName',
  'lastName',
  'email',
  'linkedinUrl',
]);

/** An empty form, or the row being edited (contact owner and tag default to an empty string). */
export function clientFormDefaults(client: TClient | null): Required<ClientFormValues> {
  return {
    firstName: client?.firstName ?? '',
    lastName: client?.lastName ?? '',
    email: client?.email ?? '',
    companyName: client?.companyName ?? '',
    companyDomain: client?.companyDomain ?? '',
    linkedinUrl: client?.linkedinUrl ?? '',
    contactOwner: client?.contactOwner ?? '',
    tag: client?.tag ?? '',
  };
}

/** Submit stays disabled while all six required fields are empty. */
export function allRequiredEmpty(values: Partial<ClientFormValues>): boolean {
  return REQUIRED_CLIENT_FIELDS.every((field) => (values[field] ?? '').trim() === '');
}

/**
 * The request: a create takes its flags from the list the form was opened for; an update keeps the
 * client's own (spec section 4). Empty tag and contact owner are already absent in `fields`.
 */
export function toClientRequest(fields: TClientFields, editing: TClient | null, list: ClientList): TClientFormInput {
  if (!editing) return { ...fields, ...CLIENT_LIST_FLAGS[list] };
  return {
    ...fields,
    id: editing.id,
    mapNetwork: editing.mapNetwork,
    trackJobChanges: editing.trackJobChanges,
  };
}
