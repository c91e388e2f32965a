import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { publicApi, type TAllyConfirm, type TCountry, type TPublicConfig } from '@warmpath/shared';
import { callApi, uploadToApi } from '../../lib/api.ts';
import { leaveTo } from '../../lib/browser.ts';

export const publicKeys = {
  all: ['public'] as const,
  config: () => [...publicKeys.all, 'config'] as const,
  countries: () => [...publicKeys.all, 'countries'] as const,
};

export function fetchPublicConfig(): Promise<TPublicConfig> {
  return callApi(publicApi.getPublicConfig);
}

/** The identity provider's settings and the demo calendar; fixed for the life of the page. */
export function usePublicConfig() {
  return useQuery({ queryKey: publicKeys.config(), queryFn: fetchPublicConfig, staleTime: Number.POSITIVE_INFINITY });
}

/** The countries a targeting scheme can name, sorted by name. */
export function fetchCountries(signal?: AbortSignal): Promise<TCountry[]> {
  return callApi(publicApi.listCountries, { signal });
}

export function useCountries() {
  return useQuery({
    queryKey: publicKeys.countries(),
    queryFn: ({ signal }) => fetchCountries(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

// An ally's share page (issue 22): no account, the signed link in every call ------------------------------

export const allyShareKeys = {
  page: (token: string) => [...publicKeys.all, 'ally-share', token] as const,
  googleMatches: (token: string, ref: string) => [...allyShareKeys.page(token), 'google', ref] as const,
};

export function useAllyShare(token: string) {
  return useQuery({
    queryKey: allyShareKeys.page(token),
    queryFn: ({ signal }) => callApi(publicApi.getAllyShare, { query: { token }, signal, preferServerMessage: true }),
    retry: false,
  });
}

/** Sends the file to be matched; nothing of it is stored until the ally confirms. */
export function useMatchAllyConnections(token: string) {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return uploadToApi(publicApi.matchAllyConnections, { query: { token }, body, preferServerMessage: true });
    },
  });
}

export function useConfirmAllyConnections(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAllyConfirm) =>
      callApi(publicApi.confirmAllyConnections, { query: { token }, body, preferServerMessage: true }),
    onSuccess: (share) => queryClient.setQueryData(allyShareKeys.page(token), share),
  });
}

export function useWithdrawAllyConnections(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(publicApi.withdrawAllyConnections, { query: { token }, preferServerMessage: true }),
    onSuccess: (share) => queryClient.setQueryData(allyShareKeys.page(token), share),
  });
}

/** Where the browser goes for the ally's one-time, read-only Google consent. */
export function useStartAllyGoogle(token: string) {
  return useMutation({
    mutationFn: () => callApi(publicApi.startAllyGoogleConnection, { query: { token }, preferServerMessage: true }),
    onSuccess: ({ url }) => leaveTo(url),
  });
}

/**
 * The matches the Google callback held for this page. The reference can be read once, so this is a query
 * that is never refetched (one call however often the page renders).
 */
export function useAllyGoogleMatches(token: string, ref: string | null) {
  return useQuery({
    queryKey: allyShareKeys.googleMatches(token, ref ?? ''),
    // No abort signal: a read cancelled after the server answered would have spent the reference.
    queryFn: () =>
      callApi(publicApi.getAllyGoogleMatches, {
        query: { token },
        body: { ref: ref ?? '' },
        preferServerMessage: true,
      }),
    enabled: ref !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
