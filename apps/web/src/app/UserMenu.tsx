import { Avatar, Box, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import type { TMe } from '@warmpath/shared';
import { lazy } from 'react';
import { useAuth } from 'react-oidc-context';
import { LazyPanel } from '../components/LazyPanel.tsx';
import { DemoMenuItem } from '../features/demo/DemoMenuItem.tsx';
import { forgetUserId } from '../lib/auth.ts';

// My Account's form and connection cards (react-hook-form) are not needed until it is opened: the
// menu's opening starts the fetch, so the panel is usually there by the click.
const loadMyAccountDrawer = () => import('../features/users/components/MyAccountDrawer.tsx');
const MyAccountDrawer = lazy(async () => ({ default: (await loadMyAccountDrawer()).MyAccountDrawer }));

/** The sidebar's bottom: who is signed in, with Logout and My Account. */
export function UserMenu({ user }: { user: TMe }) {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const [accountOpened, account] = useDisclosure(false);
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const initial = (fullName || user.email).charAt(0).toUpperCase();

  const logout = async () => {
    forgetUserId();
    try {
      await auth.signoutRedirect();
    } catch {
      // The provider offers no sign-out page: end the session here.
      await auth.removeUser();
    }
    queryClient.clear();
  };

  const name = fullName || user.email;
  return (
    <>
      <Menu position="top-start" width={220} onOpen={() => void loadMyAccountDrawer()}>
        {/*
          The button is laid over the whole card (picture, name, e-mail) and holds no text itself: its
          name, 'Account menu of Ada Lovelace', then says what the card shows without having to contain
          the avatar's letter and the e-mail run together (axe: label-content-name-mismatch).
        */}
        <Box pos="relative" p="xs">
          <Group gap="sm" wrap="nowrap">
            <Avatar src={user.avatar} alt="" radius="xl">
              {initial}
            </Avatar>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate>
                {fullName}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {user.email}
              </Text>
            </Stack>
          </Group>
          <Menu.Target>
            <UnstyledButton
              aria-label={`Account menu of ${name}`}
              title={name}
              pos="absolute"
              inset={0}
              style={{ borderRadius: 'var(--mantine-radius-sm)' }}
            />
          </Menu.Target>
        </Box>
        <Menu.Dropdown>
          <Menu.Item onClick={account.open}>My Account</Menu.Item>
          <DemoMenuItem />
          <Menu.Item onClick={() => void logout()}>Logout</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <LazyPanel opened={accountOpened}>
        <MyAccountDrawer user={user} opened={accountOpened} onClose={account.close} />
      </LazyPanel>
    </>
  );
}
