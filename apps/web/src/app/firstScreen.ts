import { usersApi } from '@warmpath/shared';
import { pathOf, startEarlyRead } from '../lib/api.ts';
import { soleStoredAccessToken } from '../lib/auth.ts';
import { demoHeaders } from '../lib/demoMode.ts';
import { firstScreensOf, load } from './screens.ts';

// Imported first by main.tsx, so that this runs before the rest of the app's first script is
// evaluated: the first page's screens download meanwhile instead of after it (issue 26). The router's
// lazy screens later get the same modules from the browser's module map.
for (const screen of firstScreensOf(window.location.pathname)) void load[screen]();

// The signed-in user's /me leaves now too, with the stored token: the app would otherwise ask only
// once the identity provider's settings have come back and it has rendered; its call takes this answer.
const token = soleStoredAccessToken();
if (token !== null) startEarlyRead(pathOf(usersApi.getMe), { Authorization: `Bearer ${token}`, ...demoHeaders() });
