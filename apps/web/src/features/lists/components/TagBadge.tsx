import { Badge } from '@mantine/core';
import { tagColor, tagLabel } from '../clientDisplay.ts';

/** A client's tag in its colour; 'Unknown' when there is none. */
export function TagBadge({ tag }: { tag: string | null }) {
  return (
    <Badge color={tagColor(tag)} variant="light" tt="none">
      {tagLabel(tag)}
    </Badge>
  );
}
