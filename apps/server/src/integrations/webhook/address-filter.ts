import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * IPv6 global unicast (2000::/3). ipaddr.js names 'unicast' whatever it has no range for, which
 * includes the IPv4-compatible ::/96 (`::7f00:1` reaches 127.0.0.1 on some stacks) and other
 * unassigned space: outside 2000::/3 nothing is a public Internet host, so it is refused whole.
 */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * The range an IP address belongs to: 'unicast' for a public address a webhook may reach,
 * otherwise ipaddr.js's name for it ('private', 'loopback', 'linkLocal', 'carrierGradeNat',
 * 'multicast', 'broadcast', 'unspecified', 'reserved', 'uniqueLocal', 'rfc6052', '6to4', 'teredo'...)
 * or 'invalid' for text that is not an IP address in its canonical spelling.
 */
export function addressRange(address: string): string {
  // Only the spellings a resolver or the WHATWG URL parser produce: ipaddr.js alone would also read
  // '0177.1' or '0x7f.1' (inet_aton forms), which must never reach this point unnormalised.
  // A zone index ('fe80::1%eth0') names an interface, never a public host.
  if (isIP(address) === 0 || address.includes('%')) return 'invalid';
  // IPv4-mapped IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1) connects to the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast') return range;
  if (parsed.kind() === 'ipv6' && !parsed.match(IPV6_GLOBAL_UNICAST)) return 'reserved';
  return 'unicast';
}

/** Whether a webhook may connect to this IP address: public unicast only. */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

export type ParsedWebhookUrl = {
  ok: true;
  url: URL;
  /** The host to connect to: a DNS name, or an IP address without IPv6 brackets. */
  host: string;
  /** 4 or 6 when the host is an IP literal (no DNS lookup happens for it), 0 for a DNS name. */
  ipVersion: 0 | 4 | 6;
};

export type WebhookUrlRefusal = { ok: false; reason: string };

/**
 * Parses a webhook URL: http or https only, no user name or password. The WHATWG parser normalises
 * every IPv4 spelling (`http://2130706433/`, `http://0177.0.0.1/`, `http://0x7f.1/`) to dotted
 * decimal, so the host returned here is what the address filter must judge.
 */
export function parseWebhookUrl(text: string): ParsedWebhookUrl | WebhookUrlRefusal {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, reason: 'The endpoint URL is not a valid URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'The endpoint URL must start with http:// or https://.' };
  }
  // Credentials in a URL end up in logs and in the delivery log page; the signature authenticates us.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'The endpoint URL must not contain a user name or password.' };
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return { ok: false, reason: 'The endpoint URL has no host.' };
  const version = isIP(host);
  return { ok: true, url, host, ipVersion: version === 4 || version === 6 ? version : 0 };
}
