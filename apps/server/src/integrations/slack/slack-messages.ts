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

type Said = { text: string; link: { label: string; url: string } };
const about = (text: string, person: Person): Said => ({
  text,
  link: { label: `Open ${person.name} in Warmpath`, url: person.url },
});

/** One sentence per event type a channel receives, with its link back; null for the types it does not. */
function sentence(event: TEventPayload): Said | null {
  switch (event.type) {
    case 'intro.requested':
      return about(
        `${bold(event.data.requestedBy.name)} asked ${bold(event.data.connector.name)} for an intro to ${at(event.data.prospect)}.`,
        event.data.prospect,
      );
    case 'intro.replied':
      return about(
        `${bold(event.data.connector.name)} replied to ${bold(event.data.requestedBy.name)}'s intro request about ${at(event.data.prospect)}.`,
        event.data.prospect,
      );
    case 'job_change.detected':
      return about(
        `${bold(event.data.person.name)} moved${event.data.pastCompanyName ? ` from ${bold(event.data.pastCompanyName)}` : ''} to ${bold(event.data.newCompanyName)}.`,
        event.data.person,
      );
    case 'signal.raised':
      return about(
        `${bold(SIGNAL_LABELS[event.data.signalType])}: ${at(event.data.prospect)}, proximity ${event.data.proximityScore}.`,
        event.data.prospect,
      );
    case 'workflow.triggered': {
      const { bestConnector } = event.data;
      const path = bestConnector
        ? ` Closest path: ${bold(bestConnector.name)}, proximity ${bestConnector.proximity}.`
        : '';
      return about(
        `${bold(event.data.workflow.name)}: ${escapeMrkdwn(SIGNAL_LABELS[event.data.signalType])}, ${at(event.data.prospect)}.${path}`,
        event.data.prospect,
      );
    }
    case 'webhook.disabled':
      return {
        text: `Webhook deliveries stopped: ${escapeMrkdwn(event.data.reason)} Events are no longer sent to ${escapeMrkdwn(event.data.url)}.`,
        link: { label: 'Open the webhook page', url: event.data.settingsUrl },
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
  'webhook.disabled',
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
            text: { type: 'plain_text', text: said.link.label },
            url: said.link.url,
          },
        ],
      },
    ],
  };
}
