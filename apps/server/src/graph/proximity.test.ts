import { describe, expect, it } from 'vitest';
import {
  allyPathProximity,
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

  it('explains a score by what each channel contributes', () => {
    const { contributions } = scoreEdge({ ...none, linkedin: true, meetingWeight: 3, meetings: 3 }, model, now);
    expect(contributions.linkedin).toBe(20);
    expect(contributions.meeting).toBeGreaterThan(50);
    expect(contributions.mail).toBe(0);
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
