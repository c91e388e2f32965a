import { Button, Group, Stack } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { useInviteTeammates } from '../../team/api.ts';
import { InviteTeammatesForm } from '../../team/components/InviteTeammatesForm.tsx';
import { toInviteRequest } from '../../team/inviteDraft.ts';
import { useInviteDraft } from '../../team/useInviteDraft.ts';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { useAdvanceOnboardingStep } from '../useAdvanceOnboardingStep.ts';

/**
 * Invite your teammates, the admin's last onboarding step: the Users page's invite form. Continue
 * sends the invitees still listed, then completes onboarding; Skip completes it without inviting.
 */
export function InviteTeammatesPage() {
  const draft = useInviteDraft();
  const invite = useInviteTeammates();
  const { advanceTo, isPending } = useAdvanceOnboardingStep();

  const complete = () => advanceTo('COMPLETED', PATHS.recommendedActions);
  const proceed = () => {
    if (draft.invitees.length === 0) {
      complete();
      return;
    }
    invite.mutate(toInviteRequest(draft.invitees), {
      onSuccess: () => {
        draft.clear();
        complete();
      },
    });
  };

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.inviteTeammates}>
      <PageHeader title="Invite your teammates" description="Their networks add to yours. You can invite more later." />
      <Stack gap="xl">
        <InviteTeammatesForm draft={draft} />
        <Group justify="space-between">
          <Button variant="subtle" onClick={complete} disabled={invite.isPending || isPending}>
            Skip
          </Button>
          <Button onClick={proceed} loading={invite.isPending || isPending}>
            Continue
          </Button>
        </Group>
      </Stack>
    </OnboardingLayout>
  );
}
