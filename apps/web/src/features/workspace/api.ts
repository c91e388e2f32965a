import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  MESSAGES,
  type TTrackingSettingsUpdate,
  type TWorkspace,
  type TWorkspaceUpdate,
  workspaceApi,
} from '@warmpath/shared';
import { callApi, downloadFromApi } from '../../lib/api.ts';
import { saveFile } from '../../lib/browser.ts';
import { toast } from '../../lib/toasts.tsx';

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

// Audit log and people's rights (issue 22) ------------------------------------------------------------

export const auditKeys = {
  page: (page: number, pageSize: number) => [...workspaceKeys.all, 'audit', page, pageSize] as const,
};

export function useAuditLog(page: number, pageSize: number) {
  return useQuery({
    queryKey: auditKeys.page(page, pageSize),
    queryFn: ({ signal }) => callApi(workspaceApi.listAuditLog, { query: { page, pageSize }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Downloads everything the workspace holds about a person, as JSON or CSV. */
export function useExportPerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, format }: { id: string; name: string; format: 'json' | 'csv' }) => {
      if (format === 'csv') return downloadFromApi(workspaceApi.exportPersonCsv, { params: { id } });
      const data = await callApi(workspaceApi.exportPerson, { params: { id }, preferServerMessage: true });
      return new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
    },
    onSuccess: (file, { name, format }) => {
      saveFile(file, `${name.replace(/[^\p{L}\p{N}]+/gu, '-').toLowerCase() || 'person'}-data.${format}`);
      toast.success('Export downloaded.');
      return queryClient.invalidateQueries({ queryKey: [...workspaceKeys.all, 'audit'] });
    },
    onError: (error) => toast.error(error.message),
  });
}

/** Erases a person; the network is rolled up again on the server before it answers. */
export function useErasePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) =>
      callApi(workspaceApi.erasePerson, { params: { id }, preferServerMessage: true }),
    onSuccess: (_answer, { name }) => {
      toast.success(`${name} was erased.`);
      return queryClient.invalidateQueries();
    },
    onError: (error) => toast.error(error.message),
  });
}
