import { describe, expect, it } from 'vitest';
import {
  addInvitee,
  type Invitee,
  inviteButtonLabel,
  inviteSuccessMessage,
  remainingSuggestions,
  toInviteRequest,
} from './inviteDraft.ts';

const ada: Invitee = { email: 'ada@engines.example', role: 'member' };

describe('addInvitee', () => {
  it('adds a valid e-mail, trimmed and lower-cased, with the chosen role', () => {
    expect(addInvitee([], '  Ada@Engines.Example ', 'admin')).toEqual({
      invitees: [{ email: 'ada@engines.example', role: 'admin' }],
      error: null,
    });
  });

  it.each(['ada', 'ada@engines', 'ada @engines.example', '@engines.example', 'ada@.', 'ada@engines.'])(
    "refuses %j with 'Invalid email address!'",
    (typed) => {
      const invitees = [ada];
      const result = addInvitee(invitees, typed, 'member');
      expect(result.error).toBe('Invalid email address!');
      expect(result.invitees).toBe(invitees);
    },
  );

  it('ignores an e-mail already listed, whatever its case, and nothing typed', () => {
    const invitees = [ada];
    expect(addInvitee(invitees, 'ADA@engines.example', 'viewer')).toEqual({ invitees, error: null });
    expect(addInvitee(invitees, '   ', 'member')).toEqual({ invitees, error: null });
  });
});

describe('inviteButtonLabel and inviteSuccessMessage', () => {
  it("reads 'Invite' for one invitee and 'Invite n' for several", () => {
    expect(inviteButtonLabel(0)).toBe('Invite');
    expect(inviteButtonLabel(1)).toBe('Invite');
    expect(inviteButtonLabel(2)).toBe('Invite 2');
    expect(inviteButtonLabel(12)).toBe('Invite 12');
  });

  it('says User invited! for one and Users invited! for several', () => {
    expect(inviteSuccessMessage(1)).toBe('User invited!');
    expect(inviteSuccessMessage(3)).toBe('Users invited!');
  });
});

describe('remainingSuggestions', () => {
  it('leaves out those already listed and repeated e-mails, keeping the order', () => {
    const suggestions = [
      { name: 'Ada', email: 'ADA@engines.example' },
      { name: 'Bob', email: 'bob@engines.example' },
      { name: 'Bob again', email: 'Bob@engines.example' },
      { name: 'Cy', email: 'cy@engines.example' },
    ];
    expect(remainingSuggestions(suggestions, [ada]).map((suggestion) => suggestion.name)).toEqual(['Bob', 'Cy']);
  });
});

describe('toInviteRequest', () => {
  it('sends the e-mails with their lower-case roles', () => {
    expect(toInviteRequest([ada, { email: 'bob@engines.example', role: 'viewer' }])).toEqual({
      teammates: [
        { email: 'ada@engines.example', role: 'member' },
        { email: 'bob@engines.example', role: 'viewer' },
      ],
    });
  });
});
