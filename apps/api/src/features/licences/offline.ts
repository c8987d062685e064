import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
  sign,
  timingSafeEqual,
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
 * the published public key. Offline deactivation (docs/decisions/0053-offline-deactivation.md):
 * the app removes its licence file and writes an .swdeactivate request proved with the licence
 * file's removal secret; the portal frees the seat and answers a signed receipt.
 */

export const SWINFO_FORMAT = 'soundid-swinfo';
export const LICENSE_FILE_FORMAT = 'soundid-license';
export const DEACTIVATION_REQUEST_FORMAT = 'soundid-swdeactivate';
export const DEACTIVATION_RECEIPT_FORMAT = 'soundid-deactivation-receipt';

/** Random, chosen by the app: the licence file repeats it, binding the answer to this request. */
const nonceSchema = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

const swinfoSchema = z.strictObject({
  format: z.literal(SWINFO_FORMAT),
  version: z.literal(1),
  productName: z.string().trim().min(1).max(64),
  machineId: machineIdSchema,
  deviceName: z.string().trim().min(1).max(100),
  nonce: nonceSchema,
  appVersion: z.string().max(40).optional(),
  os: z.string().max(80).optional(),
  requestedAt: z.iso.datetime({ offset: true }).optional(),
});
export type SwinfoRequest = z.infer<typeof swinfoSchema>;

/** Parses an .swinfo file's text, or a fault whose Reason says what is wrong with it. */
export function parseSwinfo(text: string): SwinfoRequest {
  return parseOfflineFile(text, {
    format: SWINFO_FORMAT,
    kind: 'an .swinfo request',
    extension: '.swinfo',
    schema: swinfoSchema,
    fault: 'OfflineRequestInvalid',
  });
}

/**
 * An offline file's text checked step by step, so that the fault's Reason names the first
 * problem: not JSON, not an object, another format, another version, a field, an unknown field.
 */
function parseOfflineFile<T>(
  text: string,
  file: {
    format: string;
    kind: string;
    extension: string;
    schema: z.ZodType<T>;
    fault: 'OfflineRequestInvalid' | 'OfflineDeactivationInvalid';
  },
): T {
  const refuse = (Reason: string) => new Fault(file.fault, { Reason });
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw refuse(`The file is not ${file.kind} (not JSON).`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw refuse(`The file is not ${file.kind} (not a JSON object).`);
  }
  const record = json as Record<string, unknown>;
  if (record.format !== file.format) {
    throw refuse(`The file is not ${file.kind} (format is not "${file.format}").`);
  }
  if (record.version !== 1) throw refuse(`Unsupported ${file.extension} version ${String(record.version)}.`);
  const parsed = file.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'file';
    throw refuse(
      issue?.code === 'unrecognized_keys'
        ? `Unknown field ${issue.keys.join(', ')}.`
        : `Field ${field} is missing or not valid.`,
    );
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
  /**
   * base64url of 32 bytes only this licence file and the service know: the key of the offline
   * deactivation proof. Absent from files issued before offline deactivation (ADR 0053).
   */
  removalSecret?: string;
}

/** A signed offline file: a licence file or a deactivation receipt, told apart by format. */
export interface SignedOfflineFile<Format extends string = string> {
  format: Format;
  version: 1;
  keyId: string;
  algorithm: 'Ed25519';
  /** base64url of the payload JSON's UTF-8 bytes. */
  payload: string;
  /** base64url Ed25519 signature over those bytes. */
  signature: string;
}

export type OfflineLicenseFile = SignedOfflineFile<typeof LICENSE_FILE_FORMAT>;

/** What the deactivation receipt states; the signature covers exactly the payload's bytes. */
export interface DeactivationReceiptPayload {
  format: typeof DEACTIVATION_RECEIPT_FORMAT;
  version: 1;
  licenseId: string;
  productName: string;
  machineId: string;
  /** The licence file's nonce and the request's proof and time, as the request gave them. */
  nonce: string;
  removedAt: string;
  proof: string;
  /** When the service freed the seat. */
  deactivatedAt: string;
}

