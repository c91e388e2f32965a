/** What one attempt at a destination came to: every destination's sender answers this, never a throw. */
export type DeliveryAttempt = {
  /** 'gone': the destination will never take it (disconnected, 410, refused token); no retry. */
  outcome: 'delivered' | 'gone' | 'retry';
  /** The destination's HTTP status; null when it was never reached or speaks no HTTP status. */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The destination's Retry-After, when it rate-limited the attempt. */
  retryAfterMs?: number;
  /** The destination refused our credentials: the connection must be made again. */
  reconnect?: boolean;
  /** What the destination made of it, kept on the delivery (the HubSpot note's id). */
  externalId?: string;
};

/**
 * The points of an attempt where a worker may die: before anything is sent, once Gmail holds a
 * draft (e-mail), and once the destination has answered but before that is recorded. Tests kill a
 * worker at each (`DeliveryDeps.at`); in production nothing listens.
 */
export type DeliveryStep = 'before-send' | 'after-draft' | 'after-send';
export type StepHook = (step: DeliveryStep) => Promise<void>;
