import { describe, expect, it } from 'vitest';
import { connectorIntroRequest, contactOwnerIntroRequest, directMessage, introTargetForward } from './templates.ts';

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
