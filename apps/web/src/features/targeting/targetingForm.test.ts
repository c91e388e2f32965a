import type { TCountry, TTargetingScheme } from '@warmpath/shared';
import { describe, expect, it } from 'vitest';
import {
  addCustomJobTitle,
  CUSTOM_JOB_TITLE_MAX_LENGTH,
  canSubmitTargeting,
  countryCodesByName,
  mergeOptionPages,
  missingChoicesSentence,
  missingTargetingChoices,
  targetingFormDefaults,
  toTargetingPayload,
  withAdminScheme,
  withChosen,
} from './targetingForm.ts';

const countries: TCountry[] = [
  { name: 'France', flag: '🇫🇷', countryCode: 'FR' },
  { name: 'Germany', flag: '🇩🇪', countryCode: 'DE' },
  { name: 'Italy', flag: '🇮🇹', countryCode: 'IT' },
  { name: 'Spain', flag: '🇪🇸', countryCode: 'ES' },
  { name: 'Ukraine', flag: '🇺🇦', countryCode: 'UA' },
  { name: 'United Kingdom', flag: '🇬🇧', countryCode: 'GB' },
];

const required = {
  countries: ['FR'],
  companySize: ['11 - 50'],
  companyType: ['BtoB'],
  jobDepartments: ['Sales'],
} as const;

describe('canSubmitTargeting', () => {
  it('needs a country, a company size, a company type and a job department', () => {
    expect(canSubmitTargeting(required)).toBe(true);
    expect(canSubmitTargeting({ ...required, countries: [] })).toBe(false);
    expect(canSubmitTargeting({ ...required, companySize: [] })).toBe(false);
    expect(canSubmitTargeting({ ...required, companyType: [] })).toBe(false);
    expect(canSubmitTargeting({ ...required, jobDepartments: [] })).toBe(false);
    expect(canSubmitTargeting({ countries: [], companySize: [], companyType: [], jobDepartments: [] })).toBe(false);
  });

  it('says which choices are missing, in the form order', () => {
    expect(missingTargetingChoices(required)).toEqual([]);
    const missing = missingTargetingChoices({ ...required, companySize: [], jobDepartments: [] });
    expect(missingChoicesSentence(missing, 'continue')).toBe('Choose a company size and a job department to continue.');
    const all = missingTargetingChoices({ countries: [], companySize: [], companyType: [], jobDepartments: [] });
    expect(missingChoicesSentence(all, 'save')).toBe(
      'Choose a country, a company size, a company type and a job department to save.',
    );
    expect(missingChoicesSentence(['a country'], 'continue')).toBe('Choose a country to continue.');
  });
});

describe('addCustomJobTitle', () => {
  it('adds the title trimmed', () => {
    expect(addCustomJobTitle([], '  Head of Sales ')).toEqual(['Head of Sales']);
  });

  it('ignores an empty title and a duplicate, case aside, returning the same list', () => {
    const titles = ['Head of Sales'];
    expect(addCustomJobTitle(titles, '   ')).toBe(titles);
    expect(addCustomJobTitle(titles, 'Head of Sales')).toBe(titles);
    expect(addCustomJobTitle(titles, ' head of sales ')).toBe(titles);
  });

  it('keeps adding beyond the tag limits, up to the contract length of a title', () => {
    const many = Array.from({ length: 60 }, (_, index) => `Title ${index}`);
    expect(addCustomJobTitle(many, 'CRO')).toHaveLength(61);
    expect(addCustomJobTitle([], 'x'.repeat(CUSTOM_JOB_TITLE_MAX_LENGTH + 1))).toEqual([]);
  });
});

