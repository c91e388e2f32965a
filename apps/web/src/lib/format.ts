const numberFormat = new Intl.NumberFormat('en-US');

/** A count as people read it: '3,021'. */
export function formatCount(value: number): string {
  return numberFormat.format(value);
}
