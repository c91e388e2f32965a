import { EMPTY_STATE } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import {
  ALL_OPTION,
  initialFilterState,
  isOptionChosen,
  type NetworkFilterState,
  toFilterItems,
  toggleOption,
  withExclusiveFilter,
  withExternalOnly,
  withFieldValues,
} from './filterToggle.ts';

const keys = ['acme', 'globex', 'initech', 'umbrella'];

describe('toggleOption', () => {
  it("toggles 'All' between all ([]) and none", () => {
    expect(toggleOption([], ALL_OPTION, keys)).toEqual([EMPTY_STATE]);
    expect(toggleOption([EMPTY_STATE], ALL_OPTION, keys)).toEqual([]);
  });

  it("selects every option again when 'All' is picked with some chosen", () => {
    expect(toggleOption(['acme', 'globex'], ALL_OPTION, keys)).toEqual([]);
  });

  it('from none, picking an option selects only it', () => {
    expect(toggleOption([EMPTY_STATE], 'globex', keys)).toEqual(['globex']);
  });

  it('from all, picking an option selects all the others', () => {
    expect(toggleOption([], 'globex', keys)).toEqual(['acme', 'initech', 'umbrella']);
  });

  it("leaves the 'All' entry and the none marker out of the others", () => {
    expect(toggleOption([], 'acme', [ALL_OPTION, EMPTY_STATE, ...keys])).toEqual(['globex', 'initech', 'umbrella']);
  });

  it('when all but one are selected, picking the missing one clears to all', () => {
    expect(toggleOption(['acme', 'globex', 'umbrella'], 'initech', keys)).toEqual([]);
  });

  it('otherwise adds a new pick, in the order picked', () => {
    expect(toggleOption(['umbrella'], 'acme', keys)).toEqual(['umbrella', 'acme']);
  });

  it('otherwise removes a chosen pick', () => {
    expect(toggleOption(['acme', 'globex'], 'acme', keys)).toEqual(['globex']);
  });

  it('removing the last chosen option leaves none, not all', () => {
    expect(toggleOption(['acme'], 'acme', keys)).toEqual([EMPTY_STATE]);
  });

  it('with a single option, picking it from all leaves none and from none gives all', () => {
    expect(toggleOption([], 'acme', ['acme'])).toEqual([EMPTY_STATE]);
    expect(toggleOption([EMPTY_STATE], 'acme', ['acme'])).toEqual([]);
  });

  it('keeps a pick the loaded options lack (found by search) rather than clearing to all', () => {
    expect(toggleOption(['acme'], 'hooli', keys)).toEqual(['acme', 'hooli']);
    expect(toggleOption([EMPTY_STATE], 'hooli', [])).toEqual(['hooli']);
  });

  it('walks back and forth through the states as a user would click', () => {
    let selected: string[] = [];
    selected = toggleOption(selected, 'acme', keys);
    expect(selected).toEqual(['globex', 'initech', 'umbrella']);
    selected = toggleOption(selected, 'acme', keys);
    expect(selected).toEqual([]);
    selected = toggleOption(selected, ALL_OPTION, keys);
    expect(selected).toEqual([EMPTY_STATE]);
    selected = toggleOption(selected, 'initech', keys);
    expect(selected).toEqual(['initech']);
    selected = toggleOption(selected, ALL_OPTION, keys);
    expect(selected).toEqual([]);
  });
});

describe('isOptionChosen', () => {
  it('counts every option chosen while the field is all, none while it is none', () => {
    expect(isOptionChosen([], 'acme')).toBe(true);
    expect(isOptionChosen([], ALL_OPTION)).toBe(true);
    expect(isOptionChosen([EMPTY_STATE], 'acme')).toBe(false);
    expect(isOptionChosen([EMPTY_STATE], ALL_OPTION)).toBe(false);
    expect(isOptionChosen(['acme'], 'acme')).toBe(true);
    expect(isOptionChosen(['acme'], 'globex')).toBe(false);
    expect(isOptionChosen(['acme'], ALL_OPTION)).toBe(false);
  });
});

describe('exclusive filters', () => {
  const filtered: NetworkFilterState = {
    ...withExternalOnly(withFieldValues(initialFilterState(), 'companyName', ['acme']), true),
    assignedTo: ['user-1'],
  };

  it('ideal customer profile clears the field filters and turns personas and my accounts off', () => {
    const withPersonas = withExclusiveFilter(filtered, 'personas', true);
    const state = withExclusiveFilter(
      withFieldValues(withPersonas, 'industry', ['Retail']),
      'idealCustomerProfile',
      true,
    );
    expect(state.fields.companyName).toEqual([]);
    expect(state.fields.industry).toEqual([]);
    expect(state.toggles).toEqual({
      idealCustomerProfile: true,
      personas: false,
      myAccounts: false,
      externalOnly: true,
    });
    expect(state.assignedTo).toEqual(['user-1']);
  });

  it('personas turns the ideal customer profile off', () => {
    const state = withExclusiveFilter(withExclusiveFilter(filtered, 'idealCustomerProfile', true), 'personas', true);
    expect(state.toggles.idealCustomerProfile).toBe(false);
    expect(state.toggles.personas).toBe(true);
  });

  it('my accounts also clears the assigned-accounts filter', () => {
    const state = withExclusiveFilter(withExclusiveFilter(filtered, 'personas', true), 'myAccounts', true);
    expect(state.toggles).toEqual({
      idealCustomerProfile: false,
      personas: false,
      myAccounts: true,
      externalOnly: true,
    });
    expect(state.assignedTo).toEqual([]);
    expect(state.fields.companyName).toEqual([]);
  });

  it('turning one off changes nothing else', () => {
    const on = withFieldValues(withExclusiveFilter(filtered, 'myAccounts', true), 'signal', ['PAST_CLIENT']);
    const off = withExclusiveFilter(on, 'myAccounts', false);
    expect(off.toggles.myAccounts).toBe(false);
    expect(off.fields.signal).toEqual(['PAST_CLIENT']);
  });
});

describe('toFilterItems', () => {
  it('sends nothing when nothing is filtered', () => {
    expect(toFilterItems(initialFilterState())).toEqual([]);
  });

  it('sends fields that are not all (none included), toggles that are on as true, and assignees', () => {
    let state = withFieldValues(initialFilterState(), 'signal', ['PAST_CLIENT']);
    state = withFieldValues(state, 'proximity', [EMPTY_STATE]);
    state = withExclusiveFilter(state, 'personas', true);
    state = withFieldValues(state, 'companyName', ['acme', 'globex']);
    state = withExternalOnly(state, true);
    state = { ...state, assignedTo: ['user-1'] };
    expect(toFilterItems(state)).toEqual([
      { name: 'companyName', values: ['acme', 'globex'] },
      { name: 'personas', values: ['true'] },
      { name: 'externalOnly', values: ['true'] },
      { name: 'assignedTo', values: ['user-1'] },
    ]);
    expect(toFilterItems(withExternalOnly(state, false)).map((item) => item.name)).not.toContain('externalOnly');
  });
});
