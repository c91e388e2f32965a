import ipaddr from 'ipaddr.js';
import type { Config } from './config.ts';

/**
 * Local mode serves what must never face a network: the built-in identity provider signs anyone in as
 * any e-mail, and the Google, Slack and HubSpot sandboxes show every workspace's sent mail and a reset
 * control without authentication. These are the configurations the server refuses to start with, each
 * with what to change; an empty list means it may start.
 */
export function localModeProblems(config: Config): string[] {
  const problems: string[] = [];
  const production =
    'For a server other machines reach, set LOCAL_MODE=false with an external identity provider (OIDC_ISSUER) and the Google credentials (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET).';
  if (config.localMode) {
    if (!isLoopbackHost(config.host)) {
      problems.push(
        `Local mode listens on loopback only, and HOST=${config.host} is not a loopback address: its built-in sign-in accepts any e-mail and its sandboxes show every workspace's mail without authentication. Use HOST=127.0.0.1. ${production}`,
      );
    }
    const publicHost = new URL(config.publicUrl).hostname;
    if (!isLoopbackHost(publicHost)) {
      problems.push(
        `Local mode is reached on this machine only, and PUBLIC_URL=${config.publicUrl} names another host (a reverse proxy would open the built-in sign-in and the sandboxes to the network). Use http://localhost:${config.port}. ${production}`,
      );
    }
    if (!config.oidc.builtIn) {
      problems.push(
        'LOCAL_MODE=true cannot be combined with an external identity provider (OIDC_ISSUER): the sandboxes would be open beside real accounts. Remove LOCAL_MODE, or set it to false and configure Google.',
      );
    }
  } else {
    if (config.oidc.builtIn) {
      problems.push(
        'LOCAL_MODE=false needs an external identity provider: set OIDC_ISSUER (the built-in one signs anyone in as any e-mail and is served in local mode only).',
      );
    }
    if (!config.google.real) {
      problems.push(
        'Outside local mode Google must be configured: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (the Google sandbox is served in local mode only).',
      );
    }
  }
  if (config.oidc.builtIn && config.https && config.trustProxy === false) {
    problems.push(
      `PUBLIC_URL=${config.publicUrl} is https, so a reverse proxy terminates TLS in front of the built-in identity provider: set TRUST_PROXY (true, a hop count, or the proxy's address) so it sees requests arrive over https and marks its cookies Secure.`,
    );
  }
  return problems;
}

/** Throws one error listing every problem, for main.ts to print before it exits. */
export function assertLocalModeIsLocal(config: Config): void {
  const problems = localModeProblems(config);
  if (problems.length > 0) {
    throw new Error(
      `Warmpath cannot start with this configuration:\n${problems.map((line) => `- ${line}`).join('\n')}`,
    );
  }
}

/** 127.0.0.0/8, ::1 (and IPv4-mapped loopback), `localhost` and its subdomains. */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(name)) return false;
  return ipaddr.process(name).range() === 'loopback';
}
