import { Box } from '@mantine/core';

const PEOPLE = [
  { x: 60, name: 'You', role: 'Sales, your company' },
  { x: 260, name: 'Maya', role: 'Your colleague' },
  { x: 460, name: 'Tom', role: 'CFO at your target' },
] as const;

/**
 * The product in one picture: you, the colleague who knows the buyer, the buyer, and how well each
 * link is known. Drawn inline (no image to fetch): the first page stays light.
 */
export function WarmPathPicture() {
  return (
    <Box
      component="svg"
      viewBox="0 0 520 150"
      w="100%"
      role="img"
      aria-label="A warm path: you ask Maya, your colleague, who has met Tom, the CFO at your target account, twelve times this year, to introduce you."
    >
      <defs>
        <marker
          id="warm-path-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M0,0 L10,5 L0,10 z" fill="var(--mantine-color-orange-6)" />
        </marker>
      </defs>
      <line
        x1="92"
        y1="55"
        x2="226"
        y2="55"
        stroke="var(--mantine-color-gray-5)"
        strokeWidth="3"
        strokeDasharray="6 5"
      />
      <text x="160" y="40" textAnchor="middle" fontSize="12" fill="var(--mantine-color-dimmed)">
        asks for an intro
      </text>
      <line
        x1="292"
        y1="55"
        x2="424"
        y2="55"
        stroke="var(--mantine-color-orange-6)"
        strokeWidth="5"
        markerEnd="url(#warm-path-arrow)"
      />
      <text x="358" y="40" textAnchor="middle" fontSize="12" fill="var(--mantine-color-orange-8)">
        High · 12 meetings
      </text>
      {PEOPLE.map((person) => (
        <g key={person.name}>
          <circle
            cx={person.x}
            cy="55"
            r="30"
            fill={person.name === 'Tom' ? 'var(--mantine-color-orange-1)' : 'var(--mantine-color-blue-1)'}
            stroke={person.name === 'Tom' ? 'var(--mantine-color-orange-6)' : 'var(--mantine-color-blue-6)'}
            strokeWidth="2"
          />
          <text x={person.x} y="60" textAnchor="middle" fontSize="15" fontWeight="700" fill="var(--mantine-color-text)">
            {person.name}
          </text>
          <text x={person.x} y="110" textAnchor="middle" fontSize="12" fill="var(--mantine-color-dimmed)">
            {person.role}
          </text>
        </g>
      ))}
    </Box>
  );
}
