import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/** Encrypts secrets at rest (OAuth tokens) with AES-256-GCM; the output says which format it is. */
export type Sealer = { seal: (plaintext: string) => string; open: (sealed: string) => string };

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('The encryption key must be 32 bytes (base64 of 32 random bytes)');
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Not a sealed value');
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The key from `ENCRYPTION_KEY` (base64 of 32 bytes) or, in local mode, one generated once and kept
 * in DATA_DIR, readable by this user only.
 */
export async function loadEncryptionKey(options: { configured: string | undefined; dataDir: string }) {
  if (options.configured) return Buffer.from(options.configured, 'base64');
  const file = path.join(options.dataDir, 'encryption-key');
  await fs.mkdir(options.dataDir, { recursive: true });
  await fs.writeFile(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
}
