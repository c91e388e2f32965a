import { z } from 'zod';
import { DOMAIN_TAG_LIMITS } from '../constants.ts';
import { VALIDATION } from '../messages.ts';
import { ZDomain } from './users.ts';

/** Spec section 3, Workspace. */
export const ZWorkspace = z.object({
  id: z.uuid(),
  name: z.string(),
  domains: z.array(z.string()),
  allowDomainJoin: z.boolean(),
  selectedHubspotExclusionLists: z.array(z.string()),
  activeCrmClientExclusionLists: z.array(z.string()),
  /** Ours: the IANA time zone of the workspace's day (its daily recommendations run at 06:00 there). */
  timeZone: z.string(),
});
export type TWorkspace = z.infer<typeof ZWorkspace>;

/**
 * `PUT /workspace/command/update`: the web app sends the full object; name, domains, the join flag and,
 * when given, the time zone change (the server accepts the zones PostgreSQL knows).
 */
export const ZWorkspaceUpdate = z.object({
  name: z.string().trim().min(1, VALIDATION.companyNameRequired),
  domains: z
    .array(ZDomain)
    .min(1, VALIDATION.domainRequired)
    .max(DOMAIN_TAG_LIMITS.workspace, VALIDATION.maxTags(DOMAIN_TAG_LIMITS.workspace)),
  allowDomainJoin: z.boolean(),
  timeZone: z.string().trim().min(1, VALIDATION.unknownTimeZone).max(100, VALIDATION.unknownTimeZone).optional(),
  /** When given, the HubSpot lists of the CRM customers and of the exclusions (the CRM clients page). */
  selectedHubspotExclusionLists: z.array(z.string().min(1).max(100)).max(50).optional(),
  activeCrmClientExclusionLists: z.array(z.string().min(1).max(100)).max(50).optional(),
});
export type TWorkspaceUpdate = z.infer<typeof ZWorkspaceUpdate>;
