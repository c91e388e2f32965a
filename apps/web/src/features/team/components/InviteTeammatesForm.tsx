import { ActionIcon, Anchor, Button, Group, NativeSelect, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { INVITE_SUGGESTIONS, ROLES, type Role, type TSuggestion } from '@warmpath/shared';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { useSession } from '../../../lib/useSession.ts';
import { useSuggestedTeammates } from '../../sources/api.ts';
import { useInviteTeammates } from '../api.ts';
import {
  DEFAULT_INVITE_ROLE,
  INVITE_ROLES,
  type Invitee,
  inviteButtonLabel,
  remainingSuggestions,
  toInviteRequest,
} from '../inviteDraft.ts';
import { ROLE_LABELS } from '../teammateDisplay.ts';
import type { InviteDraft } from '../useInviteDraft.ts';

export type InviteTeammatesFormProps = {
  draft: InviteDraft;
  /** After the invitations were sent (and the list cleared). */
  onInvited?: () => void;
};

const ROLE_OPTIONS = INVITE_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

function toRole(value: string): Role {
  return ROLES.find((role) => role === value) ?? DEFAULT_INVITE_ROLE;
}

/**
 * The Invite users form (spec section 2), in the Users page's modal and on the onboarding step: an
 * e-mail and a role, the invitees to be sent, suggestions from the user's Google account, and Invite.
 */
export function InviteTeammatesForm({ draft, onInvited }: InviteTeammatesFormProps) {
  const { user } = useSession();
  const invite = useInviteTeammates();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_INVITE_ROLE);
  const [emailError, setEmailError] = useState<string | null>(null);
  const listTitleId = useId();
  const count = draft.invitees.length;

  const addTyped = () => {
    const error = draft.add(email, role);
    setEmailError(error);
    if (error === null) setEmail('');
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Enter adds the e-mail; it must not send the invitations.
    event.preventDefault();
    addTyped();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (count === 0) return;
    invite.mutate(toInviteRequest(draft.invitees), {
      onSuccess: () => {
        draft.clear();
        onInvited?.();
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Stack gap={6}>
          <Group align="flex-start" wrap="nowrap" gap="sm">
            <TextInput
              label="Email"
              type="email"
              placeholder="name@company.com"
              autoComplete="off"
              value={email}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                setEmailError(null);
              }}
              onKeyDown={handleKeyDown}
              error={emailError}
              style={{ flex: 1, minWidth: 0 }}
            />
            <NativeSelect
              label="Role"
              data={ROLE_OPTIONS}
              value={role}
              onChange={(event) => setRole(toRole(event.currentTarget.value))}
            />
          </Group>
          <Anchor component="button" type="button" size="sm" onClick={addTyped} style={{ alignSelf: 'flex-start' }}>
            Add users
          </Anchor>
        </Stack>

        <Stack gap="xs" component="section" aria-labelledby={listTitleId}>
          <Text size="sm" fw={600} id={listTitleId}>
            Users to invite
          </Text>
          {count === 0 ? (
            <Text size="sm" c="dimmed">
              No users added yet.
            </Text>
          ) : (
            <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {draft.invitees.map((invitee) => (
                <InviteeRow key={invitee.email} invitee={invitee} draft={draft} />
              ))}
            </Stack>
          )}
        </Stack>

        {user?.isGoogleConnected ? <InviteSuggestions invitees={draft.invitees} onPick={draft.add} /> : null}

        <Group justify="flex-end">
          <Button type="submit" disabled={count === 0} loading={invite.isPending}>
            {inviteButtonLabel(count)}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function InviteeRow({ invitee, draft }: { invitee: Invitee; draft: InviteDraft }) {
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm" truncate style={{ minWidth: 0 }}>
        {invitee.email}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <NativeSelect
          size="xs"
          aria-label={`Role for ${invitee.email}`}
          data={ROLE_OPTIONS}
          value={invitee.role}
          onChange={(event) => draft.changeRole(invitee.email, toRole(event.currentTarget.value))}
        />
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Remove ${invitee.email}`}
          onClick={() => draft.remove(invitee.email)}
        >
          <svg width={16} height={16} viewBox="0 0 24 24" aria-hidden="true" stroke="currentColor" strokeWidth={2}>
            <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
          </svg>
        </ActionIcon>
      </Group>
    </Group>
  );
}

type InviteSuggestionsProps = {
  invitees: readonly Invitee[];
  onPick: (email: string, role: Role) => void;
};

/**
 * People from the user's Google account (shown only to a Google-connected user): 4 at first, 2 more
 * per click; a pick joins the list as Member.
 */
function InviteSuggestions({ invitees, onPick }: InviteSuggestionsProps) {
  const suggestions = useSuggestedTeammates();
  const [visibleCount, setVisibleCount] = useState<number>(INVITE_SUGGESTIONS.initial);
  const titleId = useId();

  if (suggestions.isPending) {
    return (
      <Text size="sm" c="dimmed" role="status">
        Loading suggestions...
      </Text>
    );
  }
  if (suggestions.isError) {
    return <ErrorAlert message={suggestions.error.message} onRetry={() => void suggestions.refetch()} />;
  }

  const remaining = remainingSuggestions(suggestions.data, invitees);
  const visible = remaining.slice(0, visibleCount);

  return (
    <Stack gap="xs" component="section" aria-labelledby={titleId}>
      <Text size="sm" fw={600} id={titleId}>
        Suggestions ({remaining.length})
      </Text>
      {remaining.length === 0 ? (
        <Text size="sm" c="dimmed">
          No suggestions for now.
        </Text>
      ) : (
        <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {visible.map((suggestion) => (
            <li key={suggestion.email}>
              <SuggestionButton suggestion={suggestion} onPick={() => onPick(suggestion.email, DEFAULT_INVITE_ROLE)} />
            </li>
          ))}
        </Stack>
      )}
      {remaining.length > visibleCount ? (
        <Anchor
          component="button"
          type="button"
          size="sm"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => setVisibleCount((current) => current + INVITE_SUGGESTIONS.step)}
        >
          Show more suggestions
        </Anchor>
      ) : null}
    </Stack>
  );
}

function SuggestionButton({ suggestion, onPick }: { suggestion: TSuggestion; onPick: () => void }) {
  const name = suggestion.name.trim();
  return (
    <UnstyledButton
      onClick={onPick}
      w="100%"
      p={6}
      style={{ borderRadius: 'var(--mantine-radius-sm)', border: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          {name === '' ? null : (
            <Text size="sm" fw={500} truncate>
              {name}
            </Text>
          )}
          <Text size="xs" c="dimmed" truncate>
            {suggestion.email}
          </Text>
        </div>
        <Text size="sm" c="blue">
          Add
        </Text>
      </Group>
    </UnstyledButton>
  );
}
