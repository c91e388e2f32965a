export type ConnectionProvider = 'LinkedIn' | 'Google';

export type ConnectionIconProps = { provider: ConnectionProvider; connected: boolean };

/** Brand marks from Simple Icons (CC0), drawn in a 24 by 24 box. */
export const BRAND_MARKS: Record<ConnectionProvider, string> = {
  LinkedIn:
    'M20.447 20.452h-3.554v-5.569c0-1.328-.027-3.037-1.852-3.037-1.853 0-2.136 1.445-2.136 2.939v5.667H9.351V9h3.414v1.561h.046c.477-.9 1.637-1.85 3.37-1.85 3.601 0 4.267 2.37 4.267 5.455v6.286zM5.337 7.433c-1.144 0-2.063-.926-2.063-2.065 0-1.138.92-2.063 2.063-2.063 1.14 0 2.064.925 2.064 2.063 0 1.139-.925 2.065-2.064 2.065zm1.782 13.019H3.555V9h3.564v11.452zM22.225 0H1.771C.792 0 0 .774 0 1.729v20.542C0 23.227.792 24 1.771 24h20.451C23.2 24 24 23.227 24 22.271V1.729C24 .774 23.2 0 22.222 0h.003z',
  Google:
    'M12.48 10.92v3.28h7.84c-.24 1.84-.853 3.187-1.787 4.133-1.147 1.147-2.933 2.4-6.053 2.4-4.827 0-8.6-3.893-8.6-8.72s3.773-8.72 8.6-8.72c2.6 0 4.507 1.027 5.907 2.347l2.307-2.307C18.747 1.44 16.133 0 12.48 0 5.867 0 .307 5.387.307 12s5.56 12 12.173 12c3.573 0 6.267-1.173 8.373-3.36 2.16-2.16 2.84-5.213 2.84-7.667 0-.76-.053-1.467-.173-2.053H12.48z',
};

const COLORS: Record<ConnectionProvider, string> = { LinkedIn: '#0a66c2', Google: '#1a73e8' };
const NOT_CONNECTED_COLOR = 'var(--mantine-color-gray-5)';

/** A provider's mark, in its colour when connected and greyed out when not; the label says which. */
export function ConnectionIcon({ provider, connected }: ConnectionIconProps) {
  const label = `${provider} ${connected ? 'connected' : 'not connected'}`;
  return (
    <svg role="img" aria-label={label} width={18} height={18} viewBox="0 0 24 24">
      <title>{label}</title>
      <path d={BRAND_MARKS[provider]} fill={connected ? COLORS[provider] : NOT_CONNECTED_COLOR} />
    </svg>
  );
}
