import { isUnderPath } from '../lib/isUnderPath.ts';

export type RouteTab = { label: string; path: string };

/** The tab whose path is the current path or one of its parents; the fallback otherwise. */
export function activeRouteTab(tabs: readonly RouteTab[], pathname: string, fallback: string): string {
  return tabs.find((tab) => isUnderPath(pathname, tab.path))?.path ?? fallback;
}
