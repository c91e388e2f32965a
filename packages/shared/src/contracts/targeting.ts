import { z } from 'zod';
import { ZIdParams } from '../schemas/common.ts';
import { ZOptionPage, ZOptionPageQuery, ZPersona, ZPersonaInput, ZTargetingScheme } from '../schemas/targeting.ts';
import { ZAdminTargetingSchemesQuery } from '../schemas/team.ts';
import { defineRoutes, noContent } from './define-route.ts';

/** Targeting schemes and personas: they belong to the user (the spec files them under /users). */
export const targetingApi = defineRoutes('targeting', {
  setTargetingScheme: {
    method: 'POST',
    path: '/users/command/set-targeted-accounts-preferences',
    summary: "Saves the signed-in user's targeting scheme",
    access: 'self',
    body: ZTargetingScheme,
    responses: { 200: ZTargetingScheme },
  },
  getTargetingScheme: {
    method: 'GET',
    path: '/users/query/get-targeting-schemes',
    summary: "The signed-in user's targeting scheme, or null before one is set",
    access: 'read',
    responses: { 200: ZTargetingScheme.nullable() },
  },
  getAdminTargetingScheme: {
    method: 'GET',
    path: '/users/query/admin-targeting-schemes',
    summary: "The inviting admin's targeting scheme, to pre-fill an invitee's, or null",
    access: 'read',
    query: ZAdminTargetingSchemesQuery,
    responses: { 200: ZTargetingScheme.nullable() },
    errors: { 404: 'No invitation with this id' },
  },
  listTechnologies: {
    method: 'GET',
    path: '/users/query/technologies-list',
    summary: 'A page of the technologies a scheme may target, optionally matching a search',
    access: 'read',
    query: ZOptionPageQuery,
    responses: { 200: ZOptionPage },
  },
  listSpecificIndustries: {
    method: 'GET',
    path: '/users/query/specific-industries-options',
    summary: 'A page of the specific industries (NAICS) a scheme may target, optionally matching a search',
    access: 'read',
    query: ZOptionPageQuery,
    responses: { 200: ZOptionPage },
  },
  createPersona: {
    method: 'POST',
    path: '/users/command/create-persona',
    summary: 'Adds a persona to the signed-in user',
    access: 'self',
    body: ZPersonaInput,
    responses: { 201: ZPersona },
  },
  listPersonas: {
    method: 'GET',
    path: '/users/query/get-personas',
    summary: "The signed-in user's personas",
    access: 'read',
    responses: { 200: z.array(ZPersona) },
  },
  deletePersona: {
    method: 'DELETE',
    path: '/users/command/delete-persona/:id',
    summary: 'Deletes one of the signed-in user’s personas',
    access: 'self',
    params: ZIdParams,
    responses: { 204: noContent },
    errors: { 404: 'No persona with this id' },
  },
});
