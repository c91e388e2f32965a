// Apart from auth.ts, which loads the shared package: the first module of the app reads it (firstScreen.ts).

/** The start of the key oidc-client-ts keeps the signed-in user under (its store's prefix, 'user:'). */
export const STORED_USER_PREFIX = 'oidc.user:';

/** Whether a sign-in is stored at all: known before the configuration that names its key arrives. */
export const hasStoredUser = () => Object.keys(window.localStorage).some((key) => key.startsWith(STORED_USER_PREFIX));
