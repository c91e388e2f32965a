import { useLayoutEffect } from 'react';

/** The element of a first page's static frame (app/pageFrameHtml.ts, which the build writes in). */
export const PAGE_FRAME_ID = 'page-frame';

export function removePageFrame() {
  document.getElementById(PAGE_FRAME_ID)?.remove();
}

/**
 * The static frame a first page's HTML may carry covers the app while the app
 * shows only loading screens, and goes at the first commit that shows anything else: the page, a
 * message, a redirect. A frame left over anything real would hide it, so the rule is by exclusion.
 */
let loadingScreensShown = 0;

// After the commit: a loading screen replacing another in the same commit has mounted by then.
const removeUnlessLoading = () =>
  queueMicrotask(() => {
    if (loadingScreensShown === 0) removePageFrame();
  });

/** For a loading screen: the frame stays while it is shown. */
export function useKeepsPageFrame() {
  useLayoutEffect(() => {
    loadingScreensShown += 1;
    return () => {
      loadingScreensShown -= 1;
      removeUnlessLoading();
    };
  }, []);
}

/** For the app's root: its first commit removes the frame unless it is a loading screen. */
export function useRemovesPageFrame() {
  useLayoutEffect(removeUnlessLoading, []);
}
