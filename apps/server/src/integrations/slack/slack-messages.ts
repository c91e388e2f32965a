import type { KnownBlock } from '@slack/web-api';
import { type EventData, type EventType, SIGNAL_LABELS, type TEventPayload } from '@warmpath/shared';

type Person = EventData<'intro.requested'>['prospect'];

/** Slack's mrkdwn needs &, < and > escaped; names come from mailboxes and files. */
const escapeMrkdwn = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const bold = (text: string) => `*${escapeMrkdwn(text)}*`;
const at = (person: Person) => {
  const where = [person.title, person.companyName].filter(Boolean).join(', ');
  return where ? `${bold(person.name)} (${escapeMrkdwn(where)})` : bold(person.name);
};

/** One sentence per event type a channel receives; null for the types it does not. */
function sentence(event: TEventPayload): { text: string; person: Person } | null {
  switch (event.type) {
    case 'intro.requested':
      return {
        text: `${bold(event.data.requestedBy.name)} asked ${bold(event.data.connector.name)} for an intro to ${at(event.data.prospect)}.`,
        person: event.data.prospect,
      };
    case 'intro.replied':
      return {
        text: `${bold(event.data.connector.name)} replied to ${bold(event.data.requestedBy.name)}'s intro request about ${at(event.data.prospect)}.`,
        person: event.data.prospect,
      };
    case 'job_change.detected':
      return {
        text: `${bold(event.data.person.name)} moved${event.data.pastCompanyName ? ` from ${bold(event.data.pastCompanyName)}` : ''} to ${bold(event.data.newCompanyName)}.`,
        person: event.data.person,
      };
    case 'signal.raised':
      return {
        text: `${bold(SIGNAL_LABELS[event.data.signalType])}: ${at(event.data.prospect)}, proximity ${event.data.proximityScore}.`,
        person: event.data.prospect,
      };
    default:
      return null;
  }
}

/** The types a channel receives: what a team acts on, not every change. */
export const SLACK_EVENT_TYPES: readonly EventType[] = [
  'intro.requested',
  'intro.replied',
  'job_change.detected',
  'signal.raised',
];

/**
 * The Block Kit message of an event: the sentence, and a button back to the person in the product.
 * `text` is what notifications and screen readers show.
 */
export function slackMessage(event: TEventPayload): { text: string; blocks: KnownBlock[] } | null {
  const said = sentence(event);
  if (!said) return null;
  // Notifications show plain text: the sentence without its mrkdwn.
  const text = said.text.replaceAll('*', '');
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: said.text } },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: `Open ${said.person.name} in Warmpath` },
            url: said.person.url,
          },
        ],
      },
    ],
  };
}
