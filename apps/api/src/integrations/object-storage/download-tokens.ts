import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed token of a folder-storage download link (ADR 0046): whom it is for, which file, and
 * until when, with an HMAC-SHA256 under a key derived from the service's secret. It carries no
 * secret itself; a changed byte, another key or a past expiry is refused.
 */
export interface DownloadGrant {
  customerId: string;
  fileId: string;
  expiresAt: Date;
}

export type DownloadTokenCheck =
  | { ok: true; grant: DownloadGrant }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

const VERSION = 1;

interface Claims {
  v: number;
  sub: string;
  fid: string;
  /** Expiry, epoch milliseconds. */
  exp: number;
}

export class DownloadTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    // A key of its own: a download token can never pass for anything else signed with the secret.
    this.key = createHmac('sha256', secret).update('soundid release download links v1').digest();
  }

  sign(grant: DownloadGrant): string {
    const claims: Claims = {
      v: VERSION,
      sub: grant.customerId,
      fid: grant.fileId,
      exp: grant.expiresAt.getTime(),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  verify(token: string, now: Date): DownloadTokenCheck {
    const [payload, mac, ...rest] = token.split('.');
    if (!payload || !mac || rest.length > 0 || token.length > 1024) return { ok: false, reason: 'malformed' };
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return { ok: false, reason: 'signature' };
    }
    let claims: Partial<Claims>;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Claims>;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (
      claims.v !== VERSION ||
      typeof claims.sub !== 'string' ||
      typeof claims.fid !== 'string' ||
      typeof claims.exp !== 'number'
    ) {
      return { ok: false, reason: 'malformed' };
    }
    if (claims.exp <= now.getTime()) return { ok: false, reason: 'expired' };
    return { ok: true, grant: { customerId: claims.sub, fileId: claims.fid, expiresAt: new Date(claims.exp) } };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
