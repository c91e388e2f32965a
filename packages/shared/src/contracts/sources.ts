import { z } from 'zod';
import { LINKEDIN_UPLOAD } from '../constants.ts';
import { ZIdParams, ZOAuthCallbackQuery } from '../schemas/common.ts';
import {
  ZGoogleAuthenticateQuery,
  ZGoogleAuthenticateResponse,
  ZLinkedinImportResult,
  ZSuggestion,
  ZSyncRun,
  ZUndeliveredEmail,
} from '../schemas/users.ts';
import { defineRoutes, noContent, redirect, upload } from './define-route.ts';

/** Where the network comes from: the member's Google account (sync) and LinkedIn export. */
export const sourcesApi = defineRoutes('sources', {
  startGoogleConnection: {
    method: 'POST',
    path: '/google/authenticate',
    summary: "Where the browser goes to grant access to the member's Google account",
    access: 'self',
    query: ZGoogleAuthenticateQuery,
    responses: { 200: ZGoogleAuthenticateResponse },
  },
  finishGoogleConnection: {
    method: 'GET',
    path: '/public/google/callback',
    summary: "Google's OAuth redirect: records the connection and starts its first sync",
    description: 'Google sends the browser here, without our bearer token: the signed state says who it is.',
    access: 'public',
    query: ZOAuthCallbackQuery,
    responses: { 302: redirect('Back to the web app, on the page the connection started from') },
  },
  requestGoogleSync: {
    method: 'POST',
    path: '/google/command/sync',
    summary: "Queues a sync of the member's Google account (or returns the one under way)",
    access: 'self',
    responses: { 200: ZSyncRun },
  },
  getGoogleSyncStatus: {
    method: 'GET',
    path: '/google/query/sync-status',
    summary: "The member's latest Google sync, or null before the first",
    access: 'read',
    responses: { 200: ZSyncRun.nullable() },
  },
  listUndeliveredEmails: {
    method: 'GET',
    path: '/google/query/undelivered-emails',
    summary: "The member's e-mails that have not left yet after a failed attempt, or failed for good",
    access: 'read',
    responses: { 200: z.array(ZUndeliveredEmail) },
  },
  retryEmail: {
    method: 'POST',
    path: '/google/command/retry-email/:id',
    summary: 'Sends a failed e-mail again',
    access: 'self',
    params: ZIdParams,
    responses: { 204: noContent },
    errors: { 404: 'No failed e-mail with this id' },
  },
  listSuggestedTeammates: {
    method: 'GET',
    path: '/google/query/suggested-teammates',
    summary: "Colleagues from the member's mail to suggest in the invite panel",
    access: 'read',
    responses: { 200: z.array(ZSuggestion) },
  },
  uploadLinkedinConnections: {
    method: 'POST',
    path: '/linkedin/command/upload-connections',
    summary: "Imports the Connections.csv of the member's LinkedIn data export",
    access: 'self',
    body: upload({
      mediaType: 'text/csv',
      file: `LinkedIn's Connections.csv (up to ${LINKEDIN_UPLOAD.connectionsMaxBytes} bytes)`,
    }),
    responses: { 200: ZLinkedinImportResult },
    errors: {
      413: `The file is larger than ${LINKEDIN_UPLOAD.connectionsMaxBytes} bytes`,
      422: 'The file cannot be read as LinkedIn connections',
    },
  },
  uploadLinkedinPositions: {
    method: 'POST',
    path: '/linkedin/command/upload-positions',
    summary: "Imports the member's own work history: the Positions.csv of their full LinkedIn data export",
    access: 'self',
    body: upload({
      mediaType: 'text/csv',
      file: `LinkedIn's Positions.csv (up to ${LINKEDIN_UPLOAD.positionsMaxBytes} bytes)`,
    }),
    responses: { 200: ZLinkedinImportResult },
    errors: {
      413: `The file is larger than ${LINKEDIN_UPLOAD.positionsMaxBytes} bytes`,
      422: 'The file cannot be read as LinkedIn positions',
    },
  },
});
