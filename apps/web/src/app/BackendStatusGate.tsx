import { MESSAGES } from '@warmpath/shared';
import { type ReactNode, useEffect } from 'react';
import { MessageScreen } from '../components/MessageScreen.tsx';
import { checkBackendHealth } from '../lib/api.ts';
import { useAppStatus } from '../lib/appStatus.ts';

/** Replaces the whole app with the spec's message while the backend cannot be reached. */
export function BackendStatusGate({ children }: { children: ReactNode }) {
  const { backendServerDown } = useAppStatus();

  useEffect(() => {
    void checkBackendHealth();
  }, []);

  return backendServerDown ? <MessageScreen message={MESSAGES.backendDown} /> : children;
}
