import { SPARKLINE, sparklinePoints } from '../pictures.ts';

export type TrendLineProps = {
  /** One value a day, oldest first. */
  values: readonly number[];
  /** What the line says in words ('Contacts over the last 30 days: from 120 to 586'). */
  label: string;
};

/** A small line of how a count moved, drawn inline: no chart library for 31 points. */
export function TrendLine({ values, label }: TrendLineProps) {
  const { width, height, pad } = SPARKLINE;
  const points = sparklinePoints(values, width, height, pad);
  const last = points.split(' ').at(-1)?.split(',');
  return (
    <svg role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <polyline
        points={points}
        fill="none"
        stroke="var(--mantine-color-teal-7)"
        strokeWidth="2"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
      {last ? <circle cx={last[0]} cy={last[1]} r="2.5" fill="var(--mantine-color-teal-7)" /> : null}
    </svg>
  );
}
