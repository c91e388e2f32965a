import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  type TAcceptInvitation,
  type TInviteInfo,
  type TInviteTeammatesRequest,
  type TInviteTeammatesResponse,
  type TMe,
  ZInviteInfo,
  ZInviteTeammatesResponse,
  ZMe,
} from '@warmpath/shared';
import { toast } from 'react-toastify';
import { apiRequest } from '../../lib/api.ts';
import { googleKeys } from '../connections/api.ts';
import { userKeys } from '../users/api.ts';
import { inviteSuccessMessage } from './inviteDraft.ts';

export const invitationKeys = {
  all: ['invitations'] as const,
  detail: (inviteId: string) => [...invitationKeys.all, 'detail', inviteId] as const,
};

export function inviteTeammates(body: TInviteTeammatesRequest): Promise<TInviteTeammatesResponse> {
  return apiRequest({
    path: '/teammates/invite',
    method: 'POST',
    body,
    schema: ZInviteTeammatesResponse,
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
      return queryClient.invalidateQueries({ queryKey: userKeys.teammates() });
    },
    // Spec section 8: an invite failure shows the server's message.
    onError: (error) => toast.error(error.message),
  });
}

/** The invitation an invitee opened: who invites them where, and whether it can still be accepted. */
export function fetchInviteInfo(inviteId: string, signal?: AbortSignal): Promise<TInviteInfo> {
  return apiRequest({
    path: `/teammates/query/invited-user-teammates/${encodeURIComponent(inviteId)}`,
    schema: ZInviteInfo,
    signal,
  });
}

export function useInviteInfo(inviteId: string) {
  return useQuery({
    queryKey: invitationKeys.detail(inviteId),
    queryFn: ({ signal }) => fetchInviteInfo(inviteId, signal),
  });
}

export function acceptInvitation(body: TAcceptInvitation): Promise<TMe> {
  return apiRequest({
    path: '/teammates/accept-invitation',
    method: 'POST',
    body,
    schema: ZMe,
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
