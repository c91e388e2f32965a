import { describe, expect, it } from 'vitest';
import { deliveryFailure, mailEvidence } from './google-sync.ts';

const message = (headers: Record<string, string>) => ({
  id: 'm1',
  internalDate: String(Date.UTC(2025, 0, 2)),
  payload: { headers: Object.entries(headers).map(([name, value]) => ({ name, value })) },
});

describe('mailEvidence', () => {
  it('reads every participant from the address headers: quoted names, encoded words, groups, case', () => {
    const evidence = mailEvidence(
      message({
        From: '=?UTF-8?B?Wm/DqyBNw7xsbGVy?= <Zoe@Acme.test>',
        To: '"Dupont, Jean" <jean@dupont.test>, Team: ana@beta.test, bob@beta.test;',
        Cc: 'undisclosed-recipients:;',
      }),
    );
    expect(evidence).toEqual({
      kind: 'mail',
      externalId: 'm1',
      occurredAt: new Date(Date.UTC(2025, 0, 2)),
      participants: [
        { email: 'zoe@acme.test', name: 'Zoë Müller', role: 'from' },
        { email: 'jean@dupont.test', name: 'Dupont, Jean', role: 'to' },
        { email: 'ana@beta.test', name: null, role: 'to' },
        { email: 'bob@beta.test', name: null, role: 'to' },
      ],
    });
  });

  it('ignores a message without a sender or a recipient', () => {
    expect(mailEvidence(message({ From: 'not an address', To: 'jean@dupont.test' }))).toBeNull();
    expect(mailEvidence(message({ From: 'zoe@acme.test' }))).toBeNull();
  });
});

describe('deliveryFailure', () => {
  it("gives a report's dead addresses with the report's time, id and sender; nothing for other mail", () => {
    const report = message({
      From: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
      To: 'jane@acme.test',
      'X-Failed-Recipients': 'grace@navy.test',
    });
    expect(deliveryFailure(report)).toEqual({
      dead: [
        {
          email: 'grace@navy.test',
          bouncedAt: new Date(Date.UTC(2025, 0, 2)),
          messageId: 'm1',
          sender: 'mailer-daemon@googlemail.com',
        },
      ],
    });
    expect(deliveryFailure(message({ From: 'grace@navy.test', To: 'jane@acme.test' }))).toBeNull();
  });
});
