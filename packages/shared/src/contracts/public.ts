import { z } from 'zod';
import {
  ZAllyConfirm,
  ZAllyGoogleMatchesRef,
  ZAllyGoogleStart,
  ZAllyMatches,
  ZAllyShare,
  ZAllyShareQuery,
} from '../schemas/allies.ts';
import { ZHealth, ZOAuthCallbackQuery, ZPublicConfig } from '../schemas/common.ts';
import { ZCountry } from '../schemas/targeting.ts';
import { ZTrackBatch } from '../schemas/tracking.ts';
import { defineRoutes, fileAnswer, redirect, upload } from './define-route.ts';

/** What answers without a token. */
export const publicApi = defineRoutes('public', {
  getHealth: {
    method: 'GET',
    path: '/health',
    summary: 'Whether the API and its database answer',
    access: 'public',
    responses: { 200: ZHealth },
  },
  listCountries: {
    method: 'GET',
    path: '/public/countries',
    summary: 'Every country, with its flag and ISO 3166-1 alpha-2 code',
    access: 'public',
    responses: { 200: z.array(ZCountry) },
  },
  getPublicConfig: {
    method: 'GET',
    path: '/public/config',
    summary: 'What the web app needs before it can sign anybody in',
    access: 'public',
    responses: { 200: ZPublicConfig },
  },
  track: {
    method: 'POST',
    path: '/public/track',
    summary: "Page views and identifications from a workspace's website snippet",
    description:
      "Sent by the snippet with navigator.sendBeacon (text/plain or application/json, a JSON body of at most 64 KB). The key must be a workspace's and the Origin one of its sites (the answer then allows that origin). Answers 202 once stored; known bots and crawlers get 202 with nothing accepted; rate-limited per key (events) and per address (requests), with Retry-After.",
    access: 'public',
    body: ZTrackBatch,
    responses: { 202: z.object({ accepted: z.number().int() }) },
    errors: {
      403: 'Unknown key, or an Origin that is not one of its sites',
      413: 'A body over 64 KB',
      429: 'Too many events for this key or requests from this address',
    },
  },
  getSnippet: {
    method: 'GET',
    path: '/public/snippet.js',
    summary: 'The website snippet that sends page views to /public/track',
    description:
      'Installed with <script async src=".../api/public/snippet.js" data-key="<key>"></script>. Cached an hour (then revalidated with its ETag); gzipped when the browser accepts it.',
    access: 'public',
    responses: { 200: fileAnswer('text/javascript', 'The snippet (JavaScript)') },
  },
  getAllyShare: {
    method: 'GET',
    path: '/public/ally-share',
    summary: "An ally's share page: who asks, what will be shared and what was",
    access: 'public',
    query: ZAllyShareQuery,
    responses: { 200: ZAllyShare },
    errors: { 404: 'The link no longer exists' },
  },
  matchAllyConnections: {
    method: 'POST',
    path: '/public/ally-share/match',
    summary: "Matches an ally's LinkedIn Connections.csv against the workspace's accounts; stores nothing",
    access: 'public',
    query: ZAllyShareQuery,
    body: upload({ mediaType: 'text/csv', file: "LinkedIn's Connections.csv" }),
    responses: { 200: ZAllyMatches },
    errors: { 422: 'The file cannot be read as LinkedIn connections' },
  },
  startAllyGoogleConnection: {
    method: 'POST',
    path: '/public/ally-share/google',
    summary: "Where the ally's browser goes to let the matching read their Google contacts and mail headers once",
    description:
      'Read-only scopes (contacts, mail headers, calendar events), online access only: the token is used once at the callback and dropped. Sets an HttpOnly cookie that binds the consent to this browser.',
    access: 'public',
    query: ZAllyShareQuery,
    responses: { 200: ZAllyGoogleStart },
    errors: { 404: 'The link no longer exists' },
  },
  finishAllyGoogleConnection: {
    method: 'GET',
    path: '/public/ally-share/google/callback',
    summary: "Google's OAuth redirect for an ally: matches their contacts and correspondents, stores only the matches",
    description:
      "Google sends the browser here: the signed state names the share link. Reads the address book, mail headers and meetings with the one-time token, keeps the people at the workspace's accounts for 15 minutes (nothing else), and redirects to the share page with `fromGoogle=<ref>` (or `fromGoogle=denied` / `other-browser` / `failed`; not `google`, which the app reads as a member's own connection).",
    access: 'public',
    query: ZOAuthCallbackQuery,
    responses: { 302: redirect('Back to the share page') },
  },
  getAllyGoogleMatches: {
    method: 'POST',
    path: '/public/ally-share/google/matches',
    summary: "The matches of the ally's Google account, once: the reference is deleted as it is read",
    access: 'public',
    query: ZAllyShareQuery,
    body: ZAllyGoogleMatchesRef,
    responses: { 200: ZAllyMatches },
    errors: { 404: 'The reference was read already or has expired' },
  },
  confirmAllyConnections: {
    method: 'POST',
    path: '/public/ally-share/confirm',
    summary: 'Keeps the matches the ally chose, as their connections',
    access: 'public',
    query: ZAllyShareQuery,
    body: ZAllyConfirm,
    responses: { 200: ZAllyShare },
  },
  withdrawAllyConnections: {
    method: 'POST',
    path: '/public/ally-share/withdraw',
    summary: 'Removes everything the ally shared through this link',
    access: 'public',
    query: ZAllyShareQuery,
    responses: { 200: ZAllyShare },
  },
});
