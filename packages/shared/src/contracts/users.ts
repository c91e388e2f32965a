import { ZAdvanceOnboarding } from '../schemas/targeting.ts';
import { ZCheckDomainRequest, ZCheckDomainResponse, ZMe, ZRegistration, ZUpdateMe } from '../schemas/users.ts';
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
