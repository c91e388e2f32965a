import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as one function, given to Fastify as its `trustProxy` and used by the built-in identity
 * provider, which is served beside Fastify: both believe the same proxies, and no one else.
 */
export function compileProxyTrust(setting: boolean | string): ProxyTrust {
  if (setting === false) return () => false;
  if (setting === true) return () => true;
  return proxyAddr.compile(setting.split(',').map((address) => address.trim()));
}

/** The client's address: the socket's, or the one the trusted proxies forwarded. */
export function clientAddress(request: IncomingMessage, trust: ProxyTrust): string {
  return proxyAddr(request, trust);
}

/** Whether the request came straight from a trusted proxy, whose X-Forwarded-* headers may be read. */
export function fromTrustedProxy(request: IncomingMessage, trust: ProxyTrust): boolean {
  const peer = request.socket.remoteAddress;
  return peer !== undefined && trust(peer, 0);
}
