import { describe, expect, it } from 'vitest';
import { ivyIntro, janeIntro, proximityExplanation, reportCards } from '../../testing/networkFixtures.ts';
import {
  cardChange,
  clip,
  explanationPath,
  introPath,
  layoutPath,
  sparklinePoints,
  trendLabel,
  type WarmPath,
  warmPathLabel,
  wrapItems,
} from './pictures.ts';

const [jane, ivy] = proximityExplanation.paths;
if (!jane || !ivy) throw new Error('fixture changed');

describe('warm paths', () => {
  it('says a colleague’s path with the link’s strength and channels in the spec’s order', () => {
    expect(warmPathLabel(explanationPath(jane, 'John Smith'))).toBe(
      'You → Jane Doe (colleague, High 82: Google meeting, LinkedIn connection) → John Smith',
    );
    // Nothing scores how well you know a colleague: 'Teammate', no number.
    expect(explanationPath(jane, 'John Smith').links[0]).toEqual({ strength: 'Teammate', band: null, channels: [] });
  });

  it('goes through an ally’s account owner, the ally’s trust in their role', () => {
    const path = explanationPath(ivy, 'John Smith');
    expect(path.people.map((person) => person.name)).toEqual(['You', 'Olga Owner', 'Ivy Client', 'John Smith']);
    expect(warmPathLabel(path)).toBe(
      'You → Olga Owner (account owner of Ivy Client) → Ivy Client (ally, trust 50%, Medium 68: Google mail, Shared experience) → John Smith',
    );
    expect(warmPathLabel(explanationPath({ ...ivy, viaName: null }, 'John Smith'))).toBe(
      'You → Ivy Client (ally, trust 50%, Medium 68: Google mail, Shared experience) → John Smith',
    );
  });

  it('shows no channel the explanation hides (a strength-only member), and your own path directly', () => {
    const strengthOnly = explanationPath({ ...jane, channels: [] }, 'John Smith');
    expect(strengthOnly.links.flatMap((link) => link.channels)).toEqual([]);
    expect(warmPathLabel(strengthOnly)).toBe('You → Jane Doe (colleague, High 82) → John Smith');
    expect(warmPathLabel(explanationPath({ ...jane, isCurrentUser: true }, 'John Smith'))).toBe(
      'You → John Smith (High 82: Google meeting, LinkedIn connection)',
    );
  });

  it('draws the warm-intro panel’s path from what the panel loads', () => {
    expect(warmPathLabel(introPath(janeIntro))).toBe(
      'You → Jane Doe (colleague, High 82: Google meeting, LinkedIn connection) → John Smith',
    );
    expect(warmPathLabel(introPath(ivyIntro))).toBe(
      'You → Olga Owner (account owner of Ivy Client) → Ivy Client (ally, Medium 55: Shared experience) → John Smith',
    );
    expect(warmPathLabel(introPath({ ...ivyIntro, contactOwner: null }))).toBe(
      'You → Ivy Client (ally, Medium 55: Shared experience) → John Smith',
    );
    expect(introPath(janeIntro).people.at(-1)?.role).toBe('Head of Sales at Acme');
  });

  it('lays the path out top to bottom, each link between its two people, its text wrapped to the width', () => {
    const path: WarmPath = {
      people: [
        { name: 'You', role: '', kind: 'you' },
        { name: 'Ada', role: 'colleague', kind: 'connector' },
        { name: 'Grace', role: 'prospect', kind: 'prospect' },
      ],
      links: [
        { strength: 'Teammate', band: null, channels: [] },
        {
          strength: 'High 90',
          band: 'High',
          channels: ['Google meeting', 'Google mail', 'Shared experience', 'LinkedIn connection'],
        },
      ],
    };
    const layout = layoutPath(path);
    expect(layout.people.map((person) => person.top)).toEqual([0, 72, 171]);
    expect(layout.links.map(({ top, bottom }) => [top, bottom])).toEqual([
      [44, 72],
      [116, 171],
    ]);
    expect(layout.links[1]?.lines).toEqual(['Google meeting · Google mail · Shared experience', 'LinkedIn connection']);
    expect(layout.height).toBe(215);
    for (const line of layout.links.flatMap((link) => link.lines)) expect(line.length).toBeLessThanOrEqual(48);
  });

  it('wraps channels whole and clips long names', () => {
    expect(wrapItems(['a', 'bb', 'ccc'], 6)).toEqual(['a · bb', 'ccc']);
    expect(wrapItems(['averyveryverylongword', 'x'], 5)).toEqual(['averyveryverylongword', 'x']);
    expect(wrapItems([], 5)).toEqual([]);
    expect(clip('Short', 10)).toBe('Short');
    expect(clip('Alexandra Konstantinopoulou-Vanderbilt', 12)).toBe('Alexandra K…');
  });
});

describe('report card trends', () => {
  it('draws the lowest point at the bottom and the highest at the top, left to right', () => {
    expect(sparklinePoints([0, 5, 10], 100, 20, 0)).toBe('0,20 50,10 100,0');
    expect(sparklinePoints([3, 3], 100, 20, 2)).toBe('2,10 98,10');
    expect(sparklinePoints([0, 0], 100, 20, 2)).toBe('2,18 98,18');
    expect(sparklinePoints([], 100, 20, 2)).toBe('');
  });

  it('says the trend from its first point to its last', () => {
    expect(trendLabel('Contacts', reportCards.networkRelationships.trend)).toBe(
      'Contacts over the last 30 days: from 1,072 to 1,204',
    );
  });

  it('says a card is new this month rather than +100% when there was nothing 30 days ago', () => {
    expect(cardChange(reportCards.networkRelationships)).toBe('+12%');
    expect(cardChange(reportCards.networkConnections)).toBe('New this month');
    expect(cardChange({ amount: 0, percentage: 0, trend: Array(31).fill(0) })).toBe('+0%');
    expect(cardChange({ amount: 90, percentage: -10, trend: [100, 90] })).toBe('-10%');
  });
});
