import type { TPublicConfig } from '@warmpath/shared';
import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { AUTH_CALLBACK_PATH } from './auth.ts';

const SCOPE = 'openid profile email offline_access';

/**
 * OpenID Connect, authorization code with PKCE, against the provider the server names. Loaded when
 * first needed (auth.ts's session), not with the app: oidc-client-ts is a fifth of its first script.
 */
export function createUserManager(config: TPublicConfig): UserManager {
  const { origin } = window.location;
  return new UserManager({
    authority: config.oidc.authority,
    client_id: config.oidc.clientId,
    redirect_uri: `${origin}${AUTH_CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    scope: SCOPE,
    extraQueryParams: config.oidc.extraQueryParams,
    // Shared by every tab, so a link opened in a new tab stays signed in. auth.ts reads it at start.
    userStore: new WebStorageStateStore({ store: window.localStorage }),
  });
}
