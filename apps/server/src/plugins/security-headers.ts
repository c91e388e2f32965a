import { POSTHOG_HOST } from '@warmpath/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { needsToken } from './auth.ts';

/**
 * The Content-Security-Policy of every answer. The web app is built by Vite into script files of its
 * own origin (index.html has no inline script), so scripts come from 'self' only.
 */
export function contentSecurityPolicy(config: Config): string {
  // The web app talks to an external identity provider from the browser (discovery, token, renewal in
  // a hidden frame when there is no refresh token); the built-in one is under /idp, i.e. 'self'.
  const identityProvider = config.oidc.builtIn ? [] : [new URL(config.oidc.issuer).origin];
  const analytics = config.posthogKey ? [POSTHOG_HOST] : [];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    // Mantine (and React Flow) put their CSS variables and component styles in <style> elements they
    // create at run time, and the built-in sign-in page carries its own <style>: styles cannot be
    // limited to files. Inline styles cannot run code; scripts stay 'self' only.
    ['style-src', "'self'", "'unsafe-inline'"],
    // Avatars and company logos are addresses on other sites (Google, LinkedIn, the companies' own).
    ['img-src', "'self'", 'data:', 'https:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...identityProvider, ...analytics],
    ['frame-src', "'self'", ...identityProvider],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  if (config.https) directives.push(['upgrade-insecure-requests']);
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/**
 * The headers every answer carries: pages, API answers, static files, and the built-in identity
 * provider's (which is served beside Fastify, see app.ts). Nothing here stops the tracking snippet
 * and /api/public/track from working on other sites: no Cross-Origin-Resource-Policy, and CORS is
 * the tracking routes' own.
 */
export function securityHeaders(config: Config): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(config),
    // For browsers that predate frame-ancestors.
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // OAuth callbacks carry codes in their address: no page of ours tells another site where it was.
    'referrer-policy': 'no-referrer',
    'permissions-policy':
      'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
    // Only over https: sent over http it would be ignored, and localhost must stay reachable over http.
    ...(config.https ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

async function securityHeadersPlugin(app: FastifyInstance, options: { config: Config }) {
  const headers = Object.entries(securityHeaders(options.config));
  // onSend runs for every answer Fastify sends, errors and static files included.
  app.addHook('onSend', async (request, reply, payload) => {
    for (const [name, value] of headers) reply.header(name, value);
    // An answer for a signed-in caller is theirs alone: no shared or browser cache may keep it.
    if (needsToken(request)) reply.header('cache-control', 'no-store');
    return payload;
  });
}

export const securityHeadersHook = fp(securityHeadersPlugin, { name: 'security-headers' });
