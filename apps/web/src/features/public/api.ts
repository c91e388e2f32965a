import { useQuery } from '@tanstack/react-query';
import { type TPublicConfig, ZPublicConfig } from '@warmpath/shared';
import { apiRequest } from '../../lib/api.ts';

export const publicKeys = {
  all: ['public'] as const,
  config: () => [...publicKeys.all, 'config'] as const,
};

export function fetchPublicConfig(): Promise<TPublicConfig> {
  return apiRequest({ path: '/public/config', schema: ZPublicConfig });
}

/** The identity provider's settings and the demo calendar; fixed for the life of the page. */
export function usePublicConfig() {
  return useQuery({ queryKey: publicKeys.config(), queryFn: fetchPublicConfig, staleTime: Number.POSITIVE_INFINITY });
}
