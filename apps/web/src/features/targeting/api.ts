import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MESSAGES,
  type TOptionPage,
  type TPersona,
  type TPersonaInput,
  type TTargetingScheme,
  type TTargetingSchemeInput,
  targetingApi,
} from '@warmpath/shared';
import { callApi } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.tsx';
import { userKeys } from '../users/api.ts';

/** The two option lists served by pages of 100: technologies and specific industries. */
export type OptionListKind = 'technologies' | 'specificIndustries';

const OPTION_LISTS = {
  technologies: targetingApi.listTechnologies,
  specificIndustries: targetingApi.listSpecificIndustries,
} as const satisfies Record<OptionListKind, unknown>;

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
  return callApi(targetingApi.getTargetingScheme, { signal });
}

export function useTargetingScheme(enabled: boolean) {
  return useQuery({ queryKey: targetingKeys.scheme(), queryFn: ({ signal }) => fetchTargetingScheme(signal), enabled });
}

/** The targeting scheme of the admin who sent an invitation (null when they saved none), for the invitee to start from. */
export function fetchAdminTargetingScheme(inviteId: string, signal?: AbortSignal): Promise<TTargetingScheme | null> {
  return callApi(targetingApi.getAdminTargetingScheme, { query: { inviteId }, signal });
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
  return callApi(targetingApi.setTargetingScheme, { body });
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
  return callApi(OPTION_LISTS[kind], { query: { page, searchTerm: searchTerm.trim() }, signal });
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
  return callApi(targetingApi.listPersonas, { signal });
}

export function usePersonas() {
  return useQuery({ queryKey: targetingKeys.personas(), queryFn: ({ signal }) => fetchPersonas(signal) });
}

export function createPersona(body: TPersonaInput): Promise<TPersona> {
  return callApi(targetingApi.createPersona, { body });
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
  return callApi(targetingApi.deletePersona, { params: { id } });
}

export function useDeletePersona() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePersona,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetingKeys.personas() }),
    onError: (error) => toast.error(error.message),
  });
}
