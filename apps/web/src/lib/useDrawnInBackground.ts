import { useDeferredValue } from 'react';

/**
 * Whether what waits on `ready` may be drawn: false at first, and true only in a background render
 * once `ready` is, a render React cuts into slices that yield to the browser. A large part of a page
 * drawn in the task that made it ready (an answer's arrival, the first render) holds the main thread
 * for tens of milliseconds, four times that on Lighthouse's phone (issue 26's blocking time); the
 * caller shows what it showed before meanwhile.
 */
export function useDrawnInBackground(ready = true): boolean {
  return useDeferredValue(ready, false);
}
