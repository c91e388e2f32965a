import { PROXIMITY_BANDS, type ProximityBandName } from '@warmpath/shared';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The proximity model (DESIGN.md section 7), the one place its rules and numbers live. Each channel
 * gives a strength in [0, 1]; channels combine as 1 - prod(1 - weight * strength); the score is
 * round(100 * that). The same model is written twice, in TypeScript (to explain a score and to test
 * the model) and as SQL (to score millions of edges where they are); a test holds them equal.
 */
export type ProximityModel = {
  weights: { meeting: number; mail: number; sharedExperience: number; linkedin: number };
  /** Decayed meeting weight at which the meeting strength reaches 1 - 1/e. */
  meetingSaturation: number;
  /** Decayed two-way mail count at which the mail strength reaches 1 - 1/e. */
  mailSaturation: number;
  /** Mail that only ever went one way counts this much of two-way mail. */
  oneWayMailFactor: number;
  /** Overlapping months at which shared experience is full strength. */
  sharedMonthsForFull: number;
  /** Shared experience in different departments counts this much. */
  otherDepartmentFactor: number;
  /** Shared experience fades by half every this many years after it ended. */
  sharedHalfLifeYears: number;
  /** A mapped ally is trusted at least this much, even when no member's own evidence reaches them. */
  allyTrustFloor: number;
};

/** Meetings and mail decay with this half-life; it is applied when evidence is read, so it is not tunable per workspace. */
export const EVIDENCE_HALF_LIFE_DAYS = 180;
/** Meetings and threads with more people than this say nothing about who knows whom. */
export const MAX_PARTICIPANTS = 20;

export const DEFAULT_PROXIMITY_MODEL: ProximityModel = {
  // LinkedIn alone gives 100 * 0.2 = 20: it stays in the Low band, as a bare connection should.
  weights: { meeting: 0.95, mail: 0.85, sharedExperience: 0.7, linkedin: 0.2 },
  meetingSaturation: 3,
  mailSaturation: 6,
  oneWayMailFactor: 0.25,
  sharedMonthsForFull: 24,
  otherDepartmentFactor: 0.6,
  sharedHalfLifeYears: 3,
  allyTrustFloor: 0.5,
};

/** A meeting's weight: a one-to-one counts fully, larger meetings less (2 / attendees). */
export const meetingSizeFactor = (participants: number) => Math.min(1, 2 / Math.max(participants, 2));

/** The factor that brings a weight decayed to `from` forward to `to`. */
export const decayFactor = (from: Date, to: Date, halfLifeDays = EVIDENCE_HALF_LIFE_DAYS) =>
  0.5 ** (Math.max(0, to.getTime() - from.getTime()) / 86_400_000 / halfLifeDays);

export type EdgeEvidence = {
  meetingWeight: number;
  meetings: number;
  mailsSent: number;
  mailsReceived: number;
  mailSentWeight: number;
  mailReceivedWeight: number;
  sharedMonths: number;
  sharedSameDepartment: boolean;
  sharedEndedOn: Date | null;
  linkedin: boolean;
  evidenceAt: Date;
};

/** An `edges` row as the database returns it. */
export type EdgeEvidenceRow = {
  meeting_weight: number;
  meetings: number;
  mails_sent: number;
  mails_received: number;
  mail_sent_weight: number;
  mail_received_weight: number;
  shared_months: number;
  shared_same_department: boolean;
  shared_ended_on: string | null;
  linkedin: boolean;
  evidence_at: Date | string;
};

export const edgeEvidenceOf = (row: EdgeEvidenceRow): EdgeEvidence => ({
  meetingWeight: row.meeting_weight,
  meetings: row.meetings,
  mailsSent: row.mails_sent,
  mailsReceived: row.mails_received,
  mailSentWeight: row.mail_sent_weight,
  mailReceivedWeight: row.mail_received_weight,
  sharedMonths: row.shared_months,
  sharedSameDepartment: row.shared_same_department,
  sharedEndedOn: row.shared_ended_on ? new Date(row.shared_ended_on) : null,
  linkedin: row.linkedin,
  evidenceAt: new Date(row.evidence_at),
});

export type ChannelStrengths = { meeting: number; mail: number; sharedExperience: number; linkedin: number };

const saturate = (value: number, saturation: number) => 1 - Math.exp(-value / saturation);

export function channelStrengths(edge: EdgeEvidence, model: ProximityModel, now: Date): ChannelStrengths {
  const decay = decayFactor(edge.evidenceAt, now);
  const mailStrength = saturate((edge.mailSentWeight + edge.mailReceivedWeight) * decay, model.mailSaturation);
  const twoWay = edge.mailsSent > 0 && edge.mailsReceived > 0;
  // Whole days, as SQL's date arithmetic counts them.
  const yearsSinceShared = edge.sharedEndedOn
    ? Math.max(0, Math.floor((now.getTime() - edge.sharedEndedOn.getTime()) / 86_400_000)) / 365.25
    : 0;
  return {
    meeting: saturate(edge.meetingWeight * decay, model.meetingSaturation),
    mail: twoWay ? mailStrength : model.oneWayMailFactor * mailStrength,
    sharedExperience:
      Math.min(1, edge.sharedMonths / model.sharedMonthsForFull) *
      (edge.sharedSameDepartment ? 1 : model.otherDepartmentFactor) *
      0.5 ** (yearsSinceShared / model.sharedHalfLifeYears),
    linkedin: edge.linkedin ? 1 : 0,
  };
}

