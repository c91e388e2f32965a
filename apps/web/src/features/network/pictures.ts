import type {
  ConnectionSource,
  ProximityBandName,
  TProximityExplanation,
  TReportCards,
  TWarmIntroModalData,
} from '@warmpath/shared';
import { formatCount } from '../../lib/format.ts';
import {
  CONNECTION_SOURCE_LABELS,
  formatPercentage,
  formatTrust,
  orderedSources,
  proximityBand,
} from './networkDisplay.ts';

// The pictures of the network page (warm paths, report card trends) as pure data and geometry, so
// that what they say and where they draw it can be tested without a browser.

export type PathPerson = { name: string; role: string; kind: 'you' | 'connector' | 'prospect' };
/**
 * One link of a warm path. `band` is null for a link that has no score to show ('Teammate': the
 * data has no number for it, and none is invented); such a link is drawn dashed and goes unsaid in
 * the picture's name, the roles saying it already.
 */
export type PathLink = { strength: string; band: ProximityBandName | null; channels: readonly string[] };
/** People in order from you to the prospect, and the links between them (one fewer). */
export type WarmPath = { people: readonly PathPerson[]; links: readonly PathLink[] };

const TEAMMATE: PathLink = { strength: 'Teammate', band: null, channels: [] };

/** A link with a proximity: 'High 82' and its channels in the spec's order (none when they are not shared). */
function scoredLink(proximity: number, sources: readonly ConnectionSource[]): PathLink {
  const band = proximityBand(proximity);
  return {
    strength: `${band} ${proximity}`,
    band,
    channels: orderedSources(sources).map((source) => CONNECTION_SOURCE_LABELS[source]),
  };
}

/**
 * The closest path of a proximity explanation. A strength-only member's path comes without channels
 * (issue 22), so its picture shows none either. The viewer's own path is drawn from you directly.
 */
export function explanationPath(path: TProximityExplanation['paths'][number], prospectName: string): WarmPath {
  const prospect: PathPerson = { name: prospectName, role: 'prospect', kind: 'prospect' };
  const toProspect = scoredLink(
    path.link,
    path.channels.map((channel) => channel.source),
  );
  if (path.kind === 'colleague') {
    if (path.isCurrentUser) {
      return { people: [you(), prospect], links: [toProspect] };
    }
    return {
      people: [you(), { name: path.connectorName, role: 'colleague', kind: 'connector' }, prospect],
      links: [TEAMMATE, toProspect],
    };
  }
  // The trust scales the ally's link into the path's proximity: the ally's role says it.
  const ally: PathPerson = {
    name: path.connectorName,
    role: `ally, trust ${formatTrust(path.trust ?? 0)}`,
    kind: 'connector',
  };
  return allyPath(ally, path.viaName, prospect, toProspect);
}

/** The path of a warm-intro panel: you, whom you ask (the ally's account owner first), the prospect. */
export function introPath(data: TWarmIntroModalData): WarmPath {
  const { connector, target, contactOwner } = data;
  const prospect: PathPerson = { name: target.fullName, role: rolePlace(target), kind: 'prospect' };
  const toProspect = scoredLink(connector.proximity, connector.connectionSources);
  if (data.source === 'connector') {
    return {
      people: [you(), { name: connector.fullName, role: 'colleague', kind: 'connector' }, prospect],
      links: [TEAMMATE, toProspect],
    };
  }
  return allyPath(
    { name: connector.fullName, role: 'ally', kind: 'connector' },
    contactOwner?.fullName ?? null,
    prospect,
    toProspect,
  );
}

const you = (): PathPerson => ({ name: 'You', role: '', kind: 'you' });

function allyPath(ally: PathPerson, ownerName: string | null, prospect: PathPerson, toProspect: PathLink): WarmPath {
  // Nothing in the data scores how well you know an ally: the link says what it is, not how strong.
  const toAlly: PathLink = { strength: 'Ally of the team', band: null, channels: [] };
  if (ownerName === null) return { people: [you(), ally, prospect], links: [toAlly, toProspect] };
  const owner: PathPerson = { name: ownerName, role: `account owner of ${ally.name}`, kind: 'connector' };
  return {
    people: [you(), owner, ally, prospect],
    links: [TEAMMATE, { strength: 'Owns the account', band: null, channels: [] }, toProspect],
  };
}

function rolePlace(person: { jobTitle: string | null; companyName: string | null }): string {
  if (person.jobTitle && person.companyName) return `${person.jobTitle} at ${person.companyName}`;
  return person.jobTitle ?? person.companyName ?? 'prospect';
}

