import { LoadingOverlay } from '@mantine/core';
import { type ReactNode, Suspense, useState } from 'react';

export type LazyPanelProps = {
  opened: boolean;
  /** A drawer or modal made with React.lazy: its code is fetched when it is first opened. */
  children: ReactNode;
};

/**
 * A side panel whose code is not part of the page until it is first opened; mounted from then on, so
 * that closing it keeps its closing transition. The page dims under a loader while the code arrives.
 */
export function LazyPanel({ opened, children }: LazyPanelProps) {
  const [wanted, setWanted] = useState(opened);
  if (opened && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense
      fallback={
        <LoadingOverlay visible pos="fixed" zIndex={1000} loaderProps={{ role: 'status', 'aria-label': 'Loading' }} />
      }
    >
      {children}
    </Suspense>
  );
}
