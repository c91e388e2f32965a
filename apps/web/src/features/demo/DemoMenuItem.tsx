import { LoadingOverlay, Menu } from '@mantine/core';
import { isInDemo, switchWorkspace } from '../../lib/demoMode.ts';
import { useOpenDemo } from './api.ts';

/** The account menu's way into the demo workspace (created the first time), or back out of it. */
export function DemoMenuItem() {
  const open = useOpenDemo();
  if (isInDemo()) {
    return <Menu.Item onClick={() => switchWorkspace('own', '/')}>Back to my workspace</Menu.Item>;
  }
  return (
    <>
      <Menu.Item closeMenuOnClick={false} onClick={() => open.mutate()}>
        Explore a demo workspace
      </Menu.Item>
      <LoadingOverlay
        visible={open.isPending}
        zIndex={1000}
        overlayProps={{ blur: 2 }}
        loaderProps={{ children: 'Preparing your demo workspace…' }}
        pos="fixed"
      />
    </>
  );
}
