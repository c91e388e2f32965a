import { z } from 'zod';

/** One person of an ally's LinkedIn connections who works at one of the workspace's accounts. */
export const ZAllyMatch = z.object({
  fullName: z.string(),
  profileUrl: z.string(),
  company: z.string().nullable(),
  position: z.string().nullable(),
});
export type TAllyMatch = z.infer<typeof ZAllyMatch>;

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

/** `POST /public/ally-share/confirm`: the matches the ally keeps (by profile address). */
export const ZAllyConfirm = z.object({
  matchToken: z.string().min(10).max(2_000_000),
  keep: z.array(z.string().max(500)).max(30_000),
});
export type TAllyConfirm = z.infer<typeof ZAllyConfirm>;

/** `GET /clients/query/shared-connections/{id}`: what an ally shared, for the admin. */
export const ZAllySharedConnections = z.object({ rows: z.array(ZAllyMatch) });
export type TAllySharedConnections = z.infer<typeof ZAllySharedConnections>;
