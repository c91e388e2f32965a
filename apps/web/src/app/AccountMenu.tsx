import { Menu } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useOpenedOnMount } from '../components/useFocusOnMount.ts';
import { DemoMenuItem } from '../features/demo/DemoMenuItem.tsx';
import { forgetUserId } from '../lib/auth.ts';
import { useAuth } from '../lib/useAuth.ts';
import { AccountMenuButton } from './UserMenu.tsx';

/**
 * The account menu itself (My Account, the demo, Logout): loaded on the first click of the card's
 * button (UserMenu), so it opens as it mounts.
 */
export function AccountMenu({ name, onMyAccount }: { name: string; onMyAccount: () => void }) {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const menu = useOpenedOnMount<HTMLButtonElement>();

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

  return (
    <Menu position="top-start" width={220} opened={menu.opened} onChange={menu.setOpened}>
      <Menu.Target>
        <AccountMenuButton ref={menu.ref} name={name} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onMyAccount}>My Account</Menu.Item>
        <DemoMenuItem />
        <Menu.Item onClick={() => void logout()}>Logout</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
