import { Button, Group, Stack } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { useInviteTeammates } from '../../team/api.ts';
import { InviteTeammatesForm } from '../../team/components/InviteTeammatesForm.tsx';
import { toInviteRequest } from '../../team/inviteDraft.ts';
import { useInviteDraft } from '../../team/useInviteDraft.ts';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';

/**
 * Invite your teammates, the admin's step after the accounts (spec section 2): the Users page's invite
 * form. Continue sends the invitees still listed, Skip sends none; both go on to the clients import,
 * the step every role passes last (it completes onboarding), so an admin's allies are asked for too.
 */
export function InviteTeammatesPage() {
  const navigate = useNavigate();
  const draft = useInviteDraft();
  const invite = useInviteTeammates();

  const next = () => navigate(PATHS.signUp.importClients);
  const proceed = () => {
    if (draft.invitees.length === 0) {
      next();
      return;
    }
    invite.mutate(toInviteRequest(draft.invitees), {
      onSuccess: () => {
        draft.clear();
        next();
      },
    });
  };

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.inviteTeammates}>
      <PageHeader title="Invite your teammates" description="Their networks add to yours. You can invite more later." />
      <Stack gap="xl">
        <InviteTeammatesForm draft={draft} />
        <Group justify="space-between">
          <Button variant="subtle" onClick={next} disabled={invite.isPending}>
            Skip
          </Button>
          <Button onClick={proceed} loading={invite.isPending}>
            Continue
          </Button>
        </Group>
      </Stack>
    </OnboardingLayout>
  );
}