/** Holds the signing key; the public half is published for the apps. */
export class OfflineLicenseSigner {
  readonly keyId: string;
  readonly publicKeyPem: string;
  /** Derives each licence file's removal secret; from the signing key, so every replica has it. */
  private readonly removalKey: Buffer;
  constructor(private readonly privateKey: KeyObject) {
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('The offline licence key must be Ed25519');
    const publicKey = createPublicKey(privateKey);
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    this.keyId = keyIdOf(publicKey);
    const der = privateKey.export({ type: 'pkcs8', format: 'der' });
    this.removalKey = Buffer.from(hkdfSync('sha256', der, 'soundid-offline', 'licence removal secret v1', 32));
  }

  publicKey(): OfflinePublicKeyResult {
    return { Algorithm: 'Ed25519', KeyId: this.keyId, PublicKeyPem: this.publicKeyPem };
  }

  /** The removal secret of a licence (its DeviceId): base64url of HMAC-SHA256 under the removal key. */
  removalSecret(licenseId: string): string {
    return createHmac('sha256', this.removalKey).update(`removal-secret\n${licenseId}`).digest('base64url');
  }

  sign(payload: OfflineLicensePayload): string {
    return this.signFile(LICENSE_FILE_FORMAT, payload);
  }

  signReceipt(payload: DeactivationReceiptPayload): string {
    return this.signFile(DEACTIVATION_RECEIPT_FORMAT, payload);
  }

