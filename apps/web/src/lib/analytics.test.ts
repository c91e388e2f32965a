import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { capture, configureAnalytics, identifyAnalytics } from './analytics.ts';

const ZCaptured = z.object({
  api_key: z.string(),
  event: z.string(),
  distinct_id: z.string(),
  timestamp: z.string(),
  properties: z.record(z.string(), z.unknown()),
});

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

function stubFetch(answer: () => Promise<Response> = async () => Response.json({ status: 1 })) {
  const fetchMock = vi.fn<Fetch>(answer);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function sent(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock.mock.calls.map(([url, init]) => ({
    url,
    init,
    body: ZCaptured.parse(JSON.parse(String(init.body))),
  }));
}

afterEach(() => {
  configureAnalytics(null);
  identifyAnalytics(null);
  vi.unstubAllGlobals();
});

describe('capture', () => {
  it('sends nothing without a PostHog key', () => {
    const fetchMock = stubFetch();
    capture('intro sent', { source: 'connector' });
    configureAnalytics('');
    capture('intro sent');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts the event to PostHog's capture endpoint with the key, the user and the properties", () => {
    const fetchMock = stubFetch();
    configureAnalytics('phc_key');
    identifyAnalytics('user-1');
    capture('intro sent', { source: 'client' });
    const [event] = sent(fetchMock);
    expect(sent(fetchMock)).toHaveLength(1);
    expect(event?.url).toBe('https://app.posthog.com/capture/');
    expect(event?.init.method).toBe('POST');
    expect(event?.body).toMatchObject({ api_key: 'phc_key', event: 'intro sent', distinct_id: 'user-1' });
    expect(event?.body.properties).toMatchObject({ source: 'client', $current_url: window.location.href });
  });

  it('gives events before sign-in one anonymous id, and does not throw when PostHog cannot be reached', () => {
    const fetchMock = stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    configureAnalytics('phc_key');
    expect(() => capture('$pageview')).not.toThrow();
    capture('$pageview');
    const ids = sent(fetchMock).map((event) => event.body.distinct_id);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  });
});
