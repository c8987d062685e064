import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A passkey authenticator in software for the API tests (ADR 0039): a P-256 key per credential,
 * "none" attestation, the authenticator data and signatures built by hand as WebAuthn lays
 * them out, so that @simplewebauthn/server checks real bytes.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor> | Record<string, unknown>;

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([
    head(5, entries.length),
    ...entries.flatMap(([k, v]) => [cbor(k as number | string), cbor(v as Cbor)]),
  ]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

export interface SoftwareCredential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];

  constructor(
    private readonly origin: string,
    private readonly settings: {
      aaguid?: string;
      /** Counts signatures (a security key); false: always 0 (most synced passkeys). */
      counts?: boolean;
      verifiesUser?: boolean;
      backedUp?: boolean;
    } = {},
  ) {}

  private flags(extra = 0): number {
    let flags = FLAG_UP | extra;
    if (this.settings.verifiesUser !== false) flags |= FLAG_UV;
    if (this.settings.backedUp) flags |= FLAG_BE | FLAG_BS;
    return flags;
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter, 0);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create's answer, as @simplewebauthn/browser's JSON. */
  register(options: CreationOptions, overrides: { origin?: string; challenge?: string } = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]);
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length, 0);
    const aaguid = Buffer.from(
      (this.settings.aaguid ?? '00000000-0000-0000-0000-000000000000').replaceAll('-', ''),
      'hex',
    );
    const attested = Buffer.concat([aaguid, idLength, id, cbor(coseKey)]);
    const credential: SoftwareCredential = { id, privateKey, userHandle: options.user.id, counter: 0 };
    const authData = this.authData(rpId, this.flags(FLAG_AT), 0, attested);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: overrides.challenge ?? options.challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    this.credentials.push(credential);
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: new Map(), authData })),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get's answer with a discoverable credential (the first, or `credential`). */
  assert(
    options: RequestOptions,
    {
      credential = this.credentials[0],
      origin = this.origin,
    }: { credential?: SoftwareCredential; origin?: string } = {},
  ) {
    if (!credential) throw new Error('no credential');
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    if (this.settings.counts) credential.counter += 1;
    const authData = this.authData(rpId, this.flags(), credential.counter);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** A copy of a credential with its key and counter at this moment: a cloned authenticator. */
  static clone(credential: SoftwareCredential): SoftwareCredential {
    return { ...credential };
  }
}
