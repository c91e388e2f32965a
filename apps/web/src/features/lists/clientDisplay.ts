import { type ClientSource, TAG_OPTIONS } from '@warmpath/shared';

// How the client and ally lists show a row (spec section 3), as pure functions.

/** The tags with a colour of their own; any other tag takes the default one. */
const TAG_COLORS: Record<string, string> = {
  ally: 'teal',
  internal: 'violet',
  client: 'blue',
  investor: 'orange',
};
const DEFAULT_TAG_COLOR = 'gray';

/** A tag's colour, whatever its case ('Ally' and 'ally' are one tag). */
export function tagColor(tag: string | null | undefined): string {
  return TAG_COLORS[tag?.trim().toLowerCase() ?? ''] ?? DEFAULT_TAG_COLOR;
}

/** What a tag cell reads: the tag, or 'Unknown' when there is none. */
export function tagLabel(tag: string | null | undefined): string {
  const trimmed = tag?.trim() ?? '';
  return trimmed === '' ? 'Unknown' : trimmed;
}

/**
 * The tag input's suggestions: the spec's tags, then the workspace's own, each once whatever its case,
 * those matching what is typed.
 */
export function tagSuggestions(workspaceTags: readonly string[], typed: string): string[] {
  const needle = typed.trim().toLowerCase();
  const seen = new Set<string>();
  const suggestions: string[] = [];
  for (const tag of [...TAG_OPTIONS, ...workspaceTags]) {
    const key = tag.trim().toLowerCase();
    if (key === '' || seen.has(key) || !key.includes(needle)) continue;
    seen.add(key);
    suggestions.push(tag.trim());
  }
  return suggestions;
}

/** Where a client came from, as the Source column reads it. */
export const SOURCE_LABELS: Record<ClientSource, string> = { manual: 'Added by hand', csv: 'CSV import', crm: 'CRM' };

const activityDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** An account's last activity: its date, or that there has been none yet. */
export function formatActivity(isoTime: string | null): string {
  return isoTime ? activityDate.format(new Date(isoTime)) : 'No activity yet';
}
