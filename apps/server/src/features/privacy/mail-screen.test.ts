import { describe, expect, it } from 'vitest';
import type { InteractionEvidence, Participant } from '../../graph/evidence.repo.ts';
import { blocklistOf } from './blocklist.ts';
import { colleagueTest, correspondence, outsidersOf, screenInteractions, withoutBlocked } from './mail-screen.ts';

const me = 'me@team.example';
const context = {
  owner: me,
  blocklist: blocklistOf(['clinic.example']),
  isColleague: colleagueTest(['team.example'], [me]),
};
const mail = (from: string, to: string[], id = `${from}>${to.join()}`): InteractionEvidence => ({
  kind: 'mail',
  externalId: id,
  occurredAt: new Date('2026-01-01'),
  participants: [
    { email: from, name: null, role: 'from' },
    ...to.map((email): Participant => ({ email, name: null, role: 'to' })),
  ],
});

describe('screening a member’s mail', () => {
  it('tells who wrote to the member and whom the member wrote to, colleagues aside', () => {
    const messages = [mail('news@letters.example', [me]), mail(me, ['ann@acme.example', 'bob@team.example'])];
    expect(correspondence(messages, context)).toEqual({
      wrote: ['news@letters.example'],
      written: ['ann@acme.example'],
    });
    expect(outsidersOf(messages, context).sort()).toEqual(['ann@acme.example', 'news@letters.example']);
  });

  it('keeps outsiders only when allowed, and drops what is left with nobody to know', () => {
    const newsletter = mail('news@letters.example', [me]);
    const exchange = mail('ann@acme.example', [me, 'cold@else.example']);
    const kept = screenInteractions([newsletter, exchange], context, new Set(['ann@acme.example']));
    expect(kept).toHaveLength(1);
    expect(kept[0]?.participants.map((p) => p.email)).toEqual(['ann@acme.example', me]);
    // The too-wide rule still counts everyone who was on it.
    expect(kept[0]?.participantCount).toBe(3);
  });

  it('keeps meetings as they are and takes blocked people out of everything', () => {
    const meeting: InteractionEvidence = {
      kind: 'meeting',
      externalId: 'm1',
      occurredAt: new Date('2026-01-01'),
      participants: [
        { email: me, name: null, role: 'organizer' },
        { email: 'dr@clinic.example', name: null, role: 'attendee' },
        { email: 'first@time.example', name: null, role: 'attendee' },
      ],
    };
    const [screened] = screenInteractions(withoutBlocked([meeting], context.blocklist), context, new Set());
    expect(screened?.participants.map((p) => p.email)).toEqual([me, 'first@time.example']);
    expect(
      screenInteractions(
        withoutBlocked([mail('dr@clinic.example', [me])], context.blocklist),
        context,
        new Set(['dr@clinic.example']),
      ),
    ).toEqual([]);
  });
});
