import { describe, expect, it } from 'vitest';
import { composeMessage } from './compose-for-tests.ts';
import { decodeWords, formatAddress, htmlToText, parseAddressList, parseMessage } from './rfc5322.ts';

describe('addresses', () => {
  it('reads quoted names with commas, encoded-words, comments and groups', () => {
    expect(
      parseAddressList(
        '"Doe, Jane" <jane@x.com>, =?UTF-8?B?Wm/DqyDDhW5nc3Ryw7Zt?= <zoe@y.io>, bob@z.org (Bob Z), Team: a@t.co, b@t.co;, <bare@q.net>',
      ),
    ).toEqual([
      { name: 'Doe, Jane', email: 'jane@x.com' },
      { name: 'Zoë Ångström', email: 'zoe@y.io' },
      { name: 'Bob Z', email: 'bob@z.org' },
      { name: '', email: 'a@t.co' },
      { name: '', email: 'b@t.co' },
      { name: '', email: 'bare@q.net' },
    ]);
    expect(parseAddressList('undisclosed-recipients:;')).toEqual([]);
  });

  it('writes names as mailers do', () => {
    expect(formatAddress({ name: 'Jane Doe', email: 'jane@x.com' })).toBe('Jane Doe <jane@x.com>');
    expect(formatAddress({ name: 'Doe, Jane', email: 'jane@x.com' })).toBe('"Doe, Jane" <jane@x.com>');
    expect(formatAddress({ name: 'J. "JJ" Doe', email: 'j@x.com' })).toBe('"J. \\"JJ\\" Doe" <j@x.com>');
    expect(formatAddress({ name: '', email: 'j@x.com' })).toBe('j@x.com');
    expect(decodeWords(formatAddress({ name: 'Łukasz Wiśniewski', email: 'l@x.pl' }, { encode: true }))).toBe(
      'Łukasz Wiśniewski <l@x.pl>',
    );
  });

  it('decodes Q encoded-words and joins adjacent ones', () => {
    expect(decodeWords('=?ISO-8859-1?Q?Andr=E9?= =?UTF-8?Q?_M=C3=BCller?=')).toBe('André Müller');
  });
});

describe('messages', () => {
  it('reads what nodemailer builds: headers, multipart text, quoted-printable, non-ASCII', async () => {
    // Gmail reads Bcc from the raw message (and strips it before delivery); a stream transport keeps it in.
    const raw = await composeMessage({
      from: { name: 'Jane Doe', address: 'jane@acme.com' },
      to: [{ name: 'Ana García', address: 'ana@partner.io' }, 'bob@partner.io'],
      cc: '"Roe, Rick" <rick@acme.com>',
      bcc: 'hidden@acme.com',
      subject: 'Réunion — ☕ next week',
      text: `Hola Ana,\n${'a very long line that will be folded by quoted printable encoding '.repeat(3)}\n¿Qué tal?`,
      html: '<p>Hola Ana</p>',
      inReplyTo: '<abc@mail.gmail.com>',
      references: ['<first@x.com>', '<abc@mail.gmail.com>'],
      attachments: [{ filename: 'notes.txt', content: 'attached, not the body' }],
    });
    const parsed = parseMessage(raw);
    expect(parsed.from).toEqual([{ name: 'Jane Doe', email: 'jane@acme.com' }]);
    expect(parsed.to).toEqual([
      { name: 'Ana García', email: 'ana@partner.io' },
      { name: '', email: 'bob@partner.io' },
    ]);
    expect(parsed.cc).toEqual([{ name: 'Roe, Rick', email: 'rick@acme.com' }]);
    expect(parsed.bcc).toEqual([{ name: '', email: 'hidden@acme.com' }]);
    expect(parsed.subject).toBe('Réunion — ☕ next week');
    expect(parsed.text).toBe(
      `Hola Ana,\n${'a very long line that will be folded by quoted printable encoding '.repeat(3)}\n¿Qué tal?`,
    );
    expect(parsed.html).toBe('<p>Hola Ana</p>');
    expect(parsed.inReplyTo).toBe('<abc@mail.gmail.com>');
    expect(parsed.references).toEqual(['<first@x.com>', '<abc@mail.gmail.com>']);
    expect(parsed.messageId).toMatch(/^<.+@.+>$/);
    expect(parsed.date).toBeGreaterThan(0);
  });

  it('falls back to the text of an HTML-only message, and reads base64 bodies', () => {
    const html = Buffer.from(
      '<html><head><style>p{}</style></head><body><p>Hello&nbsp;there</p><p>Second &amp; last</p></body></html>',
    ).toString('base64');
    const raw = Buffer.from(
      `From: a@x.com\r\nTo: b@y.com\r\nSubject: =?utf-8?B?${Buffer.from('Grüße').toString('base64')}?=\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${html}\r\n`,
    );
    const parsed = parseMessage(raw);
    expect(parsed.subject).toBe('Grüße');
    expect(parsed.text).toBe('Hello there\nSecond & last');
    expect(htmlToText('a<br>b')).toBe('a\nb');
  });

  it('unfolds folded headers', () => {
    const parsed = parseMessage(Buffer.from('To: a@x.com,\r\n b@y.com\r\nSubject: one\r\n two\r\n\r\nbody'));
    expect(parsed.to.map((address) => address.email)).toEqual(['a@x.com', 'b@y.com']);
    expect(parsed.subject).toBe('one two');
    expect(parsed.text).toBe('body');
  });
});
