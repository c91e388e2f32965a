import { useQuery } from '@tanstack/react-query';
import { publicApi, type TCountry, type TPublicConfig } from '@warmpath/shared';
import { callApi } from '../../lib/api.ts';

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
