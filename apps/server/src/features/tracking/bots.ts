/**
 * User agents that are not a person reading the page: search and SEO crawlers, the link-preview
 * fetchers of chat and social apps, headless browsers and audits, uptime monitors and HTTP libraries.
 * A page view from one of them would count a visit nobody made, so it is dropped. Compact on purpose:
 * the generic words (bot, crawl, spider) catch most; the rest name those that avoid them.
 */
const BOT_AGENT = new RegExp(
  [
    // Cubot phones are people.
    '(?<!cu)bot',
    'crawl',
    'spider',
    'slurp',
    'headless',
    'lighthouse',
    'pagespeed',
    'phantomjs',
    'prerender',
    'facebookexternalhit',
    'facebookcatalog',
    'whatsapp',
    'skypeuripreview',
    'embedly',
    'link ?preview',
    'google-inspectiontool',
    'googleother',
    'google-read-aloud',
    'apis-google',
    'mediapartners-google',
    'feedfetcher',
    'bingpreview',
    'pingdom',
    'uptime',
    'statuscake',
    '^curl/',
    '^wget/',
    'python-requests',
    'python-urllib',
    'aiohttp',
    'httpx',
    'go-http-client',
    '^java/',
    'okhttp',
    'axios/',
    'node-fetch',
    'libwww-perl',
  ].join('|'),
  'i',
);

/** Whether a request's User-Agent is a known bot, crawler or preview fetcher; no User-Agent at all is one too. */
export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent) return true;
  return BOT_AGENT.test(userAgent);
}
