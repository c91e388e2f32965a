import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allyPathProximity,
  CHANNELS,
  type Channel,
  decayFactor,
  type EdgeEvidence,
  EVIDENCE_HALF_LIFE_DAYS,
  meetingSizeFactor,
  DEFAULT_PROXIMITY_MODEL as model,
  proximityBand,
  scoreEdge,
} from './proximity.ts';
import { resolveGraphSettings } from './settings.ts';

const now = new Date('2026-11-22T12:00:00Z');
const none: EdgeEvidence = {
  meetingWeight: 0,
  meetings: 0,
  mailsSent: 0,
  mailsReceived: 0,
  mailSentWeight: 0,
  mailReceivedWeight: 0,
  sharedMonths: 0,
  sharedSameDepartment: false,
  sharedEndedOn: null,
  linkedin: false,
  evidenceAt: now,
};
const score = (evidence: Partial<EdgeEvidence>) => scoreEdge({ ...none, ...evidence }, model, now).proximity;

describe('the proximity model', () => {
  it('gives nothing without evidence', () => {
    expect(score({})).toBe(0);
  });

  it('keeps a LinkedIn connection alone in the Low band', () => {
    expect(score({ linkedin: true })).toBe(20);
    expect(proximityBand(score({ linkedin: true }))).toBe('Low');
  });

  it('scores more meetings higher, and saturates below 100', () => {
    const one = score({ meetingWeight: 1, meetings: 1 });
    const three = score({ meetingWeight: 3, meetings: 3 });
    const many = score({ meetingWeight: 30, meetings: 30 });
    expect(one).toBeGreaterThan(0);
    expect(three).toBeGreaterThan(one);
    expect(many).toBeGreaterThan(three);
    expect(many).toBeLessThanOrEqual(100);
    expect(proximityBand(many)).toBe('High');
  });

  it('counts small meetings more than large ones', () => {
    expect(meetingSizeFactor(2)).toBe(1);
    expect(meetingSizeFactor(4)).toBe(0.5);
    expect(meetingSizeFactor(20)).toBeCloseTo(0.1);
  });

  it('decays evidence by half every half-life', () => {
    const halfLifeAgo = new Date(now.getTime() - EVIDENCE_HALF_LIFE_DAYS * 86_400_000);
    expect(decayFactor(halfLifeAgo, now)).toBeCloseTo(0.5);
    const fresh = score({ meetingWeight: 3, meetings: 3 });
    const old = score({ meetingWeight: 3, meetings: 3, evidenceAt: halfLifeAgo });
    expect(old).toBe(score({ meetingWeight: 1.5, meetings: 3 }));
    expect(old).toBeLessThan(fresh);
  });

  it('counts one-way mail much less than a two-way exchange', () => {
    const twoWay = score({ mailsSent: 3, mailsReceived: 3, mailSentWeight: 3, mailReceivedWeight: 3 });
    const oneWay = score({ mailsSent: 6, mailSentWeight: 6 });
    expect(oneWay).toBeLessThan(twoWay / 3);
    expect(proximityBand(oneWay)).toBe('Low');
  });

  it('values shared experience by overlap and department, fading over the years', () => {
    const sameDepartment = score({ sharedMonths: 24, sharedSameDepartment: true });
    const otherDepartment = score({ sharedMonths: 24 });
    const short = score({ sharedMonths: 6, sharedSameDepartment: true });
    const longAgo = score({
      sharedMonths: 24,
      sharedSameDepartment: true,
      sharedEndedOn: new Date('2020-11-22T00:00:00Z'),
    });
    expect(sameDepartment).toBe(70);
    expect(otherDepartment).toBeLessThan(sameDepartment);
    expect(short).toBeLessThan(sameDepartment);
    expect(longAgo).toBeLessThan(sameDepartment / 2);
  });

  it('combines channels so that each adds, never past 100', () => {
    const meeting = score({ meetingWeight: 3, meetings: 3 });
    const both = score({ meetingWeight: 3, meetings: 3, linkedin: true });
    expect(both).toBeGreaterThan(meeting);
    expect(
      score({
        meetingWeight: 99,
        mailsSent: 9,
        mailsReceived: 9,
        mailSentWeight: 9,
        mailReceivedWeight: 9,
        sharedMonths: 99,
        sharedSameDepartment: true,
        linkedin: true,
      }),
    ).toBeLessThanOrEqual(100);
  });

  it('explains a score by what each channel would give alone and adds to the stronger ones', () => {
    const { proximity, parts } = scoreEdge({ ...none, linkedin: true, meetingWeight: 3, meetings: 3 }, model, now);
    const part = (channel: Channel) => parts.find((candidate) => candidate.channel === channel);
    expect(parts.map((candidate) => candidate.channel)).toEqual(['meeting', 'linkedin', 'mail', 'sharedExperience']);
    expect(part('meeting')).toEqual({ channel: 'meeting', alone: 60, added: 60 });
    // LinkedIn alone gives 20; on top of the meetings it closes a fifth of the 40 points they leave.
    expect(part('linkedin')).toEqual({ channel: 'linkedin', alone: 20, added: 8 });
    expect(part('mail')).toEqual({ channel: 'mail', alone: 0, added: 0 });
    expect(proximity).toBe(68);
  });

  it('has parts that add up to the score, for every combination of channels', () => {
    // Every subset of the four channels, each present channel with any evidence.
    const evidence = fc.record({
      meetingWeight: fc.double({ min: 0.01, max: 40, noNaN: true }),
      mails: fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 })),
      sharedMonths: fc.integer({ min: 1, max: 120 }),
      sharedSameDepartment: fc.boolean(),
      sharedYearsAgo: fc.integer({ min: 0, max: 15 }),
      ageDays: fc.integer({ min: 0, max: 1000 }),
      mailWeights: fc.tuple(fc.double({ min: 0, max: 30, noNaN: true }), fc.double({ min: 0, max: 30, noNaN: true })),
    });
    for (let subset = 0; subset < 16; subset += 1) {
      const has = (bit: number) => (subset & (1 << bit)) !== 0;
      fc.assert(
        fc.property(evidence, (e) => {
          const [sent, received] = has(1) ? [Math.max(1, e.mails[0]), e.mails[1]] : [0, 0];
          const edge: EdgeEvidence = {
            ...none,
            meetingWeight: has(0) ? e.meetingWeight : 0,
            meetings: has(0) ? 1 : 0,
            mailsSent: sent,
            mailsReceived: received,
            mailSentWeight: has(1) ? Math.max(0.01, e.mailWeights[0]) : 0,
            mailReceivedWeight: has(1) && received > 0 ? e.mailWeights[1] : 0,
            sharedMonths: has(2) ? e.sharedMonths : 0,
            sharedSameDepartment: e.sharedSameDepartment,
            sharedEndedOn: has(2) ? new Date(now.getTime() - e.sharedYearsAgo * 365.25 * 86_400_000) : null,
            linkedin: has(3),
            evidenceAt: new Date(now.getTime() - e.ageDays * 86_400_000),
          };
          const { proximity, parts } = scoreEdge(edge, model, now);
          expect(parts.reduce((sum, part) => sum + part.added, 0)).toBe(proximity);
          expect(parts.map((part) => part.channel).sort()).toEqual([...CHANNELS].sort());
          for (const part of parts) {
            expect(part.added).toBeGreaterThanOrEqual(0);
            // What a channel adds on top of others is at most what it gives alone (give or take rounding).
            expect(part.added).toBeLessThanOrEqual(part.alone + 1);
          }
          // A channel without evidence adds nothing.
          const absent = CHANNELS.filter((_, bit) => !has(bit));
          for (const channel of absent) expect(parts.find((part) => part.channel === channel)?.added).toBe(0);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('puts the band edges at 24/25 and 74/75', () => {
    expect(proximityBand(0)).toBe('Low');
    expect(proximityBand(24)).toBe('Low');
    expect(proximityBand(25)).toBe('Medium');
    expect(proximityBand(74)).toBe('Medium');
    expect(proximityBand(75)).toBe('High');
    expect(proximityBand(100)).toBe('High');
  });

  it('scales a path through an ally by the trust in the ally', () => {
    expect(allyPathProximity(80, 0.5)).toBe(40);
    expect(allyPathProximity(80, 1)).toBe(80);
  });
});

describe('graph settings', () => {
  it('defaults, takes a workspace’s weights, and ignores settings it cannot read', () => {
    expect(resolveGraphSettings({}).model).toEqual(model);
    const tuned = resolveGraphSettings({ proximity: { weights: { mail: 0.5 } }, weeklyIntroCap: 5 });
    expect(tuned.model.weights).toEqual({ ...model.weights, mail: 0.5 });
    expect(tuned.weeklyIntroCap).toBe(5);
    expect(resolveGraphSettings({ proximity: { weights: { linkedin: 0.9 } } }).model).toEqual(model);
  });
});
