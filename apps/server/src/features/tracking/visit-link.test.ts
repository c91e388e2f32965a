import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { visitLinks } from './visit-link.ts';

describe('visit links', () => {
  const links = visitLinks(randomBytes(32));
  const workspace = randomUUID();
  const person = randomUUID();
  const tokenOf = (link: string) => new URL(link).searchParams.get('wp_t') ?? '';
  afterEach(() => vi.useRealTimers());

  it('names the recipient in their workspace, keeping the rest of the address', () => {
    const link = links.link('https://www.engines.example/?utm_source=mail', workspace, person);
    expect(new URL(link).searchParams.get('utm_source')).toBe('mail');
    expect(links.personOf(tokenOf(link), workspace)).toBe(person);
  });

  it('names nobody when tampered, expired, from another key, or for another workspace', () => {
    const token = tokenOf(links.link('https://www.engines.example/', workspace, person));
    expect(links.personOf(`${token.slice(0, -3)}abc`, workspace)).toBeNull();
    expect(links.personOf(token, randomUUID())).toBeNull();
    expect(visitLinks(randomBytes(32)).personOf(token, workspace)).toBeNull();
    vi.useFakeTimers({ now: Date.now() + 31 * 86_400_000 });
    expect(links.personOf(token, workspace)).toBeNull();
  });
});
