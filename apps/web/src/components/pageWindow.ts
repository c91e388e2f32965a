/**
 * The page numbers a pagination shows: `size` consecutive pages around the current one, shifted to
 * stay within 1..totalPages (fewer when there are fewer pages).
 */
export function pageWindow(current: number, totalPages: number, size: number): number[] {
  const last = Math.max(1, totalPages);
  const count = Math.min(size, last);
  const page = Math.min(Math.max(1, current), last);
  const first = Math.min(Math.max(1, page - Math.floor(count / 2)), last - count + 1);
  return Array.from({ length: count }, (_, index) => first + index);
}
