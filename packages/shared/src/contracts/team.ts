import { z } from 'zod';
import { ZIdParams } from '../schemas/common.ts';
import {
  ZAcceptInvitation,
  ZChangeRole,
  ZInviteInfo,
  ZInviteTeammatesRequest,
  ZInviteTeammatesResponse,
  ZSearchQuery,
  ZTeammate,
} from '../schemas/team.ts';
import { ZMe } from '../schemas/users.ts';
import { defineRoutes, noContent } from './define-route.ts';

/** Teammates, roles and invitations. */
export const teamApi = defineRoutes('team', {
  listTeammates: {
    method: 'GET',
    path: '/users/query',
    summary: "The workspace's users and pending invitees, optionally matching a search",
    access: 'read',
    query: ZSearchQuery,
    responses: { 200: z.array(ZTeammate) },
  },
  changeRole: {
    method: 'PUT',
    path: '/users/command/change-role/:id',
    summary: "Changes a teammate's role",
    access: 'admin',
    params: ZIdParams,
    body: ZChangeRole,
    responses: { 200: ZTeammate },
    errors: { 404: 'No teammate with this id', 409: 'The workspace would be left without an admin' },
  },
  removeTeammate: {
    method: 'DELETE',
    path: '/users/command/delete/:id',
    summary: 'Removes a teammate or revokes an invitation',
    access: 'admin',
    params: ZIdParams,
    responses: { 204: noContent },
    errors: { 404: 'No teammate with this id', 409: 'The workspace would be left without an admin' },
  },
  inviteTeammates: {
    method: 'POST',
    path: '/teammates/invite',
    summary: 'Invites people to the workspace by e-mail, each with a role',
    access: 'admin',
    body: ZInviteTeammatesRequest,
    responses: { 200: ZInviteTeammatesResponse },
    errors: { 409: 'Some of the people already belong to the workspace' },
  },
  getInvitation: {
    method: 'GET',
    path: '/teammates/query/invited-user-teammates/:id',
    summary: "An invitation, for the invitee's registration screen",
    description: 'The invitee is signed in but belongs to no workspace yet.',
    access: 'identity',
    params: ZIdParams,
    responses: { 200: ZInviteInfo },
    errors: { 403: 'Signed in with another address than the invited one', 404: 'No invitation with this id' },
  },
  acceptInvitation: {
    method: 'POST',
    path: '/teammates/accept-invitation',
    summary: 'Registers the signed-in person as the invited user',
    access: 'identity',
    body: ZAcceptInvitation,
    responses: { 200: ZMe },
    errors: {
      404: 'No invitation with this id',
      409: 'The invitation was used, or the account already belongs to a workspace',
      410: 'The invitation has expired',
    },
  },
});
