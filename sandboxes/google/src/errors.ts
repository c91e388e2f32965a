/** Errors in the shapes Google returns them. */

export type GoogleErrorItem = {
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
};

const STATUS_OF: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  410: 'GONE',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/**
 * An API error, answered as `{ error: { code, message, errors: [{ message, domain, reason }], status } }`
 * (the JSON error body of Gmail, Calendar and People).
 */
export class GoogleApiError extends Error {
  readonly code: number;
  readonly status: string;
  readonly errors: GoogleErrorItem[];
  readonly headers: Record<string, string>;
  readonly details: unknown[] | undefined;

  constructor(
    code: number,
    message: string,
    options: {
      reason?: string;
      domain?: string;
      status?: string;
      headers?: Record<string, string>;
      location?: string;
      locationType?: string;
      details?: unknown[];
    } = {},
  ) {
    super(message);
    this.code = code;
    this.status = options.status ?? STATUS_OF[code] ?? 'UNKNOWN';
    const item: GoogleErrorItem = {
      message,
      domain: options.domain ?? 'global',
      reason: options.reason ?? defaultReason(code),
    };
    if (options.location) item.location = options.location;
    if (options.locationType) item.locationType = options.locationType;
    this.errors = [item];
    this.headers = options.headers ?? {};
    this.details = options.details;
  }

  toBody() {
    const error: {
      code: number;
      message: string;
      errors: GoogleErrorItem[];
      status: string;
      details?: unknown[];
    } = { code: this.code, message: this.message, errors: this.errors, status: this.status };
    if (this.details) error.details = this.details;
    return { error };
  }
}

function defaultReason(code: number): string {
  switch (code) {
    case 400:
      return 'badRequest';
    case 401:
      return 'authError';
    case 403:
      return 'forbidden';
    case 404:
      return 'notFound';
    case 410:
      return 'deleted';
    case 429:
      return 'rateLimitExceeded';
    default:
      return 'backendError';
  }
}

export const notFound = () => new GoogleApiError(404, 'Requested entity was not found.', { reason: 'notFound' });

export const invalidArgument = (message: string) => new GoogleApiError(400, message, { reason: 'invalidArgument' });

/** The OAuth endpoints answer `{ error, error_description }`. */
export class OAuthError extends Error {
  readonly statusCode: number;
  readonly error: string;

  constructor(statusCode: number, error: string, description: string) {
    super(description);
    this.statusCode = statusCode;
    this.error = error;
  }

  toBody() {
    return { error: this.error, error_description: this.message };
  }
}

export const AUTH_MISSING_MESSAGE =
  'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

export const AUTH_INVALID_MESSAGE =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

export function unauthenticated(missing: boolean): GoogleApiError {
  return new GoogleApiError(401, missing ? AUTH_MISSING_MESSAGE : AUTH_INVALID_MESSAGE, {
    reason: missing ? 'required' : 'authError',
    location: 'Authorization',
    locationType: 'header',
    headers: {
      'www-authenticate': missing
        ? 'Bearer realm="https://accounts.google.com/"'
        : 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
    },
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: missing ? 'CREDENTIALS_MISSING' : 'ACCESS_TOKEN_EXPIRED',
        domain: 'googleapis.com',
      },
    ],
  });
}

export function insufficientScopes(): GoogleApiError {
  return new GoogleApiError(403, 'Request had insufficient authentication scopes.', {
    reason: 'insufficientPermissions',
    headers: {
      'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"',
    },
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
        domain: 'googleapis.com',
      },
    ],
  });
}

export function rateLimited(retryAfterSeconds: number, now: number): GoogleApiError {
  const retryAt = new Date(now + retryAfterSeconds * 1000).toISOString();
  return new GoogleApiError(429, `User-rate limit exceeded.  Retry after ${retryAt}`, {
    reason: 'rateLimitExceeded',
    domain: 'usageLimits',
    headers: { 'retry-after': String(retryAfterSeconds) },
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'RATE_LIMIT_EXCEEDED',
        domain: 'googleapis.com',
      },
    ],
  });
}
