// @vitest-environment jsdom
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SNIPPET, SNIPPET_SOURCE } from './snippet.ts';

// The parts of the browser the snippet touches; the server's TypeScript has no DOM types.
type Sent = { key: string; events: Record<string, string | null>[] };
type Browser = {
  jsdom: { reconfigure: (options: { url: string }) => void };
  location: { href: string; pathname: string };
  history: { pushState: (state: unknown, title: string, url: string) => void; back: () => void };
  navigator: Record<string, unknown>;
  localStorage: { clear: () => void; getItem: (key: string) => string | null };
  document: {
    head: { innerHTML: string };
    cookie: string;
  };
  dispatchEvent: (event: unknown) => boolean;
  PopStateEvent: new (type: string) => unknown;
  eval: (source: string) => void;
  warmpath?: unknown;
};
const browser = globalThis as unknown as Browser;
const originalPushState = browser.history.pushState;

let sent: { endpoint: string; body: Sent }[] = [];

/** Opens `url` with the snippet tag of key `k1` from app.warmpath.test, and runs the snippet: a new page. */
function load(url: string, privacy: Record<string, unknown> = {}) {
  browser.history.pushState = originalPushState;
  // A new page has no snippet yet (only, maybe, the queue of calls made before it loads).
  if (!Array.isArray(browser.warmpath)) delete browser.warmpath;
  browser.jsdom.reconfigure({ url });
  browser.document.head.innerHTML =
    '<script async src="https://app.warmpath.test/api/public/snippet.js" data-key="k1"></script>';
  for (const [name, value] of Object.entries({ doNotTrack: null, globalPrivacyControl: undefined, ...privacy })) {
    Object.defineProperty(browser.navigator, name, { value, configurable: true });
  }
  Object.defineProperty(browser.navigator, 'sendBeacon', {
    configurable: true,
    value: (endpoint: string, body: string) => {
      sent.push({ endpoint, body: JSON.parse(body) as Sent });
      return true;
    },
  });
  browser.eval(SNIPPET_SOURCE);
}

beforeEach(() => {
  sent = [];
  browser.localStorage.clear();
});
afterEach(() => {
  browser.history.pushState = originalPushState;
  delete browser.warmpath;
  vi.restoreAllMocks();
});

describe('the snippet', () => {
  it('is under 3 KB gzipped', () => {
    expect(gzipSync(SNIPPET_SOURCE).length).toBeLessThan(3 * 1024);
    expect(SNIPPET.gzipped.length).toBeLessThan(3 * 1024);
  });

  it('sends a page view to the track endpoint beside it, with its key and a first-party id', () => {
    load('https://www.acme.test/pricing?plan=team', {});
    expect(sent).toHaveLength(1);
    const [beacon] = sent;
    expect(beacon?.endpoint).toBe('https://app.warmpath.test/api/public/track');
    expect(beacon?.body.key).toBe('k1');
    const event = beacon?.body.events[0];
    expect(event).toMatchObject({ type: 'page', url: 'https://www.acme.test/pricing?plan=team' });
    expect(event?.anonymousId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(browser.localStorage.getItem('wp_aid')).toBe(event?.anonymousId);
    expect(new Date(event?.occurredAt ?? '').getTime()).toBeGreaterThan(Date.now() - 5000);
  });

  it('keeps the same id from page to page, and sends client-side navigations once per path', () => {
    load('https://www.acme.test/');
    load('https://www.acme.test/about');
    browser.history.pushState(null, '', '/pricing');
    browser.history.pushState(null, '', '/pricing?tab=yearly');
    const ids = sent.map((beacon) => beacon.body.events[0]?.anonymousId);
    expect(new Set(ids).size).toBe(1);
    expect(sent.map((beacon) => new URL(beacon.body.events[0]?.url ?? '').pathname)).toEqual([
      '/',
      '/about',
      '/pricing',
    ]);
    // A client-side navigation came from the page before it.
    expect(sent[2]?.body.events[0]?.referrer).toBe('https://www.acme.test/about');
  });

  it('sends the token of a link from our e-mails once, and takes it out of the address bar', () => {
    load('https://www.acme.test/pricing?utm_source=mail&wp_t=signed.token#plans');
    expect(browser.location.href).toBe('https://www.acme.test/pricing?utm_source=mail#plans');
    expect(sent[0]?.body.events[0]).toMatchObject({ type: 'page', token: 'signed.token' });
    browser.history.pushState(null, '', '/demo');
    expect(sent[1]?.body.events[0]?.token).toBeUndefined();
  });

  it('identifies the visitor for the site’s own forms, and replays calls made before it loaded', () => {
    browser.warmpath = [['identify', 'early@acme.test']];
    load('https://www.acme.test/');
    (browser.warmpath as { identify: (email: string) => void }).identify('ada@acme.test');
    const events = sent.map((beacon) => beacon.body.events[0]);
    expect(events.map((event) => event?.type)).toEqual(['page', 'identify', 'identify']);
    expect(events.slice(1).map((event) => event?.email)).toEqual(['early@acme.test', 'ada@acme.test']);
    expect(new Set(events.map((event) => event?.anonymousId)).size).toBe(1);
  });

  it.each([
    ['Do Not Track', { doNotTrack: '1' }],
    ['Global Privacy Control', { globalPrivacyControl: true }],
  ])('sends and stores nothing under %s, yet still removes the token', (_name, privacy) => {
    load('https://www.acme.test/pricing?wp_t=signed.token', privacy);
    expect(browser.location.href).toBe('https://www.acme.test/pricing');
    (browser.warmpath as { identify: (email: string) => void }).identify('ada@acme.test');
    browser.history.pushState(null, '', '/demo');
    expect(sent).toEqual([]);
    expect(browser.localStorage.getItem('wp_aid')).toBeNull();
    expect(browser.document.cookie).not.toContain('wp_aid');
  });

  it('keeps its id in a first-party cookie when the site’s storage is refused', () => {
    const storage = Object.getPrototypeOf(browser.localStorage) as { setItem: () => void };
    vi.spyOn(storage, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    load('https://www.acme.test/');
    const id = sent[0]?.body.events[0]?.anonymousId;
    expect(browser.document.cookie).toContain(`wp_aid=${id}`);
    load('https://www.acme.test/about');
    expect(sent[1]?.body.events[0]?.anonymousId).toBe(id);
    browser.document.cookie = 'wp_aid=; max-age=0; path=/';
  });

  it('falls back to fetch with keepalive when sendBeacon refuses', () => {
    const fetched: { url: string; init: Record<string, unknown> }[] = [];
    const fetchMock = vi.fn((url: string, init: Record<string, unknown>) => {
      fetched.push({ url, init });
      return Promise.resolve();
    });
    vi.stubGlobal('fetch', fetchMock);
    load('https://www.acme.test/');
    (browser.warmpath as { identify: (email: string) => void }).identify('ada@acme.test');
    expect(fetched).toHaveLength(0);
    Object.defineProperty(browser.navigator, 'sendBeacon', { configurable: true, value: () => false });
    (browser.warmpath as { identify: (email: string) => void }).identify('ada@acme.test');
    expect(fetched).toHaveLength(1);
    expect(fetched[0]?.url).toBe('https://app.warmpath.test/api/public/track');
    expect(fetched[0]?.init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
    vi.unstubAllGlobals();
  });
});
