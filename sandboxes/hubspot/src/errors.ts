/**
 * HubSpot's error answers. The CRM answers `{ status: 'error', message, correlationId, category,
 * context? }`; the token endpoint answers `{ status: 'BAD_AUTH_CODE' | ..., message, correlationId }`.
 */
import crypto from 'node:crypto';

export class HubSpotError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : 'error');
  }
}

export const correlationId = () => crypto.randomUUID();

export function crmError(
  statusCode: number,
  category: string,
  message: string,
  extra: Record<string, unknown> = {},
): HubSpotError {
  return new HubSpotError(statusCode, { status: 'error', message, correlationId: correlationId(), category, ...extra });
}

export const validationError = (message: string, extra: Record<string, unknown> = {}) =>
  crmError(400, 'VALIDATION_ERROR', message, extra);

/** The token endpoint's errors: HTTP 400 and the reason in `status`. */
export const oauthError = (status: string, message: string) =>
  new HubSpotError(400, { status, message, correlationId: correlationId() });

export const MISSING_CREDENTIALS =
  'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

/** "expired 7 second(s) ago", as HubSpot words it. */
export function expiredMessage(agoMs: number): string {
  const seconds = Math.max(0, Math.floor(agoMs / 1000));
  const [amount, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.floor(seconds / 60), 'minute']
        : seconds < 86_400
          ? [Math.floor(seconds / 3600), 'hour']
          : [Math.floor(seconds / 86_400), 'day'];
  return `The OAuth token used to make this call expired ${amount} ${unit}(s) ago.`;
}

export function missingScopes(required: readonly string[]): HubSpotError {
  return crmError(
    403,
    'MISSING_SCOPES',
    "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
    {
      errors: [
        { message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: required } },
      ],
      links: { scopes: 'https://developers.hubspot.com/scopes' },
    },
  );
}

export type PropertyProblem = { name: string; error: string; message: string };

/** HubSpot lists invalid property values as JSON inside the message. */
export function propertyError(problems: PropertyProblem[]): HubSpotError {
  const details = problems.map((problem) => ({
    isValid: false,
    message: problem.message,
    error: problem.error,
    name: problem.name,
    localizedErrorMessage: problem.message,
  }));
  return validationError(`Property values were not valid: ${JSON.stringify(details)}`);
}
