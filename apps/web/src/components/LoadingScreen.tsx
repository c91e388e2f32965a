import { Center, Loader, VisuallyHidden } from '@mantine/core';

/** Shown while the configuration, the sign-in or the current user are loading. */
export function LoadingScreen() {
  return (
    <Center component="main" h="100vh" role="status">
      <Loader />
      <VisuallyHidden>Loading</VisuallyHidden>
    </Center>
  );
}
