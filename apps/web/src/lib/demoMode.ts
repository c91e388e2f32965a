import { DEMO_WORKSPACE_HEADER, DEMO_WORKSPACE_VALUE } from '@warmpath/shared';

// Whether this tab acts in the member's demo workspace: per tab (sessionStorage), so a demo opened in
// one tab never shows in another, and every call carries it (the API's DEMO_WORKSPACE_HEADER).
const KEY = 'warmpathWorkspace';

export const isInDemo = () => window.sessionStorage.getItem(KEY) === DEMO_WORKSPACE_VALUE;

/** The header the API calls of this tab carry, if any. */
export const demoHeaders = (): Record<string, string> =>
  isInDemo() ? { [DEMO_WORKSPACE_HEADER]: DEMO_WORKSPACE_VALUE } : {};

/**
 * Moves this tab into or out of the demo workspace: a fresh page, so nothing read in one workspace is
 * shown in the other.
 */
export function switchWorkspace(to: 'demo' | 'own', path: string) {
  if (to === 'demo') window.sessionStorage.setItem(KEY, DEMO_WORKSPACE_VALUE);
  else window.sessionStorage.removeItem(KEY);
  window.location.assign(path);
}

/** Forgets the demo without reloading (it was removed elsewhere; the next read is the member's own). */
export const forgetDemo = () => window.sessionStorage.removeItem(KEY);
