const numberFormat = new Intl.NumberFormat('en-US');

/** A count as people read it: '3,021'. */
export function formatCount(value: number): string {
  return numberFormat.format(value);
}

/** A count with its noun: '1 result', '3,021 results'. */
export function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
