/** Query parameters read the way Google reads them, and opaque page tokens. */
import { GoogleApiError, invalidArgument } from './errors.ts';

export type Query = Record<string, unknown>;

export function asQuery(value: unknown): Query {
  return typeof value === 'object' && value !== null ? (value as Query) : {};
}

/** A single-valued parameter (the first one, when repeated). */
export function stringParam(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    return typeof first === 'string' ? first : undefined;
  }
  return typeof value === 'string' ? value : undefined;
}

/** A repeated parameter (`metadataHeaders=From&metadataHeaders=To`); commas do not split. */
export function listParam(query: Query, name: string): string[] {
  const value = query[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function booleanParam(query: Query, name: string, fallback: boolean): boolean {
  const value = stringParam(query, name);
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalidArgument(`Invalid value at '${name}' (TYPE_BOOL), "${value}"`);
}

export function integerParam(
  query: Query,
  name: string,
  options: { fallback: number; min: number; max: number; rejectAbove?: boolean },
): number {
  const value = stringParam(query, name);
  if (value === undefined || value === '') return options.fallback;
  if (!/^-?\d+$/.test(value)) throw invalidArgument(`Invalid value at '${name}' (TYPE_INT32), "${value}"`);
  const number = Number(value);
  if (number < options.min) throw invalidArgument(`Invalid value at '${name}': must be at least ${options.min}`);
  if (number > options.max) {
    if (options.rejectAbove) throw invalidArgument(`Invalid value at '${name}': must be at most ${options.max}`);
    return options.max;
  }
  return number;
}

/** Page tokens are opaque to clients: base64url JSON with a kind tag so a token fits only its list. */
export function encodePageToken(kind: string, data: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify({ k: kind, ...data }), 'utf8').toString('base64url');
}

export function decodePageToken(kind: string, token: string | undefined): Record<string, unknown> | null {
  if (!token) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && (parsed as Record<string, unknown>).k === kind) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Falls through to the error below.
  }
  throw new GoogleApiError(400, 'Invalid page token.', { reason: 'invalid', status: 'INVALID_ARGUMENT' });
}

export const numberField = (data: Record<string, unknown>, key: string): number => {
  const value = data[key];
  return typeof value === 'number' ? value : 0;
};

export const stringField = (data: Record<string, unknown>, key: string): string => {
  const value = data[key];
  return typeof value === 'string' ? value : '';
};
