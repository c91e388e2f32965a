import { notifyManager, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GATEWAY_ERRORS,
  type TAdvanceOnboarding,
  type TMe,
  type TPrivacy,
  type TUpdateMe,
  type TUpdatePrivacy,
  usersApi,
  type ZRegistration,
} from '@warmpath/shared';
import type { z } from 'zod';
import { callApi, hasErrorCode } from '../../lib/api.ts';
import { rememberUserId } from '../../lib/auth.ts';
import { forgetDemo, isInDemo } from '../../lib/demoMode.ts';
import { toast } from '../../lib/toasts.tsx';

export const userKeys = {
  all: ['users'] as const,
  me: () => [...userKeys.all, 'me'] as const,
  privacy: () => [...userKeys.all, 'privacy'] as const,
};

/** The current user, or null when the signed-in identity has not registered yet. */
export async function fetchMe(): Promise<TMe | null> {
  try {
    const me = await callApi(usersApi.getMe, { errorMessage: GATEWAY_ERRORS.fetchUser });
    rememberUserId(me.id);
    return me;
  } catch (error) {
    if (hasErrorCode(error, 'NOT_REGISTERED')) return null;
    // The demo this tab was in was removed (from another tab): back to the member's own workspace.
    if (isInDemo() && hasErrorCode(error, 'NOT_FOUND')) {
      forgetDemo();
      return fetchMe();
    }
    throw error;
  }
}

/**
 * How long the current user is taken as fresh. Every screen reads the session (about fifteen components):
 * stale at once, each of them mounting asked for it again, five times on opening the network page. What
 * changes it in this tab (a connection, the onboarding) refreshes it itself.
 */
const ME_FRESH_MS = 30_000;

export function useMe(enabled: boolean) {
  return useQuery({ queryKey: userKeys.me(), queryFn: fetchMe, enabled, staleTime: ME_FRESH_MS });
}

export type RegistrationInput = z.input<typeof ZRegistration>;

export function createWorkspaceAdmin(registration: RegistrationInput): Promise<TMe> {
  return callApi(usersApi.createWorkspaceAdmin, {
    body: registration,
    errorMessage: GATEWAY_ERRORS.registerAccount,
    preferServerMessage: true,
  });
}

/**
 * Makes a user the signed-in one, as a call that answers with the current user returned it. A read of
 * the user still in flight is cancelled first: it started before the change and would otherwise land
 * after it, putting back the old onboarding step (the guards then send the user back a page).
 */
export function useSetMe() {
  const queryClient = useQueryClient();
  /** `andThen` runs in the same render as the new user (a navigation the guards must see with it). */
  return async (me: TMe, andThen?: () => void) => {
    rememberUserId(me.id);
    await queryClient.cancelQueries({ queryKey: userKeys.me() });
    notifyManager.batch(() => {
      queryClient.setQueryData(userKeys.me(), me);
      andThen?.();
    });
  };
}

export function useCreateWorkspaceAdmin() {
  const setMe = useSetMe();
  return useMutation({ mutationFn: createWorkspaceAdmin, onSuccess: (me) => setMe(me) });
}

export function updateMe(names: TUpdateMe): Promise<TMe> {
  return callApi(usersApi.updateMe, { body: names });
}

export function useUpdateMe() {
  const setMe = useSetMe();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (me) => setMe(me),
    onError: (error) => toast.error(error.message),
  });
}

/** Moves the current user's onboarding forward (never back); the server answers with the updated user. */
export function advanceOnboarding(body: TAdvanceOnboarding): Promise<TMe> {
  return callApi(usersApi.advanceOnboarding, { body });
}

export function useAdvanceOnboarding() {
  const setMe = useSetMe();
  return useMutation({
    mutationFn: advanceOnboarding,
    onSuccess: (me) => setMe(me),
    onError: (error) => toast.error(error.message),
  });
}

/** My Account › Privacy: the member's sharing level, intro opt-out, weekly cap and blocklist. */
export function usePrivacy(enabled: boolean) {
  return useQuery({ queryKey: userKeys.privacy(), queryFn: () => callApi(usersApi.getPrivacy), enabled });
}

/** A privacy change: the server answers with the settings as they now are. */
function usePrivacyMutation<T>(mutationFn: (input: T) => Promise<TPrivacy>, success: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (privacy) => {
      queryClient.setQueryData(userKeys.privacy(), privacy);
      toast.success(success);
    },
    onError: (error) => toast.error(error.message),
  });
}

export function useUpdatePrivacy() {
  return usePrivacyMutation(
    (body: TUpdatePrivacy) => callApi(usersApi.updatePrivacy, { body, preferServerMessage: true }),
    'Privacy settings saved',
  );
}

export function useBlockContact() {
  return usePrivacyMutation(
    (entry: string) => callApi(usersApi.blockContact, { body: { entry }, preferServerMessage: true }),
    'Blocked: nothing about it is kept from your accounts',
  );
}

export function useUnblockContact() {
  return usePrivacyMutation(
    (entry: string) => callApi(usersApi.unblockContact, { body: { entry }, preferServerMessage: true }),
    'Unblocked',
  );
}
