import {
  DEFAULT_COUNTRIES,
  ONBOARDING_DEFAULT_COUNTRIES,
  type TCountry,
  type TOption,
  type TOptionPage,
  type TTargetingScheme,
  type TTargetingSchemeInput,
  untargetedScheme,
} from '@warmpath/shared';
import { addTag } from '../../components/addTag.ts';

/** Where the targeting form is shown: the onboarding step or the Target Accounts tab. */
export type TargetingContext = 'onboarding' | 'settings';

type RequiredChoices = Record<'countries' | 'companySize' | 'companyType' | 'jobDepartments', readonly unknown[]>;

const REQUIRED_CHOICES: readonly [keyof RequiredChoices, string][] = [
  ['countries', 'a country'],
  ['companySize', 'a company size'],
  ['companyType', 'a company type'],
  ['jobDepartments', 'a job department'],
];

/** Spec section 5: Continue (or Save) needs a country, a company size, a company type and a job department. */
export function missingTargetingChoices(values: RequiredChoices): string[] {
  return REQUIRED_CHOICES.filter(([field]) => values[field].length === 0).map(([, choice]) => choice);
}

export function canSubmitTargeting(values: RequiredChoices): boolean {
  return missingTargetingChoices(values).length === 0;
}

/** Why Continue is disabled, shown beside it: 'Choose a company size and a job department to continue.' */
export function missingChoicesSentence(missing: readonly string[], verb: string): string {
  const list = missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : (missing[0] ?? '');
  return `Choose ${list} to ${verb}.`;
}

/** The longest custom job title the targeting and persona contracts accept. */
export const CUSTOM_JOB_TITLE_MAX_LENGTH = 200;

/** A typed custom job title joins the list trimmed and once (case aside); an empty one is ignored. */
export function addCustomJobTitle(titles: readonly string[], typed: string): readonly string[] {
  return addTag(titles, typed, { max: Number.POSITIVE_INFINITY, maxLength: CUSTOM_JOB_TITLE_MAX_LENGTH });
}

/** The codes of the named countries, in the order of the names; names the list lacks are left out. */
export function countryCodesByName(countries: readonly TCountry[], names: readonly string[]): string[] {
  const codes = new Map(countries.map((country) => [country.name, country.countryCode]));
  return names.flatMap((name) => {
    const code = codes.get(name);
    return code === undefined ? [] : [code];
  });
}

/** Country-code endings that companies everywhere use as generic names (.io, .co, .ai, ...): they say nothing of a country. */
const GENERIC_COUNTRY_DOMAINS = new Set(['ai', 'cc', 'co', 'fm', 'gg', 'io', 'ly', 'me', 'sh', 'so', 'to', 'tv', 'ws']);

/** The country a company's own domain names (`.fr`, `.de`, `.co.uk`), when the list has it; else null. */
export function countryOfDomain(domain: string, countries: readonly TCountry[]): string | null {
  const ending = domain.toLowerCase().split('.').at(-1) ?? '';
  if (ending.length !== 2 || GENERIC_COUNTRY_DOMAINS.has(ending)) return null;
  const code = ending === 'uk' ? 'GB' : ending.toUpperCase();
  return countries.some((country) => country.countryCode === code) ? code : null;
}

/**
 * What the form starts with: the saved scheme when there is one, else nothing chosen but the
 * countries: the company's own where its domain says it, else the spec's defaults (in the onboarding
 * order on the onboarding step).
 */
export function targetingFormDefaults(
  context: TargetingContext,
  saved: TTargetingScheme | null,
  countries: readonly TCountry[],
  companyDomain: string | null = null,
): TTargetingSchemeInput {
  if (saved) return saved;
  const own = companyDomain ? countryOfDomain(companyDomain, countries) : null;
  if (own) return { ...untargetedScheme(), countries: [own] };
  const defaultCountries = context === 'onboarding' ? ONBOARDING_DEFAULT_COUNTRIES : DEFAULT_COUNTRIES;
  return { ...untargetedScheme(), countries: countryCodesByName(countries, defaultCountries) };
}

/** Every custom job title the form shows is one the user targets. */
export function toTargetingPayload(values: TTargetingScheme): TTargetingScheme {
  return { ...values, selectedCustomJobTitles: values.customJobTitles };
}

/** The listed options, then any chosen value the list lacks (saved under another list), so it can be unticked. */
export function withChosen<T extends string>(options: readonly T[], chosen: readonly T[]): T[] {
  return [...options, ...chosen.filter((value) => !options.includes(value))];
}

/** The options of all pages fetched so far, each once, in the order served. */
export function mergeOptionPages(pages: readonly TOptionPage[]): TOption[] {
  const byValue = new Map<string, TOption>();
  for (const page of pages) {
    for (const option of page.options) if (!byValue.has(option.value)) byValue.set(option.value, option);
  }
  return [...byValue.values()];
}

/**
 * An invitee's form starts from the inviting admin's scheme (spec section 4): countries, sizes, types,
 * industries, departments, technologies and specific industries; the rest stays the invitee's own.
 */
export function withAdminScheme(defaults: TTargetingSchemeInput, admin: TTargetingScheme): TTargetingSchemeInput {
  return {
    ...defaults,
    countries: admin.countries,
    companySize: admin.companySize,
    companyType: admin.companyType,
    industries: admin.industries,
    jobDepartments: admin.jobDepartments,
    technologies: admin.technologies,
    specificIndustries: admin.specificIndustries,
  };
}
