import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MESSAGES,
  type TOptionPage,
  type TPersona,
  type TPersonaInput,
  type TTargetingScheme,
  type TTargetingSchemeInput,
  ZOptionPage,
  ZPersona,
  ZTargetingScheme,
} from '@warmpath/shared';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { apiRequest, withSearchParams } from '../../lib/api.ts';
import { userKeys } from '../users/api.ts';

/** The two option lists served by pages of 100: technologies and specific industries. */
export type OptionListKind = 'technologies' | 'specificIndustries';

const OPTION_LIST_PATHS: Record<OptionListKind, string> = {
  technologies: '/users/query/technologies-list',
  specificIndustries: '/users/query/specific-industries-options',
};

export const targetingKeys = {
  all: ['targeting'] as const,
  scheme: () => [...targetingKeys.all, 'scheme'] as const,
  options: (kind: OptionListKind, searchTerm: string) =>
    [...targetingKeys.all, 'options', kind, { searchTerm }] as const,
  personas: () => [...targetingKeys.all, 'personas'] as const,
  adminScheme: (inviteId: string) => [...targetingKeys.all, 'admin-scheme', { inviteId }] as const,
};

/** The current user's saved targeting scheme, or null before the first save. */
export function fetchTargetingScheme(signal?: AbortSignal): Promise<TTargetingScheme | null> {
  return apiRequest({ path: '/users/query/get-targeting-schemes', schema: ZTargetingScheme.nullable(), signal });
}

export function useTargetingScheme(enabled: boolean) {
  return useQuery({ queryKey: targetingKeys.scheme(), queryFn: ({ signal }) => fetchTargetingScheme(signal), enabled });
}

/** The targeting scheme of the admin who sent an invitation (null when they saved none), for the invitee to start from. */
export function fetchAdminTargetingScheme(inviteId: string, signal?: AbortSignal): Promise<TTargetingScheme | null> {
  return apiRequest({
    path: withSearchParams('/users/query/admin-targeting-schemes', { inviteId }),
    schema: ZTargetingScheme.nullable(),
    signal,
  });
}

/** Fetched only with an invitation to start from. */
export function useAdminTargetingScheme(inviteId: string | null) {
  return useQuery({
    queryKey: targetingKeys.adminScheme(inviteId ?? ''),
    queryFn: ({ signal }) => fetchAdminTargetingScheme(inviteId ?? '', signal),
    enabled: inviteId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function saveTargetingScheme(body: TTargetingSchemeInput): Promise<TTargetingScheme> {
  return apiRequest({
    path: '/users/command/set-targeted-accounts-preferences',
    method: 'POST',
    body,
    schema: ZTargetingScheme,
  });
}

export function useSaveTargetingScheme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTargetingScheme,
    onSuccess: async (scheme) => {
      toast.success(MESSAGES.targetedAccountsUpdated);
      queryClient.setQueryData(targetingKeys.scheme(), scheme);
      // Awaited so that the user's isTargetedAccountsSet is fresh before the caller moves on (and
      // cannot land after, and undo, an onboarding step the caller records next).
      await queryClient.invalidateQueries({ queryKey: userKeys.me() });
    },
    onError: (error) => toast.error(error.message),
  });
}

export function fetchOptionPage(
  kind: OptionListKind,
  page: number,
  searchTerm: string,
  signal?: AbortSignal,
): Promise<TOptionPage> {
  return apiRequest({
    path: withSearchParams(OPTION_LIST_PATHS[kind], { page, searchTerm: searchTerm.trim() }),
    schema: ZOptionPage,
    signal,
  });
}

/** The pages of an option list for a search, fetched once `enabled` (the dropdown was opened). */
export function useOptionPages(kind: OptionListKind, searchTerm: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: targetingKeys.options(kind, searchTerm.trim()),
    queryFn: ({ pageParam, signal }) => fetchOptionPage(kind, pageParam, searchTerm, signal),
    initialPageParam: 1,
    getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPage.hasMore ? lastPageParam + 1 : undefined),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function fetchPersonas(signal?: AbortSignal): Promise<TPersona[]> {
  return apiRequest({ path: '/users/query/get-personas', schema: z.array(ZPersona), signal });
}

export function usePersonas() {
  return useQuery({ queryKey: targetingKeys.personas(), queryFn: ({ signal }) => fetchPersonas(signal) });
}

export function createPersona(body: TPersonaInput): Promise<TPersona> {
  return apiRequest({ path: '/users/command/create-persona', method: 'POST', body, schema: ZPersona });
}

export function useCreatePersona() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPersona,
    onSuccess: () => {
      toast.success(MESSAGES.personaCreated);
      return queryClient.invalidateQueries({ queryKey: targetingKeys.personas() });
    },
    onError: (error) => toast.error(error.message),
  });
}

export function deletePersona(id: string): Promise<null> {
  return apiRequest({
    path: `/users/command/delete-persona/${encodeURIComponent(id)}`,
    method: 'DELETE',
    schema: z.null(),
  });
}

export function useDeletePersona() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePersona,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetingKeys.personas() }),
    onError: (error) => toast.error(error.message),
  });
}
