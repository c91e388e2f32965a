import { describe, expect, it } from 'vitest';
import { composeRaw, newMessageId } from './compose.ts';
import { nextEmailAttemptDelayMs } from './gmail-destination.ts';

describe('composeRaw', () => {
  it('builds a real RFC 5322 message with our Message-ID, encoded words for non-ASCII', async () => {
    const messageId = newMessageId('warmpath.test');
    const raw = await composeRaw('"Zoë Müller" <zoe@acme.test>', {
      to: ['jean@dupont.test'],
      cc: ['ana@beta.test'],
      subject: 'Intro à Dupont ?',
      text: 'Bonjour Jean,\n\nCould you introduce me?',
      messageId,
    });
    const message = Buffer.from(raw, 'base64url').toString();
    expect(message).toMatch(/^From: =\?UTF-8\?Q\?Zo=C3=AB_M=C3=BCller\?= <zoe@acme\.test>\r$/m);
    expect(message).toMatch(/^To: jean@dupont\.test\r$/m);
    expect(message).toMatch(/^Cc: ana@beta\.test\r$/m);
    expect(message).toContain(`Message-ID: ${messageId}`);
    expect(message).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(message).toContain('Content-Type: text/plain; charset=utf-8');
  });
});

describe('nextEmailAttemptDelayMs', () => {
  it('tries at once, then doubles from 30 seconds, and gives up after six attempts', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(nextEmailAttemptDelayMs)).toEqual([
      0,
      30_000,
      60_000,
      120_000,
      240_000,
      480_000,
      null,
    ]);
  });
});
