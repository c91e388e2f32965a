import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { TSyncRun } from '@warmpath/shared';
import { Link } from 'react-router';
import { RunProgress } from '../../../components/RunProgress.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { isSyncActive } from '../../sources/syncRun.ts';

export type RecommendationsEmptyStateProps = {
  /** The caller's first recommendations are on their way. */
  preparing: boolean;
  /** The caller's latest Google sync, shown while it runs. */
  sync: TSyncRun | null;
  isAdmin: boolean;
};

/**
 * No recommended action today, explained: while the first ones are being prepared, what is under way
 * and that they come next; otherwise where the warm leads already are and what brings more.
 */
export function RecommendationsEmptyState({ preparing, sync, isAdmin }: RecommendationsEmptyStateProps) {
  if (preparing) {
    const syncing = isSyncActive(sync);
    return (
      <Stack gap="sm" py="xl" maw={520} mx="auto" role="status" aria-label="Your first recommendations">
        <Group gap="xs">
          {syncing ? null : <Loader size="xs" aria-hidden />}
          <Text fw={600}>Your first recommendations are on their way.</Text>
        </Group>
        {sync && syncing ? (
          <>
            <Text size="sm">
              Warmpath is reading your Google account: your meetings and e-mails become your network.
            </Text>
            <RunProgress run={sync} label="Google sync progress" />
          </>
        ) : (
          <Text size="sm">Your network is being built from what you and your team connected.</Text>
        )}
        <Text size="sm" c="dimmed">
          Recommendations appear here as soon as your network is built: the people to reach at your accounts and in your
          targeting, each through the teammate or ally who knows them best.
        </Text>
      </Stack>
    );
  }
  return (
    <Stack align="center" gap="sm" py="xl">
      <Text fw={600}>No recommended actions today.</Text>
      <Text size="sm" c="dimmed">
        New recommendations arrive every morning, from your accounts, your targeting and your network.
      </Text>
      <Text size="sm" ta="center" maw={560}>
        Your warm leads are already in Leads.{' '}
        {isAdmin
          ? 'Assigned accounts, a wider targeting or a teammate’s network bring more recommendations.'
          : 'A wider targeting brings more recommendations.'}
      </Text>
      <Group justify="center" gap="xs">
        <Button size="xs" component={Link} to={PATHS.network}>
          Open Leads
        </Button>
        {isAdmin ? (
          <Button size="xs" variant="default" component={Link} to={PATHS.admin.accounts}>
            Add accounts
          </Button>
        ) : null}
        <Button size="xs" variant="default" component={Link} to={PATHS.targetedAccounts}>
          Edit your targeting
        </Button>
        {isAdmin ? (
          <Button size="xs" variant="default" component={Link} to={PATHS.admin.users}>
            Invite a teammate
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
