// Enumerations named by the specification (sections 3, 4 and 9).

export const ROLES = ['admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const ONBOARDING_STEPS = ['SIGNUP_DONE', 'EXTERNALS_DONE', 'ACCOUNTS_IMPORT_DONE'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const ENGAGEMENTS = ['NEVER_MET', 'TOUCHED', 'MET'] as const;
export type Engagement = (typeof ENGAGEMENTS)[number];
export const ENGAGEMENT_LABELS: Record<Engagement, string> = { MET: 'Met', TOUCHED: 'Touched', NEVER_MET: 'Not met' };

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
