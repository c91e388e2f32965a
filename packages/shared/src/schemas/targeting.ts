import { z } from 'zod';
import { COMPANY_SIZES, COMPANY_TYPES, DOMAIN_TAG_LIMITS, SENIORITIES } from '../constants.ts';
import { VALIDATION } from '../messages.ts';
import { ZDomain } from './users.ts';

const text = z.string().trim().min(1).max(200);
/** A list whose duplicates are dropped (spec section 5: an item is added once). */
const uniqueList = <T extends z.ZodType<string>>(item: T) => z.array(item).transform((values) => [...new Set(values)]);
const requiredList = <T extends z.ZodType<string>>(item: T, message: string) => z.array(item).min(1, message);

/** A technology or specific industry option: what the list shows and what is stored. */
export const ZOption = z.object({ name: z.string(), value: z.string() });
export type TOption = z.infer<typeof ZOption>;

/**
 * Spec section 3, Targeting scheme. Countries are upper-case ISO 3166-1 alpha-2 codes. No transforms:
 * the same schema validates the request and serialises the response; the server drops duplicates.
 */
export const ZTargetingScheme = z.object({
  countries: requiredList(
    z.string().regex(/^[A-Z]{2}$/, 'Countries are two-letter codes'),
    'Choose at least one country',
  ),
  companySize: requiredList(z.enum(COMPANY_SIZES), 'Choose at least one company size'),
  companyType: requiredList(z.enum(COMPANY_TYPES), 'Choose at least one company type'),
  jobDepartments: requiredList(text, 'Choose at least one job department'),
  industries: z.array(text),
  seniorities: z.array(z.enum(SENIORITIES)),
  customJobTitles: z.array(text),
  selectedCustomJobTitles: z.array(text),
  competitorDomainsToExclude: z
    .array(ZDomain)
    .max(DOMAIN_TAG_LIMITS.exclusions, VALIDATION.maxTags(DOMAIN_TAG_LIMITS.exclusions)),
  technologies: z.array(ZOption),
  specificIndustries: z.array(text),
});
export type TTargetingScheme = z.infer<typeof ZTargetingScheme>;

/** A scheme with nothing chosen yet: what a form starts from, or a scheme is built on. Fresh lists each call. */
export const untargetedScheme = (): TTargetingScheme => ({
  countries: [],
  companySize: [],
  companyType: [],
  jobDepartments: [],
  industries: [],
  seniorities: [],
  customJobTitles: [],
  selectedCustomJobTitles: [],
  competitorDomainsToExclude: [],
  technologies: [],
  specificIndustries: [],
});
export type TTargetingSchemeInput = z.input<typeof ZTargetingScheme>;

/** `GET /users/query/technologies-list` and `/users/query/specific-industries-options`. */
export const ZOptionPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  searchTerm: z.string().trim().max(100).optional(),
});
export const ZOptionPage = z.object({ options: z.array(ZOption), hasMore: z.boolean(), total: z.number().int() });
export type TOptionPage = z.infer<typeof ZOptionPage>;

/** Spec section 3, Country (`GET /api/public/countries`). */
export const ZCountry = z.object({ name: z.string(), flag: z.string(), countryCode: z.string() });
export type TCountry = z.infer<typeof ZCountry>;

/** Spec section 3, Persona. Rule of spec section 5: a name, and custom titles or both departments and seniorities. */
export const ZPersonaInput = z
  .object({
    name: text,
    jobDepartments: uniqueList(text),
    seniorities: uniqueList(z.enum(SENIORITIES)),
    customJobTitles: uniqueList(text),
  })
  .refine(
    (persona) =>
      persona.customJobTitles.length > 0 || (persona.jobDepartments.length > 0 && persona.seniorities.length > 0),
    { message: 'A persona needs custom job titles, or job departments and seniorities' },
  );
export type TPersonaInput = z.input<typeof ZPersonaInput>;
export type TPersonaOutput = z.output<typeof ZPersonaInput>;
export const ZPersona = z.object({
  id: z.uuid(),
  name: z.string(),
  jobDepartments: z.array(z.string()),
  seniorities: z.array(z.string()),
  customJobTitles: z.array(z.string()),
});
export type TPersona = z.infer<typeof ZPersona>;

/** Onboarding moves forward only; COMPLETED sets hasCompletedOnboarding. */
export const ZAdvanceOnboarding = z.object({ step: z.enum(['EXTERNALS_DONE', 'ACCOUNTS_IMPORT_DONE', 'COMPLETED']) });
export type TAdvanceOnboarding = z.infer<typeof ZAdvanceOnboarding>;
