import { z } from 'zod';

/**
 * One person an ally knows who works at one of the workspace's accounts: from their LinkedIn connections
 * (a profile address) or their Google account (an e-mail address).
 */
export const ZAllyMatch = z.object({
  fullName: z.string(),
  profileUrl: z.string().nullable(),
  email: z.string().nullable(),
  company: z.string().nullable(),
  position: z.string().nullable(),
});
export type TAllyMatch = z.infer<typeof ZAllyMatch>;

/** What names a match in a confirmation's `keep`: its profile address, else its e-mail address. */
export const allyMatchKey = (match: Pick<TAllyMatch, 'profileUrl' | 'email'>) => match.profileUrl ?? match.email ?? '';

/** `POST /clients/command/send-share-link/{id}`: the link went by e-mail from the admin's Google account. */
export const ZAllyShareSent = z.object({ sentTo: z.string(), expiresAt: z.iso.datetime({ offset: true }) });
export type TAllyShareSent = z.infer<typeof ZAllyShareSent>;

/** The share link's token, in the query of every public ally route. */
export const ZAllyShareQuery = z.object({ token: z.string().min(10).max(4000) });

/** `GET /public/ally-share`: what the ally's page shows. */
export const ZAllyShare = z.object({
  workspaceName: z.string(),
  allyName: z.string(),
  senderName: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
  status: z.enum(['open', 'confirmed', 'withdrawn']),
  /** What the ally confirmed (empty before, and after a withdrawal). */
  shared: z.array(ZAllyMatch),
});
export type TAllyShare = z.infer<typeof ZAllyShare>;

/**
 * `POST /public/ally-share/match`: the matches of an uploaded file, nothing stored yet; `matchToken`
 * signs them, so the confirmation can only keep people that were matched here.
 */
export const ZAllyMatches = z.object({
  matches: z.array(ZAllyMatch),
  scanned: z.number().int(),
  matchToken: z.string(),
});
export type TAllyMatches = z.infer<typeof ZAllyMatches>;

/** `POST /public/ally-share/confirm`: the matches the ally keeps (by `allyMatchKey`). */
export const ZAllyConfirm = z.object({
  matchToken: z.string().min(10).max(2_000_000),
  keep: z.array(z.string().max(500)).max(30_000),
});
export type TAllyConfirm = z.infer<typeof ZAllyConfirm>;

/** `GET /clients/query/shared-connections/{id}`: what an ally shared, for the admin. */
export const ZAllySharedConnections = z.object({ rows: z.array(ZAllyMatch) });
export type TAllySharedConnections = z.infer<typeof ZAllySharedConnections>;

/** `POST /public/ally-share/google`: where the ally's browser goes to grant read-only access. */
export const ZAllyGoogleStart = z.object({ url: z.string() });
export type TAllyGoogleStart = z.infer<typeof ZAllyGoogleStart>;

/**
 * `POST /public/ally-share/google/matches`: the reference the Google callback put in the share page's
 * address (`?fromGoogle=<ref>`); it can be read once, within 15 minutes.
 */
export const ZAllyGoogleMatchesRef = z.object({ ref: z.uuid() });
export type TAllyGoogleMatchesRef = z.infer<typeof ZAllyGoogleMatchesRef>;
