import { describe, expect, it } from 'vitest';
import {
  askIntroActionMessage,
  askIntroMessage,
  connectorIntroRequest,
  contactOwnerIntroRequest,
  directMessage,
  introTargetForward,
  thankYouNote,
} from './templates.ts';

const input = {
  connectorFullName: 'Jane Doe',
  targetFullName: 'John Smith',
  targetCompanyName: 'Acme',
  userFullName: 'Ada Lovelace',
};

describe('message templates', () => {
  it('fill the connector’s first name, the target’s full name and the user’s name', () => {
    const request = connectorIntroRequest(input);
    expect(request).toMatch(/^Hi Jane,/);
    expect(request).toContain('you know John Smith at Acme');
    expect(request.trimEnd().split('\n').at(-1)).toBe('Ada Lovelace');
    expect(introTargetForward(input)).toMatch(/^Hi John,[\s\S]*introduce you to Ada Lovelace[\s\S]*Jane Doe$/);
  });

  it('ask the account owner to ask their ally', () => {
    const request = contactOwnerIntroRequest({ ...input, ownerFullName: 'Olivia Lopez' });
    expect(request).toMatch(/^Hi Olivia,/);
    expect(request).toContain('Jane Doe, whose relationship you own, knows John Smith at Acme');
    expect(request).toContain('Would you ask Jane whether');
  });

  it('greet a prospect directly, or congratulate a past client on the move, with Unknown for missing companies', () => {
    expect(directMessage({ prospectFullName: 'John Smith', userFullName: 'Ada', pastClient: null })).toBe(
      'Hello John Smith..',
    );
    const moved = directMessage({
      prospectFullName: 'John Smith',
      userFullName: 'Ada Lovelace',
      pastClient: { newCompanyName: 'Newco', pastCompanyName: null },
    });
    expect(moved).toContain('your move to Newco');
    expect(moved).toContain('working with you at Unknown');
    expect(moved).toContain('Ada Lovelace');
  });
});

describe('the Ask intro panel prefill', () => {
  it('is the plain intro request without a job change', () => {
    expect(askIntroActionMessage({ ...input, pastClient: null })).toBe(askIntroMessage(input));
  });

  it('tells the connector about a past client’s move, with Unknown for a missing company', () => {
    const message = askIntroActionMessage({
      ...input,
      pastClient: { newCompanyName: 'Newco', pastCompanyName: null },
    });
    expect(message).toMatch(/^Hi Jane,/);
    expect(message).toContain('John Smith, whom we worked with at Unknown, has just moved to Newco.');
    expect(message).toContain('would you be open to introducing us?');
    expect(message.trimEnd().split('\n').at(-1)).toBe('Ada Lovelace');
  });
});

describe('the thank-you note', () => {
  it('thanks the connector by first name for the intro to the target, signed by the user', () => {
    const note = thankYouNote(input);
    expect(note).toMatch(/^Hi Jane,\n\nThank you for introducing me to John Smith\./);
    expect(note.trimEnd().split('\n').at(-1)).toBe('Ada Lovelace');
  });
});
