import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  MESSAGES,
  type TAcceptInvitation,
  type TChangeRole,
  type TInviteInfo,
  type TInviteTeammatesRequest,
  type TInviteTeammatesResponse,
  type TMe,
  type TTeammate,
  teamApi,
} from '@warmpath/shared';
import { callApi } from '../../lib/api.ts';
import { failureToast, toast } from '../../lib/toasts.tsx';
import { googleKeys } from '../sources/api.ts';
import { inviteSuccessMessage } from './inviteDraft.ts';

export const teamKeys = {
  all: ['team'] as const,
  invitation: (inviteId: string) => [...teamKeys.all, 'invitation', inviteId] as const,
  teammates: () => [...teamKeys.all, 'teammates'] as const,
  teammateList: (searchTerm: string) => [...teamKeys.teammates(), { searchTerm }] as const,
};

export function inviteTeammates(body: TInviteTeammatesRequest): Promise<TInviteTeammatesResponse> {
  return callApi(teamApi.inviteTeammates, {
    body,
    errorMessage: GATEWAY_ERRORS.sendInvites,
    preferServerMessage: true,
  });
}

/** Sends the invitations: the spec's toast, then the Users list (pending invitations included) reloads. */
export function useInviteTeammates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteTeammates,
    onSuccess: (_answer, request) => {
      toast.success(inviteSuccessMessage(request.teammates.length));
      void queryClient.invalidateQueries({ queryKey: googleKeys.suggestedTeammates() });
      return queryClient.invalidateQueries({ queryKey: teamKeys.teammates() });
    },
    // Spec section 8: an invite failure shows the server's message.
    onError: (error) => toast.error(error.message),
  });
}

/** The invitation an invitee opened: who invites them where, and whether it can still be accepted. */
export function fetchInviteInfo(inviteId: string, signal?: AbortSignal): Promise<TInviteInfo> {
  return callApi(teamApi.getInvitation, { params: { id: inviteId }, signal });
}

export function useInviteInfo(inviteId: string) {
  return useQuery({
    queryKey: teamKeys.invitation(inviteId),
    queryFn: ({ signal }) => fetchInviteInfo(inviteId, signal),
  });
}

export function acceptInvitation(body: TAcceptInvitation): Promise<TMe> {
  return callApi(teamApi.acceptInvitation, {
    body,
    errorMessage: GATEWAY_ERRORS.acceptInvite,
    preferServerMessage: true,
  });
}

/**
 * Joins the workspace. The caller makes the new user the signed-in one and navigates in one step:
 * set any earlier, the sign-up guard would see a registered user on the page and send them elsewhere
 * first. Refusals are shown by the form.
 */
export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation });
}

/** The Users page list: the workspace's teammates matching the search. */
export function fetchTeammates(searchTerm: string, signal?: AbortSignal): Promise<TTeammate[]> {
  return callApi(teamApi.listTeammates, {
    query: { searchTerm: searchTerm.trim() },
    errorMessage: GATEWAY_ERRORS.fetchAllUsers,
    signal,
  });
}

export function useTeammates(searchTerm: string) {
  return useQuery({
    queryKey: teamKeys.teammateList(searchTerm.trim()),
    queryFn: ({ signal }) => fetchTeammates(searchTerm, signal),
    // A new search keeps the rows on screen until its answer arrives.
    placeholderData: keepPreviousData,
  });
}

export type ChangeRoleInput = TChangeRole & { id: string };

export function changeRole({ id, ...body }: ChangeRoleInput): Promise<TTeammate> {
  return callApi(teamApi.changeRole, {
    params: { id },
    body,
    errorMessage: GATEWAY_ERRORS.changeRole,
    preferServerMessage: true,
  });
}

export function deleteUser(id: string): Promise<null> {
  return callApi(teamApi.removeTeammate, {
    params: { id },
    errorMessage: GATEWAY_ERRORS.deleteUser,
    preferServerMessage: true,
  });
}

/** Role changes and removals: the spec's toasts; a refusal (the last admin, oneself) shows the server's reason. */
function useTeammateMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>, success: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      toast.success(success);
      return queryClient.invalidateQueries({ queryKey: teamKeys.teammates() });
    },
    onError: (error) => failureToast(MESSAGES.updateFailed, error.message),
  });
}

export function useChangeRole() {
  return useTeammateMutation(changeRole, MESSAGES.roleUpdated);
}

export function useDeleteUser() {
  return useTeammateMutation(deleteUser, MESSAGES.userRemoved);
}
