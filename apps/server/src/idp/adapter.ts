import { and, eq, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/client.ts';
import { idpPayloads } from '../db/schema/index.ts';

/** oidc-provider storage in PostgreSQL, so sign-in sessions and refresh tokens survive a restart. */
export function pgAdapterFactory(db: Db) {
  return class PgAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      const row = {
        id,
        model: this.model,
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(idpPayloads)
        .values(row)
        .onConflictDoUpdate({ target: [idpPayloads.model, idpPayloads.id], set: row });
    }

    private async findWhere(condition: ReturnType<typeof eq>) {
      const [row] = await db
        .select()
        .from(idpPayloads)
        .where(
          and(
            eq(idpPayloads.model, this.model),
            condition,
            sql`(${idpPayloads.expiresAt} is null or ${idpPayloads.expiresAt} > now())`,
          ),
        );
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    find(id: string) {
      return this.findWhere(eq(idpPayloads.id, id));
    }

    findByUid(uid: string) {
      return this.findWhere(eq(idpPayloads.uid, uid));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(idpPayloads.userCode, userCode));
    }

    async consume(id: string) {
      await db
        .update(idpPayloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(idpPayloads.model, this.model), eq(idpPayloads.id, id)));
    }

    async destroy(id: string) {
      await db.delete(idpPayloads).where(and(eq(idpPayloads.model, this.model), eq(idpPayloads.id, id)));
    }

    async revokeByGrantId(grantId: string) {
      await db.delete(idpPayloads).where(eq(idpPayloads.grantId, grantId));
    }
  };
}
