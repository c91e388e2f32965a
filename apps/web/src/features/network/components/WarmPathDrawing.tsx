import { Box } from '@mantine/core';
import type { ProximityBandName } from '@warmpath/shared';
import { initialOf } from '../networkDisplay.ts';
import { clip, layoutPath, PATH_WIDTH, type PathPerson, type WarmPath, warmPathLabel } from '../pictures.ts';

export type WarmPathDrawingProps = {
  path: WarmPath;
  /** What the picture says to a screen reader; by default the whole path in words (`warmPathLabel`). */
  label?: string;
};

const AVATAR_X = 22;
const AVATAR_R = 18;
const TEXT_X = 52;
/** Characters of a name or a role that fit right of the avatar at their size. */
const NAME_CHARS = 38;
const ROLE_CHARS = 46;
const BAND_STROKES: Record<ProximityBandName, { color: string; width: number }> = {
  High: { color: 'var(--mantine-color-green-7)', width: 4 },
  Medium: { color: 'var(--mantine-color-yellow-7)', width: 3 },
  Low: { color: 'var(--mantine-color-gray-6)', width: 2 },
};
const BAND_TEXT: Record<ProximityBandName, string> = {
  High: 'var(--mantine-color-green-9)',
  Medium: 'var(--mantine-color-yellow-9)',
  Low: 'var(--mantine-color-gray-8)',
};
const AVATAR_COLORS: Record<PathPerson['kind'], { fill: string; stroke: string }> = {
  you: { fill: 'var(--mantine-color-gray-1)', stroke: 'var(--mantine-color-gray-6)' },
  connector: { fill: 'var(--mantine-color-blue-1)', stroke: 'var(--mantine-color-blue-6)' },
  prospect: { fill: 'var(--mantine-color-orange-1)', stroke: 'var(--mantine-color-orange-6)' },
};

/**
 * A warm path drawn: you, whoever links you to the prospect, the prospect, each link with how strong
 * it is and through what. Inline SVG (nothing to fetch), at most 360 px wide and never wider than
 * its container; the drawing is one image whose name says the whole path.
 */
export function WarmPathDrawing({ path, label }: WarmPathDrawingProps) {
  const layout = layoutPath(path);
  return (
    <Box
      component="svg"
      viewBox={`0 0 ${PATH_WIDTH} ${layout.height}`}
      w="100%"
      maw={PATH_WIDTH}
      display="block"
      // Never squeezed by a scrolling column (the explanation's popover): it scales to fit, and a
      // shrunk height drew the whole path 40 px wide.
      style={{ flexShrink: 0 }}
      role="img"
      aria-label={label ?? warmPathLabel(path)}
    >
      {layout.links.map(({ link, top, bottom, lines }) => {
        const stroke = link.band ? BAND_STROKES[link.band] : null;
        return (
          <g key={`link-${top}`}>
            <line
              x1={AVATAR_X}
              y1={top - 4}
              x2={AVATAR_X}
              y2={bottom + 4}
              stroke={stroke?.color ?? 'var(--mantine-color-gray-5)'}
              strokeWidth={stroke?.width ?? 2}
              strokeDasharray={stroke ? undefined : '4 4'}
            />
            <text
              x={TEXT_X}
              y={top + 17}
              fontSize="12"
              fontWeight="700"
              fill={link.band ? BAND_TEXT[link.band] : 'var(--mantine-color-dimmed)'}
            >
              {link.strength}
            </text>
            {lines.map((line, index) => (
              <text key={line} x={TEXT_X} y={top + 32 + index * 15} fontSize="11" fill="var(--mantine-color-text)">
                {line}
              </text>
            ))}
          </g>
        );
      })}
      {layout.people.map(({ person, top }) => (
        <g key={`person-${top}`}>
          <circle
            cx={AVATAR_X}
            cy={top + 22}
            r={AVATAR_R}
            fill={AVATAR_COLORS[person.kind].fill}
            stroke={AVATAR_COLORS[person.kind].stroke}
            strokeWidth="2"
          />
          <text
            x={AVATAR_X}
            y={top + 27}
            textAnchor="middle"
            fontSize="14"
            fontWeight="700"
            fill="var(--mantine-color-text)"
          >
            {initialOf(person.name)}
          </text>
          <text x={TEXT_X} y={top + 19} fontSize="13" fontWeight="600" fill="var(--mantine-color-text)">
            {clip(person.name, NAME_CHARS)}
          </text>
          {person.role === '' ? null : (
            <text x={TEXT_X} y={top + 35} fontSize="11" fill="var(--mantine-color-dimmed)">
              {clip(person.role, ROLE_CHARS)}
            </text>
          )}
        </g>
      ))}
    </Box>
  );
}
