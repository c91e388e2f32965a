import { useQuery } from '@tanstack/react-query';
import { GATEWAY_ERRORS, workflowsApi } from '@warmpath/shared';
import { callApi } from '../../lib/api.ts';

export const workflowKeys = {
  all: ['workflows'] as const,
  list: () => [...workflowKeys.all, 'list'] as const,
  runs: (id: string) => [...workflowKeys.all, 'runs', id] as const,
};

/** The workspace's workflows (spec section 7: GET /workflows/query); the detail page reads its one from here. */
export function useWorkflows() {
  return useQuery({
    queryKey: workflowKeys.list(),
    queryFn: ({ signal }) =>
      callApi(workflowsApi.listWorkflows, { signal, errorMessage: GATEWAY_ERRORS.fetchWorkflows }),
  });
}

export function useWorkflowRuns(id: string, enabled: boolean) {
  return useQuery({
    queryKey: workflowKeys.runs(id),
    queryFn: ({ signal }) => callApi(workflowsApi.listWorkflowRuns, { params: { id }, signal }),
    enabled,
  });
}
