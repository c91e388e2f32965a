import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSealer, loadEncryptionKey } from './sealing.ts';

describe('sealing', () => {
  const sealer = createSealer(randomBytes(32));

  it('round-trips, and never shows the plaintext or repeats a ciphertext', () => {
    const token = 'ya29.a0-very-secret-refresh-token';
    const first = sealer.seal(token);
    expect(first).not.toContain('secret');
    expect(sealer.seal(token)).not.toBe(first);
    expect(sealer.open(first)).toBe(token);
  });

  it('refuses tampered values and other keys', () => {
    const sealed = sealer.seal('token');
    const [version, iv, tag, body = ''] = sealed.split('.');
    // Flip one bit of the ciphertext itself (editing a base64 character may only touch padding bits).
    const bytes = Buffer.from(body, 'base64url');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const tampered = [version, iv, tag, bytes.toString('base64url')].join('.');
    expect(() => sealer.open(tampered)).toThrow();
    expect(() => createSealer(randomBytes(32)).open(sealed)).toThrow();
    expect(() => sealer.open('plaintext')).toThrow('Not a sealed value');
  });

  it('keeps a generated key in the data directory, the same across loads', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'warmpath-key-'));
    try {
      const first = await loadEncryptionKey({ configured: undefined, dataDir });
      expect(first).toHaveLength(32);
      expect(await loadEncryptionKey({ configured: undefined, dataDir })).toEqual(first);
      expect((await fs.stat(path.join(dataDir, 'encryption-key'))).mode & 0o777).toBe(0o600);
      const configured = randomBytes(32);
      expect(await loadEncryptionKey({ configured: configured.toString('base64'), dataDir })).toEqual(configured);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
