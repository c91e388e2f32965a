import { useMutation, useQuery } from '@tanstack/react-query';
import { demoApi } from '@warmpath/shared';
import { callApi } from '../../lib/api.ts';
import { switchWorkspace } from '../../lib/demoMode.ts';
import { PATHS } from '../../lib/paths.ts';
import { toast } from '../../lib/toasts.tsx';

export const demoKeys = { status: () => ['demo', 'status'] as const };

export function useDemoStatus() {
  return useQuery({ queryKey: demoKeys.status(), queryFn: () => callApi(demoApi.getDemo) });
}

/** Creates the member's demo workspace if need be (a few seconds), then opens it in this tab. */
export function useOpenDemo() {
  return useMutation({
    mutationFn: () => callApi(demoApi.openDemo),
    onSuccess: () => switchWorkspace('demo', PATHS.network),
    onError: (error) => toast.error(error.message),
  });
}

/** Deletes the demo workspace and brings this tab back to the member's own. */
export function useRemoveDemo() {
  return useMutation({
    mutationFn: () => callApi(demoApi.removeDemo),
    onSuccess: () => switchWorkspace('own', '/'),
    onError: (error) => toast.error(error.message),
  });
}
