import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useKeepsPageFrame } from '../lib/pageFrame.ts';

/** Shown while the configuration, the sign-in or the current user are loading (under a first page's frame). */
export function LoadingScreen() {
  useKeepsPageFrame();
  return (
    <Center component="main" h="100vh" role="status">
      <Loader />
      <VisuallyHidden>Loading</VisuallyHidden>
    </Center>
  );
}