  private signFile<Format extends string>(format: Format, payload: { format: Format }): string {
    const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
    const file: SignedOfflineFile<Format> = {
      format,
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
  const payload = verifySignedFile<OfflineLicensePayload>(fileText, publicKeyPem, LICENSE_FILE_FORMAT, 'licence file');
  if (machineId !== undefined && payload.machineId !== machineId) throw new Error('licence is for another machine');
  return payload;
}

/** What an app does with the portal's receipt: checks its signature, and that it answers this request's proof. */
export function verifyDeactivationReceipt(
  fileText: string,
  publicKeyPem: string,
  proof?: string,
): DeactivationReceiptPayload {
  const payload = verifySignedFile<DeactivationReceiptPayload>(
    fileText,
    publicKeyPem,
    DEACTIVATION_RECEIPT_FORMAT,
    'deactivation receipt',
  );
  if (proof !== undefined && payload.proof !== proof) throw new Error('receipt answers another request');
  return payload;
}

/** A signed offline file's payload, once its format, envelope and Ed25519 signature check out. */
function verifySignedFile<Payload extends { format: string }>(
  fileText: string,
  publicKeyPem: string,
  format: Payload['format'],
  kind: string,
): Payload {
  const file = JSON.parse(fileText) as Partial<SignedOfflineFile>;
  if (file.format !== format || file.version !== 1 || file.algorithm !== 'Ed25519') {
    throw new Error(`not a SoundID ${kind}`);
  }
  if (typeof file.payload !== 'string' || typeof file.signature !== 'string') throw new Error(`${kind} incomplete`);
  const bytes = Buffer.from(file.payload, 'base64url');
  const publicKey = createPublicKey(publicKeyPem);
  if (!verify(null, bytes, publicKey, Buffer.from(file.signature, 'base64url'))) {
    throw new Error('signature does not verify');
  }
  const payload = JSON.parse(bytes.toString('utf8')) as Payload;
  // The envelope's format is not signed; the payload's is.
  if (payload.format !== format) throw new Error(`not a SoundID ${kind}`);
  return payload;
}

// ── Offline deactivation (docs/decisions/0053-offline-deactivation.md) ─────

const deactivationRequestSchema = z.strictObject({
  format: z.literal(DEACTIVATION_REQUEST_FORMAT),
  version: z.literal(1),
  /** The licence file's licenseId: the DeviceId. */
  licenseId: z.uuid(),
  productName: z.string().min(1).max(64),
  machineId: machineIdSchema,
  /** The licence file's nonce. */
  nonce: nonceSchema,
  /** When the app removed the licence file, by the machine's clock. */
  removedAt: z.iso.datetime({ offset: true }),
  /** base64url HMAC-SHA256 under the licence file's removal secret (deactivationProof). */
  proof: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});
export type DeactivationRequest = z.infer<typeof deactivationRequestSchema>;
type DeactivationFields = Omit<DeactivationRequest, 'proof'>;

/** Parses an .swdeactivate file's text, or a fault whose Reason says what is wrong with it. */
export function parseDeactivationRequest(text: string): DeactivationRequest {
  return parseOfflineFile(text, {
    format: DEACTIVATION_REQUEST_FORMAT,
    kind: 'an .swdeactivate request',
    extension: '.swdeactivate',
    schema: deactivationRequestSchema,
    fault: 'OfflineDeactivationInvalid',
  });
}

/**
 * The proof of an .swdeactivate request: HMAC-SHA256 keyed with the licence file's removal
 * secret (its bytes) over the request's other fields, one a line, in the schema's order.
 */
export function deactivationProof(removalSecret: string, fields: DeactivationFields): string {
  const canonical = [
    fields.format,
    String(fields.version),
    fields.licenseId,
    fields.productName,
    fields.machineId,
    fields.nonce,
    fields.removedAt,
  ].join('\n');
  return createHmac('sha256', Buffer.from(removalSecret, 'base64url')).update(canonical).digest('base64url');
}

/** Why the service refuses an .swdeactivate request it parsed (OfflineDeactivationInvalid's Reason). */
export const deactivationRefusals = {
  forged: "The file's proof does not match: it was not written from this device's license file.",
  otherMachine: 'The file names another product or machine than the device it was written for.',
  replayed: 'This device is no longer activated: the file was already used, or the device was deactivated another way.',
} as const;

/**
 * The service's check of a request against its device: the proof, recomputed with the removal
 * secret the licence file carried, compared in constant time; then the product and machine.
 */
export function checkDeactivationRequest(
  request: DeactivationRequest,
  device: { machineId: string; productName: string },
  signer: OfflineLicenseSigner,
): void {
  const { proof, ...fields } = request;
  const expected = Buffer.from(deactivationProof(signer.removalSecret(request.licenseId), fields), 'base64url');
  const given = Buffer.from(proof, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new Fault('OfflineDeactivationInvalid', { Reason: deactivationRefusals.forged });
  }
  if (request.machineId !== device.machineId || request.productName !== device.productName) {
    throw new Fault('OfflineDeactivationInvalid', { Reason: deactivationRefusals.otherMachine });
  }
}

/**
 * What the app does to deactivate offline, once it has removed its licence file: the
 * .swdeactivate request's text, from the licence file it held (verified when it was installed).
 * A licence file issued before offline deactivation carries no removal secret: it cannot.
 */
export function writeDeactivationRequest(licenceFileText: string, removedAt: Date): string {
  const file = JSON.parse(licenceFileText) as Partial<OfflineLicenseFile>;
  if (file.format !== LICENSE_FILE_FORMAT || typeof file.payload !== 'string') {
    throw new Error('not a SoundID licence file');
  }
  const licence = JSON.parse(Buffer.from(file.payload, 'base64url').toString('utf8')) as OfflineLicensePayload;
  if (!licence.removalSecret) {
    throw new Error(
      'This licence file was issued before offline deactivation and carries no removal secret: deactivate the machine on the devices panel instead.',
    );
  }
  const fields: DeactivationFields = {
    format: DEACTIVATION_REQUEST_FORMAT,
    version: 1,
    licenseId: licence.licenseId,
    productName: licence.productName,
    machineId: licence.machineId,
    nonce: licence.nonce,
    removedAt: removedAt.toISOString(),
  };
  const request: DeactivationRequest = { ...fields, proof: deactivationProof(licence.removalSecret, fields) };
  return `${JSON.stringify(request, null, 2)}\n`;
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