/** What a link says in words: 'High 82: Google meeting, Google mail', or just 'High 82'. */
export function linkWords(link: PathLink): string {
  return link.channels.length > 0 ? `${link.strength}: ${link.channels.join(', ')}` : link.strength;
}

/**
 * The whole path in one sentence, as a screen reader says the picture: 'You → Ada Lovelace
 * (colleague, High 82: Google meeting, Google mail) → Grace Hopper'. Each person between you and the
 * prospect is followed by their role and, when scored, their link onwards (on your own path, the
 * prospect by your link to them).
 */
export function warmPathLabel(path: WarmPath): string {
  return path.people
    .map((person, index) => {
      const onwards = path.links[index];
      const direct = path.links[0];
      // Your own path has nobody between: the link into the prospect is said after them.
      if (path.people.length === 2 && index === 1 && direct?.band) return `${person.name} (${linkWords(direct)})`;
      if (index === 0 || index === path.people.length - 1 || !onwards) return person.name;
      const parts = [person.role, ...(onwards.band === null ? [] : [linkWords(onwards)])];
      return `${person.name} (${parts.join(', ')})`;
    })
    .join(' → ');
}

/** Shortens `text` to `max` characters with an ellipsis: the full text is in the picture's name. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Items joined by ' · ' in lines of at most `max` characters, never split (a longer item has a line of its own). */
export function wrapItems(items: readonly string[], max: number): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 3 + item.length <= max) lines[lines.length - 1] = `${last} · ${item}`;
    else lines.push(item);
  }
  return lines;
}

export const PATH_WIDTH = 360;
const PERSON_HEIGHT = 44;
const LINE_HEIGHT = 15;
/** Characters per line of a link's text at 11 px, in the width right of the line. */
const LINK_CHARS = 48;

export type PathLayout = {
  height: number;
  people: { person: PathPerson; top: number }[];
  links: { link: PathLink; top: number; bottom: number; lines: string[] }[];
};

/**
 * The path drawn top to bottom: each person a row (avatar, name, role), each link a line down to the
 * next with its strength and channels beside it. Vertical, so the picture keeps the width of the
 * narrowest place it is shown in (the explanation, 400 px) whatever the number of people.
 */
export function layoutPath(path: WarmPath): PathLayout {
  const people: PathLayout['people'] = [];
  const links: PathLayout['links'] = [];
  let y = 0;
  path.people.forEach((person, index) => {
    people.push({ person, top: y });
    y += PERSON_HEIGHT;
    const link = path.links[index];
    if (!link || index === path.people.length - 1) return;
    const lines = wrapItems(link.channels, LINK_CHARS);
    const height = Math.max(28, 10 + LINE_HEIGHT * (1 + lines.length));
    links.push({ link, top: y, bottom: y + height, lines });
    y += height;
  });
  return { height: y, people, links };
}

export const SPARKLINE = { width: 96, height: 32, pad: 3 } as const;

/** The polyline of a sparkline: x by index, y from the lowest value (bottom) to the highest (top). */
export function sparklinePoints(values: readonly number[], width: number, height: number, pad: number): string {
  if (values.length === 0) return '';
  const min = Math.min(...values);
  const max = Math.max(...values);
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  const yOf = (value: number) => {
    // A flat line sits at the bottom when it is nothing, in the middle otherwise.
    if (max === min) return max === 0 ? height - pad : height / 2;
    return height - pad - ((value - min) / (max - min)) * (height - 2 * pad);
  };
  return values.map((value, index) => `${round(pad + index * step)},${round(yOf(value))}`).join(' ');
}

const round = (value: number) => Math.round(value * 10) / 10;

/** 'Contacts over the last 30 days: from 1,072 to 1,204'. */
export function trendLabel(label: string, trend: readonly number[]): string {
  return `${label} over the last 30 days: from ${formatCount(trend[0] ?? 0)} to ${formatCount(trend.at(-1) ?? 0)}`;
}

/**
 * A card's change: its growth over 30 days ('+12%'), or 'New this month' when there was nothing 30
 * days ago (a young workspace): a growth from nothing would only say '+100%' for 'everything is new'.
 */
export function cardChange(card: TReportCards['networkRelationships']): string {
  if ((card.trend[0] ?? 0) === 0 && card.amount > 0) return 'New this month';
  return formatPercentage(card.percentage);
}
