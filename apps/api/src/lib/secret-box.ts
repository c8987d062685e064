import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';
import type { Random } from './clock';

/**
 * Seals small secrets the service must read back (an authenticator app's shared secret) with
 * AES-256-GCM under a key derived from the service's secret (HKDF-SHA-256, one key per purpose):
 * a copy of the database alone reveals none of them (ASVS 11.1.2, ADR 0037).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(
    serviceSecret: string,
    purpose: string,
    private readonly random: Random,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', serviceSecret, 'my-soundid secret box', purpose, 32));
  }

  seal(plaintext: string): string {
    const iv = this.random.bytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The plaintext, or an error when the box was sealed under another key or altered. */
  open(box: string): string {
    if (!box.startsWith('v1.')) throw new Error('unknown secret box version');
    const raw = Buffer.from(box.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
