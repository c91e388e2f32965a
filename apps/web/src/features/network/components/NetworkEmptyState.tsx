import { Anchor, Button, List, Stack, Text } from '@mantine/core';
import type { TMe } from '@warmpath/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths.ts';

export type NetworkEmptyStateProps = {
  /** Filters are narrowing the table: clearing them may show contacts. */
  filtered: boolean;
  onClearFilters: () => void;
  user: Pick<TMe, 'role' | 'isGoogleConnected' | 'isLinkedinConnected'> | null;
};

/** An empty table says what would fill it: fewer filters, or more sources for the network. */
export function NetworkEmptyState({ filtered, onClearFilters, user }: NetworkEmptyStateProps) {
  if (filtered) {
    return (
      <Stack align="center" gap="xs" py="xl">
        <Text fw={600}>No contacts match these filters.</Text>
        <Button variant="default" size="xs" onClick={onClearFilters}>
          Clear filters
        </Button>
      </Stack>
    );
  }
  return (
    <Stack align="center" gap="sm" py="xl">
      <Text fw={600}>Your network is empty for now.</Text>
      <Text size="sm">Contacts appear here once Warmpath knows who your team and your allies know:</Text>
      <List type="ordered" size="sm" spacing={4}>
        <Step done={user?.isGoogleConnected ?? false} doneText="Google is connected.">
          <Anchor component={Link} to={PATHS.signUp.sync}>
            Connect your Google account
          </Anchor>{' '}
          to map your meetings and e-mails.
        </Step>
        <Step done={user?.isLinkedinConnected ?? false} doneText="Your LinkedIn connections are imported.">
          <Anchor component={Link} to={PATHS.signUp.sync}>
            Import your LinkedIn connections
          </Anchor>
          .
        </Step>
        <List.Item>
          {user?.role === 'admin' ? (
            <>
              <Anchor component={Link} to={PATHS.admin.networkAllies}>
                Add allies to map your network from
              </Anchor>{' '}
              (clients, investors, partners).
            </>
          ) : (
            'Ask an admin to add allies to map your network from (clients, investors, partners).'
          )}
        </List.Item>
      </List>
    </Stack>
  );
}

function Step({ done, doneText, children }: { done: boolean; doneText: string; children: ReactNode }) {
  return <List.Item>{done ? doneText : children}</List.Item>;
}
