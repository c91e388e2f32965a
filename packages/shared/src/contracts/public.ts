import { z } from 'zod';
import { ZHealth, ZPublicConfig } from '../schemas/common.ts';
import { ZCountry } from '../schemas/targeting.ts';
import { ZTrackBatch } from '../schemas/tracking.ts';
import { defineRoutes } from './define-route.ts';

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
      "Sent by the snippet with navigator.sendBeacon (text/plain or application/json, a JSON body). The key must be a workspace's and the Origin one of its sites. Answers 202 once stored; known bots are dropped; rate-limited per key and per address.",
    access: 'public',
    body: ZTrackBatch,
    responses: { 202: z.object({ accepted: z.number().int() }) },
    errors: { 403: 'Unknown key or origin', 413: 'Too large', 429: 'Too many events' },
  },
});
