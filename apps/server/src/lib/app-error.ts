import type { TErrorCode } from '@warmpath/shared';

/**
 * The one place a domain error code becomes an HTTP status. `satisfies` makes a code without a
 * status, or a status for a code the catalogue does not have, a compile error.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  NOT_CONNECTED: 400,
  CONNECTION_REVOKED: 400,
  FILE_INVALID: 400,
  UPLOAD_INTERRUPTED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_REGISTERED: 403,
  WRONG_ACCOUNT: 403,
  DOMAIN_NOT_WHITELISTED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ALREADY_REGISTERED: 409,
  ALREADY_DONE: 409,
  NO_REPLY_YET: 409,
  DOMAIN_TAKEN: 409,
  LAST_ADMIN: 409,
  NEEDS_CONFIRMATION: 409,
  INVITATION_USED: 409,
  INVITATION_EXPIRED: 410,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MISSING_EMAIL: 422,
  FILE_UNREADABLE: 422,
  LIMIT_REACHED: 429,
  IMPORT_FAILED: 500,
  INTERNAL: 500,
  SERVER_BUSY: 503,
  TIMED_OUT: 503,
} as const satisfies Record<TErrorCode, number>;

/** The one error type services throw; the error handler answers `{ code, message }` with the code's status. */
export class AppError extends Error {
  constructor(
    readonly code: TErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