describe('targetingFormDefaults', () => {
  it('pre-selects the onboarding countries by name, in the onboarding order', () => {
    expect(targetingFormDefaults('onboarding', null, countries).countries).toEqual(['FR', 'GB', 'DE', 'ES', 'UA']);
  });

  it("pre-selects the company's own country when its domain names one the list has", () => {
    expect(targetingFormDefaults('onboarding', null, countries, 'acme.de').countries).toEqual(['DE']);
    expect(targetingFormDefaults('settings', null, countries, 'shop.acme.co.uk').countries).toEqual(['GB']);
    expect(targetingFormDefaults('onboarding', null, countries, 'acme.it').countries).toEqual(['IT']);
    // Generic or unknown endings leave the spec's defaults.
    expect(targetingFormDefaults('onboarding', null, countries, 'acme.io').countries).toEqual([
      'FR',
      'GB',
      'DE',
      'ES',
      'UA',
    ]);
    expect(targetingFormDefaults('onboarding', null, countries, 'acme.com').countries).toEqual([
      'FR',
      'GB',
      'DE',
      'ES',
      'UA',
    ]);
    expect(targetingFormDefaults('onboarding', null, countries, 'acme.jp').countries).toEqual([
      'FR',
      'GB',
      'DE',
      'ES',
      'UA',
    ]);
  });

  it('pre-selects the default countries on the tab when nothing is saved', () => {
    const defaults = targetingFormDefaults('settings', null, countries);
    expect(defaults.countries).toEqual(['FR', 'UA', 'DE', 'GB', 'ES']);
    expect(defaults.companySize).toEqual([]);
    expect(defaults.technologies).toEqual([]);
  });

  it('starts from the saved scheme when there is one', () => {
    const saved: TTargetingScheme = {
      countries: ['IT'],
      companySize: ['10000+'],
      companyType: ['BtoC'],
      jobDepartments: ['Legal'],
      industries: ['Retail'],
      seniorities: ['Junior'],
      customJobTitles: ['CRO'],
      selectedCustomJobTitles: ['CRO'],
      competitorDomainsToExclude: ['rival.example'],
      technologies: [{ name: 'React', value: 'react' }],
      specificIndustries: ['Fintech'],
    };
    expect(targetingFormDefaults('settings', saved, countries)).toEqual(saved);
  });

  it('leaves out default countries the list lacks', () => {
    expect(countryCodesByName(countries, ['Spain', 'Atlantis', 'France'])).toEqual(['ES', 'FR']);
  });
});

describe('withAdminScheme', () => {
  it("takes the admin's countries, sizes, types, industries, departments, technologies and specific industries only", () => {
    const admin: TTargetingScheme = {
      countries: ['IT'],
      companySize: ['10000+'],
      companyType: ['BtoC'],
      jobDepartments: ['Legal'],
      industries: ['Retail'],
      seniorities: ['Junior'],
      customJobTitles: ['CRO'],
      selectedCustomJobTitles: ['CRO'],
      competitorDomainsToExclude: ['rival.example'],
      technologies: [{ name: 'React', value: 'react' }],
      specificIndustries: ['Fintech'],
    };
    const defaults = targetingFormDefaults('onboarding', null, countries);
    expect(withAdminScheme(defaults, admin)).toEqual({
      ...defaults,
      countries: ['IT'],
      companySize: ['10000+'],
      companyType: ['BtoC'],
      jobDepartments: ['Legal'],
      industries: ['Retail'],
      technologies: [{ name: 'React', value: 'react' }],
      specificIndustries: ['Fintech'],
    });
  });
});

describe('toTargetingPayload', () => {
  it('targets every custom job title shown', () => {
    const values = targetingFormDefaults('settings', null, countries);
    const payload = toTargetingPayload({
      ...values,
      customJobTitles: ['CRO', 'VP Sales'],
      selectedCustomJobTitles: [],
    });
    expect(payload.selectedCustomJobTitles).toEqual(['CRO', 'VP Sales']);
  });
});

describe('withChosen', () => {
  it('keeps a chosen value missing from the list, after the list', () => {
    expect(withChosen(['Sales', 'Tech'], ['Operations', 'Tech'])).toEqual(['Sales', 'Tech', 'Operations']);
    expect(withChosen(['Sales', 'Tech'], [])).toEqual(['Sales', 'Tech']);
  });
});

describe('mergeOptionPages', () => {
  it('adds each page to the options, each option once', () => {
    const first = { options: [{ name: 'React', value: 'react' }], hasMore: true, total: 3 };
    const second = {
      options: [
        { name: 'React', value: 'react' },
        { name: 'Vue', value: 'vue' },
        { name: 'Svelte', value: 'svelte' },
      ],
      hasMore: false,
      total: 3,
    };
    expect(mergeOptionPages([first, second]).map((option) => option.value)).toEqual(['react', 'vue', 'svelte']);
  });
});
