import { describe, expect, it } from 'vitest';
import { headersOf } from './mailbox.ts';
import { createGoogleSandbox, type GoogleSandbox } from './sandbox.ts';
import { DAY } from './time.ts';

const NOW = Date.UTC(2025, 10, 20, 15, 30);
const sandboxAt = (now = NOW) => createGoogleSandbox({ publicUrl: 'http://localhost:3000', clock: () => now });

/** Everything a client could see of a world, as plain data. */
function snapshot(sandbox: GoogleSandbox, email: string) {
  const { mailbox, calendar, contacts } = sandbox.user(email);
  return {
    messages: mailbox.all().map((message) => ({
      id: message.id,
      threadId: message.threadId,
      labels: message.labelIds,
      historyId: message.historyId,
      headers: headersOf(message, mailbox),
    })),
    events: calendar.all().map((event) => calendar.serialize(event)),
    connections: contacts.allConnections(),
    otherContacts: contacts.allOtherContacts(),
  };
}

describe('generated worlds', () => {
  it('are deterministic per e-mail address', () => {
    const first = snapshot(sandboxAt(), 'jane.doe@acme.com');
    const second = snapshot(sandboxAt(), 'Jane.Doe@ACME.com');
    expect(second).toEqual(first);
    const other = snapshot(sandboxAt(), 'john.roe@acme.com');
    expect(other.messages[0]?.id).not.toBe(first.messages[0]?.id);
  });

  it('have about 3,000 messages over three years and 600 meetings', () => {
    const sandbox = sandboxAt();
    const state = sandbox.user('lea.martin@example.fr');
    expect(state.mailbox.size).toBeGreaterThan(2700);
    expect(state.mailbox.size).toBeLessThan(3400);
    expect(state.calendar.size).toBeGreaterThan(540);
    expect(state.calendar.size).toBeLessThan(660);
    const times = state.mailbox.all().map((message) => message.internalDate);
    expect(Math.min(...times)).toBeLessThan(NOW - 2.5 * 365 * DAY);
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW);
    expect(state.world.timeZone).toBe('Europe/Paris');
  });

  it('has about 30,000 messages for a +large address and none for +empty', () => {
    const sandbox = sandboxAt();
    const large = sandbox.user('bench+large@acme.com');
    expect(large.mailbox.size).toBeGreaterThan(27_000);
    expect(large.mailbox.size).toBeLessThan(34_000);
    expect(large.generationMs).toBeLessThan(10_000);
    const empty = sandbox.user('new+empty@acme.com');
    expect(empty.mailbox.size).toBe(0);
    expect(empty.calendar.size).toBe(0);
    expect(empty.contacts.connectionCount).toBe(0);
  });

  it('looks like a real network: colleagues, hundreds of companies, many cultures, big threads and meetings', () => {
    const email = 'jane.doe@acme.com';
    const { world, mailbox, calendar } = sandboxAt().user(email);
    const messages = mailbox.all();
    const domainOf = (address: string) => address.split('@')[1] ?? '';

    const participants = new Set<string>();
    for (const message of messages) {
      for (const address of [message.from, ...message.to, ...message.cc]) participants.add(address.email);
    }
    const domains = new Set([...participants].map(domainOf));
    expect(domains.size).toBeGreaterThan(250);
    expect([...participants].filter((address) => domainOf(address) === 'acme.com').length).toBeGreaterThan(15);
    expect(world.companies.length).toBe(300);
    expect(new Set(world.companies.map((company) => company.domain)).size).toBe(300);
    expect(new Set(world.companies.map((company) => company.industry)).size).toBeGreaterThan(20);
    expect(new Set(world.companies.map((company) => company.size)).size).toBe(8);
    expect(world.people.some((person) => /[^\x20-\x7e]/.test(person.displayName))).toBe(true);

    // Threads with more than 20 recipients.
    expect(messages.some((message) => message.to.length + message.cc.length > 20)).toBe(true);
    // One-way mail: newsletters the user never answers.
    const senders = new Set(messages.filter((message) => message.inbound).map((message) => message.from.email));
    const recipients = new Set(
      messages
        .filter((message) => !message.inbound)
        .flatMap((message) => [...message.to, ...message.cc].map((a) => a.email)),
    );
    const oneWay = [...senders].filter((address) => !recipients.has(address));
    const twoWay = [...senders].filter((address) => recipients.has(address));
    expect(oneWay.length).toBeGreaterThan(50);
    expect(twoWay.length).toBeGreaterThan(100);

    // Relationships that faded: exchanges that stopped more than six months ago.
    const last = new Map<string, number>();
    for (const message of messages) {
      if (!message.inbound) continue;
      last.set(message.from.email, Math.max(last.get(message.from.email) ?? 0, message.internalDate));
    }
    const faded = twoWay.filter((address) => (last.get(address) ?? 0) < NOW - 180 * DAY);
    const recent = twoWay.filter((address) => (last.get(address) ?? 0) > NOW - 30 * DAY);
    expect(faded.length).toBeGreaterThan(30);
    expect(recent.length).toBeGreaterThan(15);

    // Meetings: some large, some bringing two outside companies together.
    const events = calendar.all();
    expect(events.some((event) => event.attendees.length > 20)).toBe(true);
    const outsideDomains = (attendees: { email: string; resource?: boolean }[]) =>
      new Set(
        attendees
          .filter((attendee) => !attendee.resource && domainOf(attendee.email) !== 'acme.com')
          .map((attendee) => domainOf(attendee.email)),
      );
    expect(
      events.filter((event) => event.attendees.length <= 6 && outsideDomains(event.attendees).size >= 2).length,
    ).toBeGreaterThan(10);
    expect(events.some((event) => event.start > NOW)).toBe(true);
  });

  it('keeps job changes visible: the same person writes from two companies', () => {
    const { world } = sandboxAt().user('jane.doe@acme.com');
    const movers = world.people.filter((person) => person.formerEmail);
    expect(movers.length).toBeGreaterThan(3);
    for (const person of movers) expect(person.formerEmail?.split('@')[1]).not.toBe(person.email.split('@')[1]);
  });

  it('bounces mail sent to addresses that no longer exist, as Gmail reports it', () => {
    const email = 'jane.doe@acme.com';
    const { world, mailbox } = sandboxAt().user(email);
    const messages = mailbox.all();
    const bounces = messages.filter((message) => message.from.email === 'mailer-daemon@googlemail.com');
    const movers = new Map(
      world.people.flatMap((person) => (person.formerEmail ? [[person.formerEmail, person]] : [])),
    );
    const addresses = new Set(world.people.map((person) => person.email));
    let stale = 0;
    for (const bounce of bounces) {
      const [failed, ...more] = bounce.failedRecipients ?? [];
      expect(more).toEqual([]);
      // In the thread of the mail that caused it, seconds later.
      const sent = mailbox.thread(bounce.threadId)?.find((message) => message.labelIds.includes('SENT'));
      expect(sent?.to.map((address) => address.email)).toEqual([failed]);
      expect(bounce.internalDate - (sent?.internalDate ?? 0)).toBeLessThanOrEqual(40_000);
      const headers = Object.fromEntries(headersOf(bounce, mailbox).map((header) => [header.name, header.value]));
      expect(headers).toMatchObject({
        From: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
        To: email,
        Subject: 'Delivery Status Notification (Failure)',
        'X-Failed-Recipients': failed,
        'Auto-Submitted': 'auto-replied',
        'In-Reply-To': expect.stringMatching(/^<.+>$/),
        'Content-Type': expect.stringContaining('report-type=delivery-status'),
      });
      // An old address of someone who had left by then, or a mistyped one that was never anyone's.
      const mover = movers.get(failed ?? '');
      if (mover) {
        expect(bounce.internalDate).toBeGreaterThan(mover.changedAt ?? Number.POSITIVE_INFINITY);
        stale++;
      } else {
        expect(addresses.has(failed ?? '')).toBe(false);
      }
    }
    expect(stale).toBeGreaterThan(3);
    expect(bounces.length).toBeGreaterThan(stale);
    expect(bounces.length).toBeLessThan(movers.size * 2);
    // None of the other mail names an address after its owner left it.
    for (const message of messages) {
      if (message.failedRecipients || bounces.some((bounce) => bounce.threadId === message.threadId)) continue;
      for (const address of [message.from, ...message.to, ...message.cc]) {
        const mover = movers.get(address.email);
        if (mover) expect(message.internalDate).toBeLessThan(mover.changedAt ?? 0);
      }
    }
  });

  it('delivers mail sent to an address before it signs in, once it does', () => {
    const sandbox = sandboxAt();
    const code = sandbox.oauth.issueCode({
      email: 'jane.doe@acme.com',
      clientId: 'client',
      redirectUri: 'http://localhost/callback',
      scopes: ['https://www.googleapis.com/auth/gmail.send'],
      offline: false,
    });
    const tokens = sandbox.oauth.exchangeCode({
      code,
      clientId: 'client',
      clientSecret: 'secret',
      redirectUri: 'http://localhost/callback',
    });
    const raw = Buffer.from('From: jane.doe@acme.com\r\nTo: Later <later@partner.io>\r\nSubject: Early\r\n\r\nHello');
    sandbox.gmailSendMessage(`Bearer ${tokens.access_token}`, {}, 'me', { raw });
    expect(sandbox.isUser('later@partner.io')).toBe(false);
    const later = sandbox.user('later@partner.io').mailbox.all();
    const received = later.find((message) => message.subject === 'Early');
    expect(received?.labelIds).toContain('INBOX');
    expect(received?.from.email).toBe('jane.doe@acme.com');
    expect(sandbox.sentMail()[0]?.deliveredTo).toEqual(['later@partner.io']);
  });
});
