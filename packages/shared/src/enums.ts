import { fieldOf } from './registry.ts';

// Enumerations named by the specification (sections 3, 4 and 9).

export const ROLES = ['admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const ONBOARDING_STEPS = ['SIGNUP_DONE', 'EXTERNALS_DONE', 'ACCOUNTS_IMPORT_DONE'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/**
 * A prospect's engagement (DESIGN.md section 7), weakest first (the display order), with the code
 * network rows store it as (`engagement`, smallint): pinned for good, as stored rows keep it. Codes
 * grow with strength, since the roll-up keeps a prospect's strongest as the `max` of its codes: a
 * stronger engagement takes a higher, new code.
 */
export const ENGAGEMENT_DEFINITIONS = [
  { engagement: 'NEVER_MET', code: 0, label: 'Not met' },
  { engagement: 'TOUCHED', code: 1, label: 'Touched' },
  { engagement: 'MET', code: 2, label: 'Met' },
] as const;
export const ENGAGEMENTS = fieldOf(ENGAGEMENT_DEFINITIONS, 'engagement');
export type Engagement = (typeof ENGAGEMENTS)[number];
export const ENGAGEMENT_LABELS = Object.fromEntries(
  ENGAGEMENT_DEFINITIONS.map((entry) => [entry.engagement, entry.label]),
) as Record<Engagement, string>;
const CODES = Object.fromEntries(ENGAGEMENT_DEFINITIONS.map((entry) => [entry.engagement, entry.code])) as Record<
  Engagement,
  number
>;
/** The code an engagement is stored as. */
export const engagementCode = (engagement: Engagement) => CODES[engagement];
/** The engagement a stored code means; one no entry has (never written) reads as NEVER_MET. */
export const engagementOfCode = (code: number): Engagement =>
  ENGAGEMENT_DEFINITIONS.find((entry) => entry.code === code)?.engagement ?? 'NEVER_MET';
/** Every stored code is below this one (the in-memory copy's tallies have this many). */
export const ENGAGEMENT_CODE_LIMIT = Math.max(...ENGAGEMENT_DEFINITIONS.map((entry) => entry.code)) + 1;

export const CONNECTION_SOURCES = [
  'GOOGLE_MEETING',
  'GOOGLE_MAIL',
  'SHARED_EXPERIENCE',
  'LINKEDIN_CONNECTION',
] as const;
export type ConnectionSource = (typeof CONNECTION_SOURCES)[number];

export const ACTION_TYPES = ['DIRECT_MESSAGE', 'ask-intro'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const WORKFLOW_ENGAGEMENTS = ['PUSH_TO_SLACK', 'PUSH_TO_HUBSPOT', 'PUSH_TO_CRM', 'PUSH_TO_WEBHOOK'] as const;
export type WorkflowEngagement = (typeof WORKFLOW_ENGAGEMENTS)[number];

export const TEAMMATE_STATUSES = ['Activated', 'Invited', 'Accepted', 'Joined'] as const;
export type TeammateStatus = (typeof TEAMMATE_STATUSES)[number];

export const REGISTRATION_PROCESSES = ['admin-registration', 'member-registration'] as const;
export type RegistrationProcess = (typeof REGISTRATION_PROCESSES)[number];
