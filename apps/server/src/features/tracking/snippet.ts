import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/**
 * The website snippet, installed with
 * `<script async src="https://<product>/api/public/snippet.js" data-key="<key>"></script>`.
 *
 * It sends a page view on load and on each client-side navigation (history.pushState, popstate), with
 * navigator.sendBeacon as text/plain (no CORS preflight, survives the page closing), else fetch with
 * keepalive. The visitor's id is first-party: 22 random characters in the site's own localStorage (a
 * cookie of the site when storage is refused). Do Not Track and Global Privacy Control mean nothing
 * is sent and nothing is stored. A `wp_t` token (a link from our e-mails) goes with the first page view
 * and leaves the address bar at once. `warmpath.identify(email)` is for the site's own forms; calls
 * queued before the snippet loaded (`window.warmpath = [['identify', email]]`) are replayed.
 *
 * Plain ES2017 without dependencies, kept readable rather than minified: it is well under 3 KB
 * gzipped as it is (snippet.test.ts holds it there).
 */
export const SNIPPET_SOURCE = `(function (w, d, n) {
  var script = d.currentScript || d.querySelector('script[data-key][src*="snippet.js"]');
  var queued = w.warmpath;
  if (!script || (queued && typeof queued.identify === 'function')) return;
  var key = script.getAttribute('data-key');
  var endpoint = script.src.replace(/snippet\\.js([?#].*)?$/, 'track');
  var STORE = 'wp_aid';
  var off = !key || n.doNotTrack === '1' || w.doNotTrack === '1' || n.globalPrivacyControl === true;
  var token = null;
  var anonymousId = null;
  var lastPath = null;
  var lastUrl = d.referrer || null;

  try {
    var landing = new URL(w.location.href);
    token = landing.searchParams.get('wp_t');
    if (token !== null) {
      landing.searchParams.delete('wp_t');
      w.history.replaceState(w.history.state, '', landing.pathname + landing.search + landing.hash);
    }
  } catch (e) {}

  function newId() {
    var chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    var bytes = new Uint8Array(22);
    var id = '';
    w.crypto.getRandomValues(bytes);
    for (var i = 0; i < bytes.length; i++) id += chars[bytes[i] & 63];
    return id;
  }

  function visitorId() {
    if (anonymousId) return anonymousId;
    var id = null;
    try { id = w.localStorage.getItem(STORE); } catch (e) {}
    if (!id) {
      var cookie = d.cookie.match(/(?:^|;\\s*)wp_aid=([A-Za-z0-9_-]{8,64})/);
      id = cookie ? cookie[1] : newId();
    }
    try {
      w.localStorage.setItem(STORE, id);
    } catch (e) {
      d.cookie = STORE + '=' + id + ';path=/;max-age=31536000;SameSite=Lax' + (w.location.protocol === 'https:' ? ';Secure' : '');
    }
    anonymousId = id;
    return id;
  }

  function send(event) {
    event.anonymousId = visitorId();
    event.occurredAt = new Date().toISOString();
    var body = JSON.stringify({ key: key, events: [event] });
    try {
      if (n.sendBeacon && n.sendBeacon(endpoint, body)) return;
    } catch (e) {}
    try {
      w.fetch(endpoint, { method: 'POST', body: body, keepalive: true, credentials: 'omit', headers: { 'content-type': 'text/plain' } })
        .catch(function () {});
    } catch (e) {}
  }

  function page() {
    if (off || w.location.pathname === lastPath) return;
    lastPath = w.location.pathname;
    var event = { type: 'page', url: w.location.href, referrer: lastUrl };
    if (token) event.token = token;
    token = null;
    lastUrl = w.location.href;
    send(event);
  }

  function identify(email) {
    if (off || typeof email !== 'string' || email.indexOf('@') < 1) return;
    send({ type: 'identify', email: email.trim() });
  }

  var pushState = w.history.pushState;
  w.history.pushState = function () {
    var result = pushState.apply(this, arguments);
    page();
    return result;
  };
  w.addEventListener('popstate', page);
  w.warmpath = { identify: identify };
  page();
  if (queued && queued.length) {
    for (var i = 0; i < queued.length; i++) if (queued[i] && queued[i][0] === 'identify') identify(queued[i][1]);
  }
})(window, document, navigator);
`;

const gzipped = gzipSync(SNIPPET_SOURCE, { level: 9 });
const digest = createHash('sha256').update(SNIPPET_SOURCE).digest('base64url').slice(0, 16);

/**
 * The snippet as served: its text, gzipped once at start, and an ETag that changes with it. Cached an
 * hour, then used stale while the browser checks for a new one in the background (a 304 when
 * unchanged) for a day: never `immutable`, since the address stays the same when the snippet changes,
 * and a fix reaches every visitor within a day.
 */
export const SNIPPET = {
  source: SNIPPET_SOURCE,
  gzipped,
  // Weak: the gzipped and the plain answer are the same snippet.
  etag: `W/"${digest}"`,
  cacheControl: 'public, max-age=3600, stale-while-revalidate=86400',
};
