import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GATEWAY_ERRORS, MESSAGES, type TWorkspace, type TWorkspaceUpdate, workspaceApi } from '@warmpath/shared';
import { toast } from 'react-toastify';
import { callApi } from '../../lib/api.ts';

export const workspaceKeys = {
  all: ['workspace'] as const,
  current: () => [...workspaceKeys.all, 'current'] as const,
};

export function fetchWorkspace(signal?: AbortSignal): Promise<TWorkspace> {
  return callApi(workspaceApi.getWorkspace, { errorMessage: GATEWAY_ERRORS.fetchWorkspace, signal });
}

export function useWorkspace() {
  return useQuery({ queryKey: workspaceKeys.current(), queryFn: ({ signal }) => fetchWorkspace(signal) });
}

export function updateWorkspace(body: TWorkspaceUpdate): Promise<TWorkspace> {
  return callApi(workspaceApi.updateWorkspace, {
    body,
    errorMessage: GATEWAY_ERRORS.updateWorkspace,
    preferServerMessage: true,
  });
}

export function useUpdateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWorkspace,
    onSuccess: (workspace) => {
      toast.success(MESSAGES.workspaceUpdated);
      queryClient.setQueryData(workspaceKeys.current(), workspace);
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.all });
    },
    onError: (error) => toast.error(error.message),
  });
}
