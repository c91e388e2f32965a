import { describe, expect, it } from 'vitest';
import { addressRange, isPublicAddress, parseWebhookUrl } from './address-filter.ts';

// Every range a webhook must not reach, with the name the filter gives it.
const refused: [address: string, range: string, what: string][] = [
  ['10.0.0.1', 'private', 'RFC 1918 10/8'],
  ['10.255.255.255', 'private', 'RFC 1918 10/8, last address'],
  ['172.16.0.1', 'private', 'RFC 1918 172.16/12'],
  ['172.31.255.254', 'private', 'RFC 1918 172.16/12, top'],
  ['192.168.1.1', 'private', 'RFC 1918 192.168/16'],
  ['127.0.0.1', 'loopback', 'loopback'],
  ['127.255.0.9', 'loopback', 'loopback, anywhere in 127/8'],
  ['169.254.169.254', 'linkLocal', 'link-local (cloud metadata)'],
  ['100.64.0.1', 'carrierGradeNat', 'CGNAT 100.64/10'],
  ['100.127.255.254', 'carrierGradeNat', 'CGNAT 100.64/10, top'],
  ['224.0.0.1', 'multicast', 'IPv4 multicast'],
  ['239.255.255.250', 'multicast', 'IPv4 multicast (SSDP)'],
  ['255.255.255.255', 'broadcast', 'limited broadcast'],
  ['0.0.0.0', 'unspecified', 'unspecified'],
  ['0.1.2.3', 'unspecified', '0/8 "this network"'],
  ['240.0.0.1', 'reserved', 'reserved 240/4'],
  ['198.18.0.1', 'reserved', 'benchmarking 198.18/15'],
  ['198.19.255.1', 'reserved', 'benchmarking 198.18/15, second half'],
  ['192.0.0.8', 'reserved', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.1', 'reserved', 'documentation TEST-NET-1'],
  ['198.51.100.7', 'reserved', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'reserved', 'documentation TEST-NET-3'],
  ['192.88.99.1', 'reserved', '6to4 relay anycast'],
  ['::1', 'loopback', 'IPv6 loopback'],
  ['::', 'unspecified', 'IPv6 unspecified'],
  ['fe80::1', 'linkLocal', 'IPv6 link-local fe80::/10'],
  ['febf::1', 'linkLocal', 'IPv6 link-local, top of fe80::/10'],
  ['fec0::1', 'deprecatedSiteLocal', 'IPv6 site-local (deprecated)'],
  ['fc00::1', 'uniqueLocal', 'unique local fc00::/7'],
  ['fd12:3456::1', 'uniqueLocal', 'unique local fd00::/8'],
  ['ff02::1', 'multicast', 'IPv6 multicast'],
  ['2001:db8::1', 'reserved', 'IPv6 documentation'],
  ['3fff::1', 'reserved', 'IPv6 documentation 3fff::/20'],
  ['100::1', 'discard', 'IPv6 discard-only'],
  ['2002:7f00:1::1', '6to4', '6to4 embedding 127.0.0.1'],
  ['2002:808:808::1', '6to4', '6to4 embedding a public IPv4: refused too'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo', 'Teredo'],
  ['64:ff9b::7f00:1', 'rfc6052', 'NAT64 well-known prefix embedding 127.0.0.1'],
  ['64:ff9b::808:808', 'rfc6052', 'NAT64 embedding a public IPv4: refused too'],
  ['64:ff9b:1::a00:1', 'rfc6052', 'NAT64 local-use prefix'],
  ['::ffff:0:7f00:1', 'rfc6145', 'IPv4-translated (SIIT)'],
  ['::7f00:1', 'reserved', 'IPv4-compatible (deprecated) embedding 127.0.0.1'],
  ['::a00:1', 'reserved', 'IPv4-compatible embedding 10.0.0.1'],
  ['5f00::1', 'segmentRouting', 'SRv6 SIDs'],
  ['4000::1', 'reserved', 'outside IPv6 global unicast 2000::/3'],
  ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped loopback, dotted'],
  ['::ffff:7f00:1', 'loopback', 'IPv4-mapped loopback, hex'],
  ['::ffff:10.1.2.3', 'private', 'IPv4-mapped private'],
  ['::ffff:a9fe:a9fe', 'linkLocal', 'IPv4-mapped metadata address'],
  ['0:0:0:0:0:ffff:c0a8:0101', 'private', 'IPv4-mapped, uncompressed'],
];

describe('addressRange / isPublicAddress', () => {
  it.each(refused)('refuses %s (%s: %s)', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255', // just below 172.16/12
    '172.32.0.1', // just above it
    '100.63.255.255', // just below CGNAT
    '100.128.0.1', // just above it
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8', // a mapped public address connects to that public address
  ])('allows the public address %s', (address) => {
    expect(addressRange(address)).toBe('unicast');
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['localhost', 'a DNS name'],
    ['2130706433', 'decimal spelling: only the URL parser may normalise it'],
    ['0177.0.0.1', 'octal spelling'],
    ['0x7f.0.0.1', 'hex spelling'],
    ['127.1', 'short form'],
    ['fe80::1%eth0', 'a zone index'],
    ['2606:4700:4700::1111%1', 'a zone index on a public address'],
    ['[::1]', 'brackets'],
  ])('treats %j as invalid (%s)', (address) => {
    expect(addressRange(address)).toBe('invalid');
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('parseWebhookUrl', () => {
  it('accepts http and https URLs and returns the host', () => {
    const https = parseWebhookUrl(' https://hooks.example.com:8443/in?x=1 ');
    expect(https).toMatchObject({ ok: true, host: 'hooks.example.com', ipVersion: 0 });
    expect(https.ok && https.url.port).toBe('8443');
    expect(parseWebhookUrl('http://8.8.8.8/hook')).toMatchObject({ ok: true, host: '8.8.8.8', ipVersion: 4 });
    expect(parseWebhookUrl('http://[2606:4700:4700::1111]/')).toMatchObject({
      ok: true,
      host: '2606:4700:4700::1111',
      ipVersion: 6,
    });
  });

  it.each([
    ['ftp://example.com/', 'http:// or https://'],
    ['file:///etc/passwd', 'http:// or https://'],
    ['javascript:alert(1)', 'http:// or https://'],
    ['gopher://example.com/', 'http:// or https://'],
    ['https://user:secret@example.com/', 'user name or password'],
    ['https://user@example.com/', 'user name or password'],
    ['not a url', 'not a valid URL'],
    ['example.com/hook', 'not a valid URL'],
    ['', 'not a valid URL'],
  ])('refuses %j', (text, reason) => {
    const parsed = parseWebhookUrl(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toContain(reason);
  });

  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://0xa9fea9fe/', '169.254.169.254'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
  ])('normalises %s to %s, which the filter refuses', (text, host) => {
    const parsed = parseWebhookUrl(text);
    expect(parsed).toMatchObject({ ok: true, host });
    expect(parsed.ok && parsed.ipVersion).not.toBe(0);
    expect(isPublicAddress(host)).toBe(false);
  });
});
