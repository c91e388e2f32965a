import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  MESSAGES,
  type TTrackingSettingsUpdate,
  type TWorkspace,
  type TWorkspaceUpdate,
  workspaceApi,
} from '@warmpath/shared';
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

// Website tracking -----------------------------------------------------------------------------------

export const trackingKeys = {
  settings: () => [...workspaceKeys.all, 'tracking'] as const,
  events: () => [...workspaceKeys.all, 'tracking', 'events'] as const,
};

/** The live view looks again this often: an admin installing the snippet watches for their first visit. */
const LIVE_VIEW_MS = 5_000;

export function useTracking() {
  return useQuery({
    queryKey: trackingKeys.settings(),
    queryFn: ({ signal }) => callApi(workspaceApi.getTracking, { signal }),
  });
}

export function useSaveTracking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TTrackingSettingsUpdate) =>
      callApi(workspaceApi.setTracking, {
        body,
        errorMessage: GATEWAY_ERRORS.updateWorkspace,
        preferServerMessage: true,
      }),
    onSuccess: (settings) => {
      toast.success('Website tracking saved.');
      queryClient.setQueryData(trackingKeys.settings(), settings);
    },
    onError: (error) => toast.error(error.message),
  });
}

export function useTrackedEvents() {
  return useQuery({
    queryKey: trackingKeys.events(),
    queryFn: ({ signal }) => callApi(workspaceApi.listTrackedEvents, { signal }),
    refetchInterval: LIVE_VIEW_MS,
  });
}
