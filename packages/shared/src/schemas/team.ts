import { z } from 'zod';
import { TEAMMATE_STATUSES } from '../enums.ts';
import { ZRole } from './users.ts';

/** Spec section 3, Teammate: a row of the Users page. */
export const ZTeammate = z.object({
  id: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  role: ZRole,
  status: z.enum(TEAMMATE_STATUSES),
  isLinkedinConnected: z.boolean(),
  isGoogleConnected: z.boolean(),
});
export type TTeammate = z.infer<typeof ZTeammate>;

export const ZSearchQuery = z.object({ searchTerm: z.string().trim().max(200).optional() });

/** `PUT /users/command/change-role/{id}`: the users screen sends the e-mail too. */
export const ZChangeRole = z.object({ role: ZRole, email: z.string().optional() });
export type TChangeRole = z.infer<typeof ZChangeRole>;
