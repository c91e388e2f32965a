import {
  ASSIGNED_TO_FILTER,
  EMPTY_STATE,
  NETWORK_FILTER_FIELDS,
  NETWORK_TOGGLE_FILTERS,
  type NetworkFilterField,
  type NetworkToggleFilter,
  type TFilterItem,
} from '@warmpath/shared';

// The network filters of spec section 4, as pure functions. A field's values are [] for all, the
// single EMPTY_STATE for none, or the chosen option keys.

/** The 'All' entry of every field's list. Never an option key: keys come from the API, which has no NUL. */
export const ALL_OPTION = '\u0000all';

/** The filters that clear the field filters and exclude each other. */
export const EXCLUSIVE_FILTERS = ['idealCustomerProfile', 'personas', 'myAccounts'] as const;
export type ExclusiveFilter = (typeof EXCLUSIVE_FILTERS)[number];

export type FieldValues = Record<NetworkFilterField, readonly string[]>;

export type NetworkFilterState = {
  fields: FieldValues;
  toggles: Record<NetworkToggleFilter, boolean>;
  /** Prospects at accounts assigned to these users; cleared by my-accounts. */
  assignedTo: readonly string[];
};

const allFields = (): FieldValues => ({
  companyName: [],
  companySize: [],
  industry: [],
  jobDepartment: [],
  personName: [],
  proximity: [],
  connector: [],
  engagement: [],
  signal: [],
});

/** Nothing filtered: every field all, every toggle off. */
export function initialFilterState(): NetworkFilterState {
  return {
    fields: allFields(),
    toggles: { idealCustomerProfile: false, personas: false, myAccounts: false, externalOnly: false },
    assignedTo: [],
  };
}

/** Whether an option counts as chosen: every option is while the field is all. */
export function isOptionChosen(selected: readonly string[], key: string): boolean {
  if (key === ALL_OPTION) return selected.length === 0;
  return selected.length === 0 || selected.includes(key);
}

/**
 * The field's values after picking `picked`, given the keys of all its options (the 'All' entry aside):
 * 'All' toggles between all and none; from none, the pick alone; from all, every other option;
 * picking the one option missing gives all again; otherwise the pick is added or removed, and
 * removing the last one leaves none (not all).
 */
export function toggleOption(selected: readonly string[], picked: string, optionKeys: readonly string[]): string[] {
  const keys = optionKeys.filter((key) => key !== ALL_OPTION && key !== EMPTY_STATE);
  if (picked === ALL_OPTION) return selected.length === 0 ? [EMPTY_STATE] : [];
  if (selected.length === 0) {
    const others = keys.filter((key) => key !== picked);
    return others.length === 0 ? [EMPTY_STATE] : others;
  }
  const current = selected.filter((key) => key !== EMPTY_STATE);
  if (current.includes(picked)) {
    const rest = current.filter((key) => key !== picked);
    return rest.length === 0 ? [EMPTY_STATE] : rest;
  }
  const next = [...current, picked];
  return keys.length > 0 && keys.every((key) => next.includes(key)) ? [] : next;
}

/** A field's new values; the other filters stay as they are. */
export function withFieldValues(
  state: NetworkFilterState,
  field: NetworkFilterField,
  values: readonly string[],
): NetworkFilterState {
  return { ...state, fields: { ...state.fields, [field]: values } };
}

/**
 * Turns an exclusive filter on or off. On, it clears the field filters and turns the other two off;
 * my-accounts also clears the assigned-accounts filter.
 */
export function withExclusiveFilter(state: NetworkFilterState, name: ExclusiveFilter, on: boolean): NetworkFilterState {
  if (!on) return { ...state, toggles: { ...state.toggles, [name]: false } };
  return {
    fields: allFields(),
    toggles: {
      idealCustomerProfile: false,
      personas: false,
      myAccounts: false,
      [name]: true,
      externalOnly: state.toggles.externalOnly,
    },
    assignedTo: name === 'myAccounts' ? [] : state.assignedTo,
  };
}

/** The connectors' external-only toggle: only allies outside the workspace. */
export function withExternalOnly(state: NetworkFilterState, on: boolean): NetworkFilterState {
  return { ...state, toggles: { ...state.toggles, externalOnly: on } };
}

const TRUE = 'true';

/** The request's filter list: fields that are not all, toggles that are on (as 'true'), assignees if any. */
export function toFilterItems(state: NetworkFilterState): TFilterItem[] {
  const fields: TFilterItem[] = NETWORK_FILTER_FIELDS.filter((field) => state.fields[field].length > 0).map(
    (field) => ({ name: field, values: [...state.fields[field]] }),
  );
  const toggles: TFilterItem[] = NETWORK_TOGGLE_FILTERS.filter((name) => state.toggles[name]).map((name) => ({
    name,
    values: [TRUE],
  }));
  const assigned: TFilterItem[] =
    state.assignedTo.length > 0 ? [{ name: ASSIGNED_TO_FILTER, values: [...state.assignedTo] }] : [];
  return [...fields, ...toggles, ...assigned];
}
