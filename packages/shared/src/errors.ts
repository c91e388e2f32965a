/**
 * What went wrong, in the domain's words: the `code` of every error response. The web app decides on
 * these, never on a message (messages are the spec's texts, written for people) or on an HTTP status
 * (the server maps each code to one, in one place).
 */
export const ERROR_CODES = [
  /** The request is malformed or names something that cannot be done as asked (schema validation included). */
  'VALIDATION_FAILED',
  /** No bearer token, or one that is invalid or expired. */
  'UNAUTHENTICATED',
  /** The caller's role, or their part in the thing, does not allow this. */
  'FORBIDDEN',
  /** A signed-in identity that has no workspace yet (registration comes first). */
  'NOT_REGISTERED',
  /** Signed in, but as another account than the one the request is about (an invitation, a registration). */
  'WRONG_ACCOUNT',
  'NOT_FOUND',
  /** Something with the same identity is already there: a member, an import id. */
  'ALREADY_EXISTS',
  /** The signed-in identity already belongs to a workspace. */
  'ALREADY_REGISTERED',
  /** The action was already completed, skipped or thanked for. */
  'ALREADY_DONE',
  /** A thank-you before anybody replied to the intro request. */
  'NO_REPLY_YET',
  /** A limit on how often: the weekly cap of intro requests, the repeat window of an ask or a message. */
  'LIMIT_REACHED',
  /** Allowed, but worth a second thought (the same intro asked within 30 days): sent again with the request's confirmation. */
  'NEEDS_CONFIRMATION',
  /** The recipient of an e-mail has no address to send it to. */
  'MISSING_EMAIL',
  /** The member's Google account is not connected, so nothing can be sent or synced. */
  'NOT_CONNECTED',
  /** Google refused the connection's tokens: only connecting again helps. */
  'CONNECTION_REVOKED',
  /** A domain that neither the caller's e-mail nor the allow-list lets them claim. */
  'DOMAIN_NOT_WHITELISTED',
  /** A domain that already belongs to another workspace. */
  'DOMAIN_TAKEN',
  /** Removing or demoting the workspace's last admin. */
  'LAST_ADMIN',
  'INVITATION_USED',
  'INVITATION_EXPIRED',
  /** No file, a file that is not a CSV, or too many files. */
  'FILE_INVALID',
  /** A file whose content cannot be read as the expected CSV (no header, broken quoting...). */
  'FILE_UNREADABLE',
  /** An upload that stopped before the whole file arrived. */
  'UPLOAD_INTERRUPTED',
  /** A body or file over its size limit. */
  'TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  /** An import the server could not complete; nothing of it was imported. */
  'IMPORT_FAILED',
  /** Too many requests are waiting for the database: nothing was done; try again after `Retry-After`. */
  'SERVER_BUSY',
  /** The request's work ran past the server's time limit and was stopped: nothing of it was saved. */
  'TIMED_OUT',
  'INTERNAL',
] as const;

export type TErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(code: string): code is TErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code);
}
