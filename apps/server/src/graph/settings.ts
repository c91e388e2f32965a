import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.ts';
import { DEFAULT_PROXIMITY_MODEL, type ProximityModel } from './proximity.ts';

/** Intro requests one person may receive per week from the whole workspace, unless tuned. */
export const DEFAULT_WEEKLY_INTRO_CAP = 3;

const weight = z.number().min(0).max(1);
const ZGraphSettings = z.object({
  proximity: z
    .object({
      weights: z
        .object({ meeting: weight, mail: weight, sharedExperience: weight, linkedin: weight.max(0.24) })
        .partial()
        .default({}),
      meetingSaturation: z.number().positive(),
      mailSaturation: z.number().positive(),
      oneWayMailFactor: weight,
      sharedMonthsForFull: z.number().positive(),
      otherDepartmentFactor: weight,
      sharedHalfLifeYears: z.number().positive(),
      allyTrustFloor: weight,
    })
    .partial()
    .default({ weights: {} }),
  weeklyIntroCap: z.number().int().min(1).max(100).default(DEFAULT_WEEKLY_INTRO_CAP),
});

export type GraphSettings = { model: ProximityModel; weeklyIntroCap: number };

/**
 * A workspace's tuning of the graph (workspaces.graph_settings) over the defaults. The LinkedIn weight
 * is capped below 0.25 so that a bare connection always stays in the Low band.
 */
export function resolveGraphSettings(stored: unknown): GraphSettings {
  const parsed = ZGraphSettings.safeParse(stored ?? {});
  const settings = parsed.success ? parsed.data : ZGraphSettings.parse({});
  const { weights, ...rest } = settings.proximity;
  return {
    model: {
      ...DEFAULT_PROXIMITY_MODEL,
      ...rest,
      weights: { ...DEFAULT_PROXIMITY_MODEL.weights, ...weights },
    },
    weeklyIntroCap: settings.weeklyIntroCap,
  };
}

export async function loadGraphSettings(tx: Tx, workspaceId: string): Promise<GraphSettings> {
  const result = await tx.execute<{ graph_settings: unknown }>(
    sql`select graph_settings from workspaces where id = ${workspaceId}`,
  );
  return resolveGraphSettings(result.rows[0]?.graph_settings);
}
