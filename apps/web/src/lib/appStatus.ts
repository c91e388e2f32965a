import { useSyncExternalStore } from 'react';

/** App-wide connectivity flags (spec section 2): the browser lost the network, or the backend is down. */
export type AppStatus = { offline: boolean; backendServerDown: boolean };

let status: AppStatus = { offline: false, backendServerDown: false };
const listeners = new Set<() => void>();

export function getAppStatus(): AppStatus {
  return status;
}

export function setAppStatus(patch: Partial<AppStatus>): void {
  const next = { ...status, ...patch };
  if (next.offline === status.offline && next.backendServerDown === status.backendServerDown) return;
  status = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAppStatus(): AppStatus {
  return useSyncExternalStore(subscribe, getAppStatus);
}
