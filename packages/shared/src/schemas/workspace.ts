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
});
export type TWorkspace = z.infer<typeof ZWorkspace>;

/** `PUT /workspace/command/update`: the web app sends the full object; name, domains and the join flag change. */
export const ZWorkspaceUpdate = z.object({
  name: z.string().trim().min(1, VALIDATION.companyNameRequired),
  domains: z
    .array(ZDomain)
    .min(1, VALIDATION.domainRequired)
    .max(DOMAIN_TAG_LIMITS.workspace, VALIDATION.maxTags(DOMAIN_TAG_LIMITS.workspace)),
  allowDomainJoin: z.boolean(),
});
export type TWorkspaceUpdate = z.infer<typeof ZWorkspaceUpdate>;
