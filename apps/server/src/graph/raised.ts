import { type SignalType, signalsOfMask } from '@warmpath/shared';
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';

/** A signal a prospect did not have before a roll-up and has after it. */
export type RaisedSignal = { prospectId: string; type: SignalType };

/**
 * Who hears of raised signals (the events seam): asked once per batch whether anyone listens, so a
 * workspace without destinations pays nothing; told in the batch's transaction, so what it records
 * commits with the rows that raised it, or not at all.
 */
export type RaisedSignalsListener = {
  listens: (tx: Tx, workspaceId: string) => Promise<boolean>;
  raised: (tx: Tx, workspaceId: string, signals: RaisedSignal[]) => Promise<void>;
};

/** The stored signal masks of the given prospects (absent: not in the network). */
export async function signalMasks(tx: Tx, workspaceId: string, prospectIds: readonly string[]) {
  const rows = await tx.execute<{ prospect_id: string; signal_mask: number }>(sql`
    select prospect_id, signal_mask from network_rows
     where workspace_id = ${workspaceId} and prospect_id = any(${sql.param([...prospectIds])}::uuid[])`);
  return new Map(rows.rows.map((row) => [row.prospect_id, Number(row.signal_mask)]));
}

/** The signals each prospect gained between two readings of their masks. */
export function raisedBetween(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>) {
  return [...after].flatMap(([prospectId, mask]) =>
    signalsOfMask(mask & ~(before.get(prospectId) ?? 0)).map((type): RaisedSignal => ({ prospectId, type })),
  );
}

/** Several listeners as one: each that listens hears the batch's raised signals. */
export function allListeners(...listeners: RaisedSignalsListener[]): RaisedSignalsListener {
  return {
    listens: async (tx, workspaceId) => {
      for (const listener of listeners) if (await listener.listens(tx, workspaceId)) return true;
      return false;
    },
    raised: async (tx, workspaceId, signals) => {
      for (const listener of listeners)
        if (await listener.listens(tx, workspaceId)) await listener.raised(tx, workspaceId, signals);
    },
  };
}
