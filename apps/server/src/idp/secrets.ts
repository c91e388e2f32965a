import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/client.ts';
import { idpSecrets } from '../db/schema/index.ts';

export type IdpSecrets = { signingKey: JWK; cookieKeys: string[] };

/** Loads the provider's signing key and cookie keys, creating them on first use. */
export async function loadIdpSecrets(db: Db): Promise<IdpSecrets> {
  const [existing] = await db.select().from(idpSecrets).where(eq(idpSecrets.name, 'provider'));
  if (existing) return existing.value as IdpSecrets;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    alg: 'RS256',
    use: 'sig',
    kid: randomBytes(8).toString('hex'),
  };
  const created: IdpSecrets = { signingKey, cookieKeys: [randomBytes(32).toString('base64url')] };
  // Two processes starting together must agree on one key: the first insert wins, both read it back.
  await db.insert(idpSecrets).values({ name: 'provider', value: created }).onConflictDoNothing();
  const [stored] = await db.select().from(idpSecrets).where(eq(idpSecrets.name, 'provider'));
  return (stored?.value ?? created) as IdpSecrets;
}

/** The public half of the signing key, as a JWKS for token verification. */
export function publicJwks(secrets: IdpSecrets): { keys: JWK[] } {
  const { kty, n, e, alg, use, kid } = secrets.signingKey;
  return { keys: [{ kty, n, e, alg, use, kid }] };
}
