import { describe, expect, it } from 'vitest';
import { blocklistOf } from './blocklist.ts';

describe('a blocklist', () => {
  const list = blocklistOf(['dr.house@clinic.example', 'lawyers.example']);
  it('blocks an address exactly and a domain with its subdomains, whatever the case', () => {
    expect(list.blocks('Dr.House@Clinic.example')).toBe(true);
    expect(list.blocks('reception@clinic.example')).toBe(false);
    expect(list.blocks('anne@lawyers.example')).toBe(true);
    expect(list.blocks('anne@mail.lawyers.example')).toBe(true);
    expect(list.blocks('anne@notlawyers.example')).toBe(false);
    expect(list.blocks('anne@example')).toBe(false);
  });
  it('blocks nothing when empty', () => {
    expect(blocklistOf([]).blocks('a@b.example')).toBe(false);
  });
});
