// Apart from auth.ts, which loads the shared package: the first module of the app reads it (firstScreen.ts).

/** The start of the key oidc-client-ts keeps the signed-in user under (its store's prefix, 'user:'). */
export const STORED_USER_PREFIX = 'oidc.user:';

/** The keys sign-ins are stored under: known before the configuration that names the one in use arrives. */
export const storedUserKeys = () =>
  Object.keys(window.localStorage).filter((key) => key.startsWith(STORED_USER_PREFIX));

/** Whether a sign-in is stored at all. */
export const hasStoredUser = () => storedUserKeys().length > 0;
