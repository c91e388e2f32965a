import { removePageFrame } from '../lib/pageFrame.ts';
import { hasStoredUser } from '../lib/storedUser.ts';
import { firstScreensOf, load } from './screens.ts';

// Imported first by main.tsx, so that this runs before the rest of the app's first script is
// evaluated: the first page's screens download meanwhile instead of after it (issue 26). The router's
// lazy screens later get the same modules from the browser's module map.
for (const screen of firstScreensOf(window.location.pathname)) void load[screen]();

// The page's frame promises the signed-in page: a visitor with no sign-in is on the way to signing in.
if (!hasStoredUser()) removePageFrame();
