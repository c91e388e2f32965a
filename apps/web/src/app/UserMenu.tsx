import { Avatar, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { TMe } from '@warmpath/shared';
import { lazy, type Ref, Suspense, useState } from 'react';
import { LazyPanel } from '../components/LazyPanel.tsx';

// My Account's form and connection cards (react-hook-form) are not needed until it is opened: the
// menu's opening starts the fetch, so the panel is usually there by the click.
const loadMyAccountDrawer = () => import('../features/users/components/MyAccountDrawer.tsx');
const MyAccountDrawer = lazy(async () => ({ default: (await loadMyAccountDrawer()).MyAccountDrawer }));
// The menu (Mantine's floating layer) is not part of the first page's script either (issue 26): it
// loads on the first click of the card and opens as it mounts.
const AccountMenu = lazy(async () => ({ default: (await import('./AccountMenu.tsx')).AccountMenu }));

/** The sidebar's bottom: who is signed in, with Logout and My Account. */
export function UserMenu({ user }: { user: TMe }) {
  const [accountOpened, account] = useDisclosure(false);
  const [used, setUsed] = useState(false);
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const initial = (fullName || user.email).charAt(0).toUpperCase();

  const name = fullName || user.email;
  const button = (
    <AccountMenuButton
      name={name}
      onClick={() => {
        setUsed(true);
        void loadMyAccountDrawer();
      }}
    />
  );
  return (
    <>
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
        {used ? (
          <Suspense fallback={button}>
            <AccountMenu name={name} onMyAccount={account.open} />
          </Suspense>
        ) : (
          button
        )}
      </Box>
      <LazyPanel opened={accountOpened}>
        <MyAccountDrawer user={user} opened={accountOpened} onClose={account.close} />
      </LazyPanel>
    </>
  );
}

type AccountMenuButtonProps = { name: string; onClick?: () => void; ref?: Ref<HTMLButtonElement> };

/** The button over the card, the same before and after the menu's code is there (the menu's target). */
export function AccountMenuButton({ name, ...others }: AccountMenuButtonProps) {
  return (
    <UnstyledButton
      aria-label={`Account menu of ${name}`}
      title={name}
      pos="absolute"
      inset={0}
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
      {...others}
    />
  );
}
