import { ZAdvanceOnboarding } from '../schemas/targeting.ts';
import {
  ZBlocklistChange,
  ZCheckDomainRequest,
  ZCheckDomainResponse,
  ZMe,
  ZPrivacy,
  ZRegistration,
  ZUpdateMe,
  ZUpdatePrivacy,
} from '../schemas/users.ts';
import { defineRoutes } from './define-route.ts';

/** The signed-in user: who they are, registration, onboarding progress. */
export const usersApi = defineRoutes('users', {
  getMe: {
    method: 'GET',
    path: '/users/query/me',
    summary: 'The signed-in user',
    description: 'A signed-in person who has not registered yet gets 404: the web app then starts sign-up.',
    access: 'identity',
    responses: { 200: ZMe },
    errors: { 403: 'NOT_REGISTERED: the signed-in person has not registered yet' },
  },
  updateMe: {
    method: 'PUT',
    path: '/users/command/update-me',
    summary: "Changes the signed-in user's names",
    access: 'self',
    body: ZUpdateMe,
    responses: { 200: ZMe },
  },
  getPrivacy: {
    method: 'GET',
    path: '/users/query/privacy',
    summary: "The signed-in member's privacy settings (My Account › Privacy)",
    access: 'self',
    responses: { 200: ZPrivacy },
  },
  updatePrivacy: {
    method: 'PUT',
    path: '/users/command/update-privacy',
    summary: "Changes the member's sharing level, intro opt-out and weekly cap",
    description: "Teammates' network rows follow once the graph has rolled them up again (seconds).",
    access: 'self',
    body: ZUpdatePrivacy,
    responses: { 200: ZPrivacy },
  },
  blockContact: {
    method: 'POST',
    path: '/users/command/block-contact',
    summary: "Adds an address or domain to the member's blocklist",
    description:
      "Nothing about it is synced from the member's accounts any more, and what was kept from them about it is erased.",
    access: 'self',
    body: ZBlocklistChange,
    responses: { 200: ZPrivacy },
  },
  unblockContact: {
    method: 'POST',
    path: '/users/command/unblock-contact',
    summary: "Removes an address or domain from the member's blocklist (the next sync brings it back)",
    access: 'self',
    body: ZBlocklistChange,
    responses: { 200: ZPrivacy },
  },
  advanceOnboarding: {
    method: 'POST',
    path: '/users/command/advance-onboarding',
    summary: "Moves the signed-in user's onboarding forward (never back)",
    access: 'self',
    body: ZAdvanceOnboarding,
    responses: { 200: ZMe },
  },
  checkDomain: {
    method: 'POST',
    path: '/users/command/check-domain',
    summary: "Whether the e-mail's domain may register a workspace, and a workspace it may join",
    access: 'identity',
    body: ZCheckDomainRequest,
    responses: { 200: ZCheckDomainResponse },
  },
  createWorkspaceAdmin: {
    method: 'POST',
    path: '/users/command/create-workspace-admin',
    summary: 'Registers the signed-in person as the admin of a new workspace',
    access: 'identity',
    body: ZRegistration,
    responses: { 201: ZMe },
    errors: { 409: 'The account is already registered, or a domain belongs to another workspace' },
  },
});
