import type { ReactNode } from 'react';
import type { ToastOptions } from 'react-toastify';

type Kind = 'success' | 'error' | 'info';

let wanted = false;
const listeners = new Set<() => void>();

/**
 * The toasts' library (react-toastify, its styles with it) loads with the first toast, not with the
 * app's first script (issue 26): most visits show none. A toast asked for before the container is
 * there waits in the library's own queue, which the container empties as it mounts (ToastHost).
 */
function show(kind: Kind) {
  return (content: ReactNode, options?: ToastOptions): void => {
    if (!wanted) {
      wanted = true;
      for (const listener of listeners) listener();
    }
    void import('react-toastify').then(({ toast: library }) => {
      library[kind](content, options);
    });
  };
}

/** react-toastify's `toast`, for the kinds the app shows, loaded on first use. */
export const toast = { success: show('success'), error: show('error'), info: show('info') };

/** Whether a toast has been asked for yet: the container is mounted from then on (ToastHost). */
export function toastsWanted(): boolean {
  return wanted;
}

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A failure toast: the spec's text first, then what the server said, each findable on its own. */
export function failureToast(title: string, detail: string): void {
  toast.error(
    <div>
      <strong>{title}</strong>
      {detail === '' || detail === title ? null : <div>{detail}</div>}
    </div>,
  );
}
