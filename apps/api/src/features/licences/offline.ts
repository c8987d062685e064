import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { machineIdSchema, type OfflinePublicKeyResult } from '@soundid/contracts';
import { z } from 'zod';
import { Fault } from '../../lib/fault';

/**
 * Offline activation (docs/offline-activation.md): an app without internet writes an .swinfo
 * request; the portal answers a licence file signed with Ed25519, which the app verifies with
 * the published public key.
 */

export const SWINFO_FORMAT = 'soundid-swinfo';
export const LICENSE_FILE_FORMAT = 'soundid-license';

const swinfoSchema = z.strictObject({
  format: z.literal(SWINFO_FORMAT),
  version: z.literal(1),
  productName: z.string().trim().min(1).max(64),
  machineId: machineIdSchema,
  deviceName: z.string().trim().min(1).max(100),
  /** Random, chosen by the app: the licence file repeats it, binding the answer to this request. */
  nonce: z
    .string()
    .min(16)
    .max(128)
    .regex(/^[A-Za-z0-9_-]+$/),
  appVersion: z.string().max(40).optional(),
  os: z.string().max(80).optional(),
  requestedAt: z.iso.datetime({ offset: true }).optional(),
});
export type SwinfoRequest = z.infer<typeof swinfoSchema>;

/** Parses an .swinfo file's text, or a fault whose Reason says what is wrong with it. */
export function parseSwinfo(text: string): SwinfoRequest {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new Fault('OfflineRequestInvalid', { Reason: 'The file is not an .swinfo request (not JSON).' });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Fault('OfflineRequestInvalid', { Reason: 'The file is not an .swinfo request (not a JSON object).' });
  }
  const record = json as Record<string, unknown>;
  if (record.format !== SWINFO_FORMAT) {
    throw new Fault('OfflineRequestInvalid', {
      Reason: `The file is not an .swinfo request (format is not "${SWINFO_FORMAT}").`,
    });
  }
  if (record.version !== 1) {
    throw new Fault('OfflineRequestInvalid', { Reason: `Unsupported .swinfo version ${String(record.version)}.` });
  }
  const parsed = swinfoSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'file';
    const reason =
      issue?.code === 'unrecognized_keys'
        ? `Unknown field ${issue.keys.join(', ')}.`
        : `Field ${field} is missing or not valid.`;
    throw new Fault('OfflineRequestInvalid', { Reason: reason });
  }
  return parsed.data;
}

/** What the licence file grants; the signature covers exactly the payload's bytes. */
export interface OfflineLicensePayload {
  format: typeof LICENSE_FILE_FORMAT;
  version: 1;
  licenseId: string;
  productName: string;
  machineId: string;
  deviceName: string;
  licenseKind: 'Perpetual' | 'Trial';
  issuedAt: string;
  /** Null for a perpetual licence; the trial's end otherwise. */
  expiresAt: string | null;
  nonce: string;
}

export interface OfflineLicenseFile {
  format: typeof LICENSE_FILE_FORMAT;
  version: 1;
  keyId: string;
  algorithm: 'Ed25519';
  /** base64url of the payload JSON's UTF-8 bytes. */
  payload: string;
  /** base64url Ed25519 signature over those bytes. */
  signature: string;
}

/** Holds the signing key; the public half is published for the apps. */
export class OfflineLicenseSigner {
  readonly keyId: string;
  readonly publicKeyPem: string;
  constructor(private readonly privateKey: KeyObject) {
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('The offline licence key must be Ed25519');
    const publicKey = createPublicKey(privateKey);
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    this.keyId = keyIdOf(publicKey);
  }

  publicKey(): OfflinePublicKeyResult {
    return { Algorithm: 'Ed25519', KeyId: this.keyId, PublicKeyPem: this.publicKeyPem };
  }

  sign(payload: OfflineLicensePayload): string {
    const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
    const file: OfflineLicenseFile = {
      format: LICENSE_FILE_FORMAT,
      version: 1,
      keyId: this.keyId,
      algorithm: 'Ed25519',
      payload: bytes.toString('base64url'),
      signature: sign(null, bytes, this.privateKey).toString('base64url'),
    };
    return `${JSON.stringify(file, null, 2)}\n`;
  }
}

function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/**
 * What an app does offline: checks the file's signature with the published key, and that it
 * is for this machine. Returns the payload, or throws with the reason.
 */
export function verifyOfflineLicense(
  fileText: string,
  publicKeyPem: string,
  machineId?: string,
): OfflineLicensePayload {
  const file = JSON.parse(fileText) as Partial<OfflineLicenseFile>;
  if (file.format !== LICENSE_FILE_FORMAT || file.version !== 1 || file.algorithm !== 'Ed25519') {
    throw new Error('not a SoundID licence file');
  }
  if (typeof file.payload !== 'string' || typeof file.signature !== 'string')
    throw new Error('licence file incomplete');
  const bytes = Buffer.from(file.payload, 'base64url');
  const publicKey = createPublicKey(publicKeyPem);
  if (!verify(null, bytes, publicKey, Buffer.from(file.signature, 'base64url'))) {
    throw new Error('signature does not verify');
  }
  const payload = JSON.parse(bytes.toString('utf8')) as OfflineLicensePayload;
  if (machineId !== undefined && payload.machineId !== machineId) throw new Error('licence is for another machine');
  return payload;
}

export const OFFLINE_KEY_FILE = 'offline-license-key.pem';

/**
 * The signing key: PEM (PKCS#8) given by configuration, else DATA_DIR/offline-license-key.pem,
 * generated there once outside production. In production without either, offline
 * activation answers OfflineActivationUnavailable: replicas must share one key.
 */
export function loadOfflineSigner(options: {
  pem?: string | undefined;
  dataDir: string;
  isProduction: boolean;
}): OfflineLicenseSigner | undefined {
  if (options.pem) return new OfflineLicenseSigner(createPrivateKey(options.pem.replace(/\\n/g, '\n')));
  const file = path.join(options.dataDir, OFFLINE_KEY_FILE);
  if (existsSync(file)) return new OfflineLicenseSigner(createPrivateKey(readFileSync(file, 'utf8')));
  if (options.isProduction) return undefined;
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  try {
    writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as { code?: string }).code === 'EEXIST')
      return new OfflineLicenseSigner(createPrivateKey(readFileSync(file, 'utf8')));
    throw error;
  }
  return new OfflineLicenseSigner(privateKey);
}
