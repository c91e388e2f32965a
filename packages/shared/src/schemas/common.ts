import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';

export const ZIdParams = z.object({ id: z.uuid() });

/** Where an OAuth provider (Google, Slack) sends the browser back: a code, or an error, and our signed state. */
export const ZOAuthCallbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
});

export const ZHealth = z.object({ status: z.literal('ok'), database: z.literal('ok') });

/** What the web app needs before it can sign anybody in (served unauthenticated). */
export const ZPublicConfig = z.object({
  oidc: z.object({
    authority: z.string(),
    clientId: z.string(),
    audience: z.string(),
    /** Query parameters some providers need on the authorize request (Auth0's `audience`). */
    extraQueryParams: z.record(z.string(), z.string()),
  }),
  demoCalendarUrl: z.string(),
  posthogKey: z.string().nullable(),
});
export type TPublicConfig = z.infer<typeof ZPublicConfig>;

/**
 * The body of every error response: one code the client can branch on, one message it can show.
 * The code is the catalogue's enumeration, so the contract (and the OpenAPI document) says exactly
 * what a client may meet; a client reading a code it does not know yet still shows the message.
 * Beside the other schemas rather than the codes: the web app needs the codes first, not zod.
 */
export const ZError = z.object({ code: z.enum(ERROR_CODES), message: z.string() });
export type TError = z.infer<typeof ZError>;
