import { z } from 'zod';

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
