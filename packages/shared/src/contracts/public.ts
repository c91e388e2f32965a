import { z } from 'zod';
import { ZHealth, ZPublicConfig } from '../schemas/common.ts';
import { ZCountry } from '../schemas/targeting.ts';
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
});
