import { describe, expect, it } from 'vitest';
import { readDeliveryFailure } from './bounces.ts';

/** Header lists as Gmail's API returns them (format=metadata): name and value, in the message's order. */
const headers = (lines: string) =>
  lines
    .trim()
    .split('\n')
    .map((line) => {
      const colon = line.indexOf(':');
      return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });

describe('the bounce reader', () => {
  it("reads Gmail's report: the mailer daemon, and the address in X-Failed-Recipients", () => {
    const gmail = headers(`
      Delivered-To: jane.doe@acme.com
      X-Failed-Recipients: Grace.Hopper@navy.test
      Return-Path: <>
      Auto-Submitted: auto-replied
      From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>
      To: jane.doe@acme.com
      Subject: Delivery Status Notification (Failure)
      In-Reply-To: <CAFx7sN1=abc@mail.gmail.com>
      Date: Tue, 04 Mar 2025 10:12:07 -0800 (PST)`);
    expect(readDeliveryFailure(gmail)).toEqual({
      sender: 'mailer-daemon@googlemail.com',
      failed: ['grace.hopper@navy.test'],
    });
  });

  it("reads nothing from Microsoft's 'Undeliverable:' reports, which name no address in a header", () => {
    for (const from of [
      'postmaster@outlook.com',
      'Microsoft Outlook <postmaster@contoso.onmicrosoft.com>',
      'Microsoft Outlook <MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@contoso.com>',
    ]) {
      const exchange = headers(`
        From: ${from}
        To: <jane.doe@acme.com>
        Subject: Undeliverable: Proposal for Contoso
        Content-Type: multipart/report; report-type=delivery-status; boundary="_000_"
        X-MS-Exchange-Message-Is-Ndr:
        Auto-Submitted: auto-replied`);
      expect(readDeliveryFailure(exchange)).toEqual({ sender: expect.stringMatching(/@/), failed: [] });
    }
  });

  it("reads Postfix's and Exim's MAILER-DAEMON, with several recipients, across headers, once each", () => {
    const postfix = headers(`
      Return-Path: <>
      X-Failed-Recipients: ada@analytical.test, Bob@Globex.test
      X-Failed-Recipients: bob@globex.test
      From: MAILER-DAEMON@mx1.globex.test (Mail Delivery System)
      Subject: Undelivered Mail Returned to Sender
      To: jane.doe@acme.com`);
    expect(readDeliveryFailure(postfix)).toEqual({
      sender: 'mailer-daemon@mx1.globex.test',
      failed: ['ada@analytical.test', 'bob@globex.test'],
    });
    const exim = headers(`
      X-Failed-Recipients: ana@partner.test,joe@partner.test
      From: Mail Delivery System <Mailer-Daemon@mail.partner.test>
      Subject: Mail delivery failed: returning message to sender`);
    expect(readDeliveryFailure(exim)?.failed).toEqual(['ana@partner.test', 'joe@partner.test']);
  });

  it('takes no other message for a report, whatever it says', () => {
    const person = headers(`
      From: Grace Hopper <grace@navy.test>
      To: jane.doe@acme.com
      Subject: Delivery Status Notification (Failure)
      X-Failed-Recipients: someone@else.test`);
    expect(readDeliveryFailure(person)).toBeNull();
    const lookalike = headers(`
      From: "mailer-daemon@googlemail.com" <phish@evil.test>
      X-Failed-Recipients: grace@navy.test`);
    expect(readDeliveryFailure(lookalike)).toBeNull();
    expect(readDeliveryFailure(headers('From: daemon@mailer.test'))).toBeNull();
    expect(readDeliveryFailure([])).toBeNull();
  });

  it('keeps only well-formed addresses', () => {
    const odd = headers(`
      From: MAILER-DAEMON@mx.example.test
      X-Failed-Recipients: not an address, <carl@example.test>, undisclosed-recipients:;`);
    expect(readDeliveryFailure(odd)?.failed).toEqual(['carl@example.test']);
  });
});
