// Product analytics (spec section 7): one module, sending to PostHog only when the server's public
// configuration names a project key, and doing nothing otherwise.

import { POSTHOG_HOST } from '@warmpath/shared';

const POSTHOG_CAPTURE_URL = `${POSTHOG_HOST}/capture/`;

export type AnalyticsProperties = Record<string, string | number | boolean | null>;

let projectKey: string | null = null;
let userId: string | null = null;
// Until someone signs in, events of this page load share one anonymous id.
let anonymousId: string | null = null;

/** Set once the public configuration is known; null turns analytics off. */
export function configureAnalytics(posthogKey: string | null): void {
  projectKey = posthogKey === '' ? null : posthogKey;
}

/** Events are the signed-in user's from now on (null: anonymous again). */
export function identifyAnalytics(id: string | null): void {
  userId = id;
}

function distinctId(): string {
  if (userId) return userId;
  anonymousId ??= crypto.randomUUID();
  return anonymousId;
}

/** Records an event; never fails the caller, and sends nothing without a project key. */
export function capture(event: string, properties: AnalyticsProperties = {}): void {
  if (!projectKey) return;
  const body = {
    api_key: projectKey,
    event,
    distinct_id: distinctId(),
    timestamp: new Date().toISOString(),
    properties: { $current_url: window.location.href, ...properties },
  };
  fetch(POSTHOG_CAPTURE_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    // An event sent as the user leaves the page still goes out.
    keepalive: true,
  }).catch(() => undefined);
}