export const CHANNELS = ['meeting', 'mail', 'sharedExperience', 'linkedin'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * One channel's share of an edge's score. `alone` is what the channel would score by itself
 * (100 * weight * strength); `added` is what it adds to the channels listed before it: channels
 * combine as 1 - prod(1 - part), so each one closes its own fraction of the gap the stronger ones
 * left. The `added` of an edge's channels sum to its proximity exactly.
 */
export type ChannelPart = { channel: Channel; alone: number; added: number };

/**
 * The score of an edge and how its channels make it: strongest first, each adding what it closes of
 * what is left. Each part is the rounded running score minus the one before, so rounding never
 * loses or invents a point: the parts always add up to the proximity.
 */
export function scoreEdge(edge: EdgeEvidence, model: ProximityModel, now: Date) {
  const strengths = channelStrengths(edge, model, now);
  const weighted = Object.fromEntries(
    CHANNELS.map((channel) => [channel, model.weights[channel] * strengths[channel]]),
  ) as ChannelStrengths;
  // The product in the SQL's order (proximitySql): the same floating-point result, so the same rounding.
  const missing = CHANNELS.reduce((product, channel) => product * (1 - weighted[channel]), 1);
  const proximity = Math.round(100 * (1 - missing));
  const strongestFirst = [...CHANNELS].sort((a, b) => weighted[b] - weighted[a]);
  // From the weakest channel with any strength on, the running score is the proximity itself: the
  // channels without any add nothing, whatever the order of a floating-point product did.
  const lastPresent = Math.max(
    0,
    strongestFirst.findLastIndex((channel) => weighted[channel] > 0),
  );
  let left = 1;
  let before = 0;
  const parts = strongestFirst.map((channel, index): ChannelPart => {
    left *= 1 - weighted[channel];
    const running = index >= lastPresent ? proximity : Math.min(proximity, Math.round(100 * (1 - left)));
    const part = { channel, alone: Math.round(100 * weighted[channel]), added: running - before };
    before = running;
    return part;
  });
  return { proximity, parts };
}

export const proximityBand = (proximity: number): ProximityBandName =>
  PROXIMITY_BANDS.find((band) => proximity >= band.min && proximity <= band.max)?.name ?? 'Low';

/** A prospect reached through an ally: the product of the ally's trust and the ally's link. */
export const allyPathProximity = (allyLink: number, allyTrust: number) => Math.round(allyLink * allyTrust);

/**
 * The factor that brings a weight decayed to the time `since` forward to now, in SQL (`decayFactor`).
 * date_part on the interval, not extract(): extract() returns numeric, and numeric arithmetic made this
 * one factor 10 s of a full recompute's 10M edges.
 */
export const decaySql = (since: SQL) =>
  sql`power(0.5::float8, greatest(0, date_part('epoch', now() - ${since})) / 86400.0::float8 / ${EVIDENCE_HALF_LIFE_DAYS}::float8)`;

/**
 * The same model as `scoreEdge(...).proximity`, as an SQL expression over an `edges` row named
 * `alias`, scored now. A caller scoring millions of rows passes `decay`, the row's `decaySql` computed
 * once: written inline, it is computed twice per row (meetings and mail).
 */
export function proximitySql(
  model: ProximityModel,
  alias: string,
  decay: SQL = decaySql(sql.raw(`${alias}.evidence_at`)),
): SQL {
  const e = (column: string) => sql.raw(`${alias}.${column}`);
  const saturate = (value: SQL, saturation: number) => sql`(1 - exp(-(${value}) / ${saturation}::float8))`;
  const meeting = saturate(sql`${e('meeting_weight')} * ${decay}`, model.meetingSaturation);
  const mail = sql`(case when ${e('mails_sent')} > 0 and ${e('mails_received')} > 0 then 1 else ${model.oneWayMailFactor}::float8 end)
    * ${saturate(sql`(${e('mail_sent_weight')} + ${e('mail_received_weight')}) * ${decay}`, model.mailSaturation)}`;
  const shared = sql`least(1, ${e('shared_months')} / ${model.sharedMonthsForFull}::float8)
    * (case when ${e('shared_same_department')} then 1 else ${model.otherDepartmentFactor}::float8 end)
    -- Today as a sub-select: computed once per statement, where current_date is computed per row.
    * power(0.5::float8, coalesce(greatest(0, ((select current_date) - ${e('shared_ended_on')}))::float8 / 365.25::float8, 0) / ${model.sharedHalfLifeYears}::float8)`;
  const linkedin = sql`(case when ${e('linkedin')} then 1 else 0 end)`;
  const w = model.weights;
  return sql`round(100 * (1 - (1 - ${w.meeting}::float8 * ${meeting}) * (1 - ${w.mail}::float8 * ${mail})
    * (1 - ${w.sharedExperience}::float8 * ${shared}) * (1 - ${w.linkedin}::float8 * ${linkedin})))::int`;
}
