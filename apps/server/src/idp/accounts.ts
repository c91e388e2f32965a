import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idpAccounts } from '../db/schema/index.ts';

export type IdpAccount = { subject: string; email: string; name: string };

export async function findAccount(db: Db, subject: string): Promise<IdpAccount | null> {
  const [account] = await db.select().from(idpAccounts).where(eq(idpAccounts.subject, subject));
  return account ?? null;
}

/** The sign-in account for an e-mail, created on first use; a new name replaces the old one. */
export async function upsertAccount(db: Db, email: string, name: string): Promise<IdpAccount> {
  const normalized = email.trim().toLowerCase();
  const [account] = await db
    .insert(idpAccounts)
    .values({ subject: randomUUID(), email: normalized, name: name.trim() || normalized })
    .onConflictDoUpdate({ target: idpAccounts.email, set: name.trim() ? { name: name.trim() } : { email: normalized } })
    .returning();
  if (!account) throw new Error('upsert returned no row');
  return account;
}

export function splitName(name: string) {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { givenName: first, familyName: rest.join(' ') };
}
