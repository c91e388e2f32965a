import { z } from 'zod';
import { DOMAIN_TAG_LIMITS } from '../constants.ts';
import { ONBOARDING_STEPS, ROLES } from '../enums.ts';
import { VALIDATION } from '../messages.ts';

export const ZRole = z.enum(ROLES);
export const ZOnboardingStep = z.enum(ONBOARDING_STEPS);

/** The signed-in user, as `GET /users/query/me` returns it (spec section 3, User (me)). */
export const ZMe = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  role: ZRole,
  workspaceId: z.uuid(),
  hasCompletedOnboarding: z.boolean(),
  onboardingStep: ZOnboardingStep,
  isGoogleConnected: z.boolean(),
  /** Not in the spec: which Google account is connected (My Account shows it), null when none is. */
  googleAccountEmail: z.string().nullable(),
  isLinkedinConnected: z.boolean(),
  isHubspotConnected: z.boolean(),
  isSlackConnected: z.boolean(),
  isWebhookConnected: z.boolean(),
  webhookUrl: z.string().nullable(),
  isTargetedAccountsSet: z.boolean(),
});
export type TMe = z.infer<typeof ZMe>;

const requiredText = (message: string) => z.string().trim().min(1, message);

/** A domain as typed in a tag input: lower-cased, no scheme, no path, dotted labels. */
export const ZDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(DOMAIN_TAG_LIMITS.tagLength)
  .regex(/^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/, 'Domain must look like example.com');

export const ZCheckDomainRequest = z.object({
  firstName: requiredText(VALIDATION.firstNameRequired),
  lastName: requiredText(VALIDATION.lastNameRequired),
  email: z.email(VALIDATION.emailInvalid),
});
export type TCheckDomainRequest = z.infer<typeof ZCheckDomainRequest>;

export const ZCheckDomainResponse = z.object({
  domain: z.string(),
  /** False for free e-mail providers and domains outside the operator's allow-list. */
  isWhitelisted: z.boolean(),
  /** A workspace that lets anyone of this domain join, if one exists. */
  joinableWorkspace: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type TCheckDomainResponse = z.infer<typeof ZCheckDomainResponse>;

/** The registration payload of spec section 3. */
export const ZRegistration = z.object({
  idpId: z.string().min(1),
  firstName: requiredText(VALIDATION.firstNameRequired),
  lastName: requiredText(VALIDATION.lastNameRequired),
  email: z.email(VALIDATION.emailInvalid),
  workspaceName: requiredText(VALIDATION.companyNameRequired),
  workspaceDomains: z
    .array(ZDomain)
    .min(1, VALIDATION.domainRequired)
    .max(DOMAIN_TAG_LIMITS.signUp, VALIDATION.maxTags(DOMAIN_TAG_LIMITS.signUp)),
  allowDomainJoin: z.boolean().default(false),
});
export type TRegistration = z.infer<typeof ZRegistration>;

/** The My Account panel's name fields (spec section 5: no validation beyond being text). */
export const ZUpdateMe = z.object({ firstName: z.string().trim().max(100), lastName: z.string().trim().max(100) });
export type TUpdateMe = z.infer<typeof ZUpdateMe>;

/** The result of uploading LinkedIn's `Connections.csv` or `Positions.csv`. */
export const ZLinkedinImportResult = z.object({
  imported: z.number().int(),
  /** The first lines not imported (LINKEDIN_UPLOAD.listedRejections at most), with why. */
  rejected: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  /** How many lines were not imported in all. */
  rejectedCount: z.number().int(),
});
export type TLinkedinImportResult = z.infer<typeof ZLinkedinImportResult>;

/** `POST /google/authenticate?redirectUrl=`: where the browser goes to grant access. */
export const ZGoogleAuthenticateQuery = z.object({ redirectUrl: z.string().max(2000).optional() });
export const ZGoogleAuthenticateResponse = z.object({ url: z.string() });

/** A long job's progress and outcome (`GET /google/query/sync-status`). */
export const ZSyncRun = z.object({
  id: z.uuid(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  phase: z.string().nullable(),
  processed: z.number().int(),
  total: z.number().int().nullable(),
  counts: z.record(z.string(), z.number()).nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type TSyncRun = z.infer<typeof ZSyncRun>;

/** Spec section 3, Suggestion (invite modal). */
export const ZSuggestion = z.object({ name: z.string(), email: z.string() });
export type TSuggestion = z.infer<typeof ZSuggestion>;

/** An e-mail of the member's that has not left yet after a failed attempt, or that failed for good. */
export const ZUndeliveredEmail = z.object({
  id: z.uuid(),
  purpose: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  status: z.enum(['pending', 'drafted', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type TUndeliveredEmail = z.infer<typeof ZUndeliveredEmail>;

/**
 * What teammates see of a member's evidence (issue 22): 'all' (who, through which channels, how
 * strongly), 'strength' (who and the band only) or 'private' (nothing; never offered as a connector).
 */
export const SHARING_LEVELS = ['all', 'strength', 'private'] as const;
export const ZSharingLevel = z.enum(SHARING_LEVELS);
export type TSharingLevel = z.infer<typeof ZSharingLevel>;
export const SHARING_LEVEL_LABELS: Record<TSharingLevel, string> = {
  all: 'Share all',
  strength: 'Share strength only',
  private: 'Private',
};

/** A blocklist entry: an e-mail address or a whole domain, lower case. */
export const ZBlocklistEntry = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .regex(
    /^([^\s@]+@)?(?!-)[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/,
    'Enter an e-mail address (name@example.com) or a domain (example.com)',
  );

/** My Account › Privacy: the member's settings, as they change them. */
export const ZUpdatePrivacy = z.object({
  sharingLevel: ZSharingLevel,
  /** False: 'Don't ask me for intros'. */
  acceptsIntros: z.boolean(),
  /** Intro requests the member takes per week; null follows the workspace's cap. */
  weeklyIntroCap: z.number().int().min(1).max(100).nullable(),
});
export type TUpdatePrivacy = z.infer<typeof ZUpdatePrivacy>;

export const ZPrivacy = ZUpdatePrivacy.extend({
  /** The workspace's weekly cap, which a null `weeklyIntroCap` follows. */
  workspaceWeeklyIntroCap: z.number().int(),
  blocklist: z.array(z.string()),
});
export type TPrivacy = z.infer<typeof ZPrivacy>;

export const ZBlocklistChange = z.object({ entry: ZBlocklistEntry });
export type TBlocklistChange = z.infer<typeof ZBlocklistChange>;
