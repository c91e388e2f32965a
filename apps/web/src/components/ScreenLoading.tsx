import { Center, Loader, VisuallyHidden } from '@mantine/core';

/**
 * Shown in place of a screen while its code arrives (its first visit): LoadingScreen's loader, inside
 * whatever frame is already drawn (the sidebar stays), so not a landmark of its own.
 */
export function ScreenLoading() {
  return (
    <Center mih="50vh" role="status">
      <Loader />
      <VisuallyHidden>Loading</VisuallyHidden>
    </Center>
  );
}
