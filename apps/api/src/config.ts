import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  MAILS_MAX_PER_MAILBOX,
  RELEASE_MAX_BYTES_CEILING,
  RELEASE_MAX_BYTES_DEFAULT,
  type RedirectTarget,
  redirectTargetSchema,
  SIGNUP_MAX_PER_CLIENT,
  SIGNUP_MAX_TOTAL,
} from '@soundid/contracts';
import { z } from 'zod';
import type { HashingPriority, PasswordHashCost } from './features/accounts/passwords';
import { secretWeakness } from './lib/secret-strength';

/**
 * The environment, parsed once at start-up. A wrong value stops the process with a
 * message naming the variable. The names are fixed by the system design.
 */
const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * The service's base URL: PUBLIC_URL, else http://localhost:PORT (PORT defaults to 3000). The
 * operator CLI and the app simulator take the same default from the same variables, so that
 * they find a service started with only PORT set.
 */
export function servicePublicUrl(env: { PUBLIC_URL?: string | undefined; PORT?: string | number | undefined }): string {
  return (env.PUBLIC_URL || `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, '');
}

/** A per-hour allowance (ADR 0031); unset: the contract's production default. */
const hourlyLimit = (fallback: number) =>
  optionalString
    .pipe(
      z
        .string()
        .regex(/^[1-9]\d{0,5}$/, 'must be a whole number from 1 to 999999')
        .optional(),
    )
    .transform((v) => (v ? Number(v) : fallback));

/**
 * The allowances that protect other people (a mailbox's owner, the service from one client's
 * flood) may be lowered in production, not raised above their defaults: a test or development
 * value carried into production is refused, naming the variable. The overall sign-up allowance
 * is the operator's capacity choice and may take any value.
 */
const PRODUCTION_CEILINGS = {
  SIGNUP_LIMIT_PER_CLIENT: SIGNUP_MAX_PER_CLIENT,
  MAIL_LIMIT_PER_MAILBOX: MAILS_MAX_PER_MAILBOX,
} as const;

/** How long a mail's record is kept (ADR 0038): a year and a bit unless set; at most ten years. */
export const MAIL_LOG_RETENTION_DAYS_DEFAULT = 400;
const MAIL_LOG_RETENTION_DAYS_MAX = 3660;

const redirectTargetsSchema = z.array(redirectTargetSchema);

export type { RedirectTarget };

/** The secrets that open something to whoever guesses them: checked for strength in production. */
const productionSecretNames = [
  'SESSION_SECRET',
  'ADMIN_TOKEN',
  'STRIPE_WEBHOOK_SECRET',
  'SHOPIFY_WEBHOOK_SECRET',
  'S3_SECRET_ACCESS_KEY',
] as const;

/** The S3 variables besides the bucket: each needs S3_BUCKET, which chooses S3 over the folder. */
const s3DependentNames = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
] as const;

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Loopback unless set: the dev mailbox shows every reset link (ADR 0027). */
    HOST: z.string().default('127.0.0.1'),
    PUBLIC_URL: optionalString.pipe(z.url().optional()),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: optionalString.pipe(z.url().optional()),
    SESSION_SECRET: optionalString.pipe(z.string().min(32).optional()),
    SMTP_URL: optionalString.pipe(z.url().optional()),
    MAIL_FROM: z.string().default('My SoundID <no-reply@soundid.local>'),
    /** Days a mail's record (mail_log) is kept and exported (ADR 0038); older ones are deleted. */
    MAIL_LOG_RETENTION_DAYS: optionalString
      .pipe(
        z
          .string()
          .regex(/^[1-9]\d{0,4}$/, 'must be a whole number of days from 1 to 3660')
          .refine((v) => Number(v) <= MAIL_LOG_RETENTION_DAYS_MAX, {
            message: 'must be a whole number of days from 1 to 3660',
          })
          .optional(),
      )
      .transform((v) => (v ? Number(v) : MAIL_LOG_RETENTION_DAYS_DEFAULT)),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Another Stripe API base (stripe-mock, a test stand-in); unset: api.stripe.com. */
    STRIPE_API_URL: optionalString.pipe(z.url().optional()),
    /** Ed25519 private key (PKCS#8 PEM, \n allowed for newlines) that signs offline licence files. */
    OFFLINE_LICENSE_SIGNING_KEY: optionalString,
    /** Offline activation on the Licenses & Devices page; unset: on outside production only (ADR 0013). */
    OFFLINE_ACTIVATION: z.enum(['true', 'false', '1', '0']).optional(),
    SHOPIFY_STORE_DOMAIN: optionalString,
    SHOPIFY_STOREFRONT_TOKEN: optionalString,
    SHOPIFY_WEBHOOK_SECRET: optionalString,
    /** A custom app's Admin API access token (write_orders): finance's refunds of storefront orders (ADR 0059). */
    SHOPIFY_ADMIN_TOKEN: optionalString,
    /** Comma-separated Product GIDs of the voice AI perpetual licence (gid://shopify/Product/<number>). */
    SHOPIFY_VOICE_AI_PRODUCT_IDS: optionalString.pipe(
      z
        .string()
        .regex(/^gid:\/\/shopify\/Product\/\d+(\s*,\s*gid:\/\/shopify\/Product\/\d+)*$/, {
          message: 'must be comma-separated product GIDs, e.g. gid://shopify/Product/7981234567890',
        })
        .optional(),
    ),
    GOOGLE_CLIENT_ID: optionalString,
    APPLE_CLIENT_ID: optionalString,
    FACEBOOK_APP_ID: optionalString,
    FACEBOOK_APP_SECRET: optionalString,
    GOOGLE_JWKS_URL: optionalString.pipe(z.url().optional()),
    GOOGLE_TOKENINFO_URL: optionalString.pipe(z.url().optional()),
    APPLE_JWKS_URL: optionalString.pipe(z.url().optional()),
    FACEBOOK_GRAPH_URL: optionalString.pipe(z.url().optional()),
    APP_TARGET: z.enum(['reference', 'voice-ai', 'profile']).default('reference'),
    ADMIN_TOKEN: optionalString.pipe(z.string().min(24).optional()),
    SUPPORT_CHAT_SCRIPT_URL: optionalString.pipe(z.url().optional()),
    FEATURE_CO_PRODUCER: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    /** This replica works the job queue and keeps its schedules (ADR 0051); 'false': it only queues. */
    JOB_WORKERS: z
      .enum(['true', 'false', '1', '0'])
      .default('true')
      .transform((v) => v === 'true' || v === '1'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    WEB_DIST_DIR: optionalString,
    CONSOLE_DIST_DIR: optionalString,
    REDIRECT_TARGETS: z
      .string()
      .default('[{"Id":"support","Name":"SoundID Support","CallbackUrl":"https://support.sonarworks.com/hc/en-us"}]')
      .transform((raw, ctx) => {
        try {
          return redirectTargetsSchema.parse(JSON.parse(raw));
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {Id, Name, CallbackUrl}' });
          return z.NEVER;
        }
      }),
    /** Password-hashing threads; unset: one fewer than the cores, at least one (ADR 0028). */
    HASHING_THREADS: optionalString.pipe(
      z
        .string()
        .regex(/^[1-9]\d{0,2}$/, { message: 'must be a whole number from 1' })
        .optional(),
    ),
    /**
     * How the hashing threads yield the cores (ADR 0023 addendum): `idle` runs them under
     * Linux's SCHED_IDLE (any other thread that wakes takes the core at once) and niced 10
     * below the process; `nice` only niced.
     */
    HASHING_PRIORITY: optionalString.pipe(z.enum(['idle', 'nice']).default('idle')),
    /**
     * Argon2id parameters: production (OWASP's minimum) unless a test harness asks for argon2's
     * cheapest; refused in production (ADR 0035).
     */
    PASSWORD_HASH_COST: z.enum(['production', 'test']).default('production'),
    APP_LOGIN_SCHEME: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*$/)
      .default('soundid'),
    /** Sign-ups per client address per hour (ADR 0031). */
    SIGNUP_LIMIT_PER_CLIENT: hourlyLimit(SIGNUP_MAX_PER_CLIENT),
    /** Sign-ups from all clients together per hour. */
    SIGNUP_LIMIT_TOTAL: hourlyLimit(SIGNUP_MAX_TOTAL),
    /** Mails customers can cause to one mailbox per hour. */
    MAIL_LIMIT_PER_MAILBOX: hourlyLimit(MAILS_MAX_PER_MAILBOX),
    /**
     * Object storage of the installers (ADR 0046): S3 or any S3-compatible service when S3_BUCKET
     * is set, else the folder DATA_DIR/objects.
     */
    S3_BUCKET: optionalString.pipe(
      z
        .string()
        .regex(
          /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
          'must be a bucket name: 3-63 lower-case letters, digits, dots, dashes',
        )
        .optional(),
    ),
    /** Another S3-compatible endpoint (MinIO, R2, …); unset: AWS's endpoint of S3_REGION. */
    S3_ENDPOINT: optionalString.pipe(
      z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    ),
    S3_REGION: optionalString.pipe(
      z
        .string()
        .regex(/^[a-z0-9-]{2,32}$/, 'must be a region name such as eu-central-1 (auto for R2)')
        .optional(),
    ),
    /** Both or neither; neither: the AWS SDK's own chain (an instance role, AWS_* variables). */
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    /** Bucket in the path (`endpoint/bucket/key`), as MinIO and most S3-compatible services want. */
    S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0']).optional(),
    /** The largest installer an operator may upload, in bytes (ADR 0046). */
    RELEASE_MAX_BYTES: optionalString
      .pipe(
        z
          .string()
          .regex(/^[1-9]\d{0,10}$/, 'must be a whole number of bytes')
          .refine((v) => Number(v) <= RELEASE_MAX_BYTES_CEILING, {
            message: `may not exceed ${RELEASE_MAX_BYTES_CEILING} (5 GiB: one S3 PutObject)`,
          })
          .optional(),
      )
      .transform((v) => (v ? Number(v) : RELEASE_MAX_BYTES_DEFAULT)),
    /** The seller on card purchases' receipts (ADR 0058): name, address (lines split by `;`), VAT ID. */
    RECEIPT_SELLER_NAME: optionalString.pipe(z.string().max(200).optional()),
    RECEIPT_SELLER_ADDRESS: optionalString.pipe(z.string().max(500).optional()),
    RECEIPT_SELLER_TAX_ID: optionalString.pipe(z.string().max(50).optional()),
  })
  .superRefine((env, ctx) => {
    // The storefront is all or nothing: a partial setup would sell licences it cannot grant.
    const shopifyNames = [
      'SHOPIFY_STORE_DOMAIN',
      'SHOPIFY_STOREFRONT_TOKEN',
      'SHOPIFY_WEBHOOK_SECRET',
      'SHOPIFY_VOICE_AI_PRODUCT_IDS',
    ] as const;
    if (shopifyNames.some((name) => env[name])) {
      for (const name of shopifyNames) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required with the other SHOPIFY_*' });
      }
    }
    if (env.SHOPIFY_ADMIN_TOKEN && !env.SHOPIFY_STORE_DOMAIN) {
      ctx.addIssue({ code: 'custom', path: ['SHOPIFY_ADMIN_TOKEN'], message: 'needs the other SHOPIFY_*' });
    }
    // Card checkout likewise: a partial setup would take payments it cannot confirm.
    const stripeNames = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;
    if (stripeNames.some((name) => env[name])) {
      for (const name of stripeNames) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required with the other STRIPE_*' });
      }
    }
    for (const name of s3DependentNames) {
      if (env[name] !== undefined && !env.S3_BUCKET) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'needs S3_BUCKET (unset: installers are kept in DATA_DIR)',
        });
      }
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      const missing = env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'is required with the other S3_*_KEY*' });
    }
    if (env.NODE_ENV !== 'production') return;
    // Customers' browsers follow presigned links to the endpoint: an installer must not travel in the clear.
    if (env.S3_ENDPOINT && URL.canParse(env.S3_ENDPOINT) && new URL(env.S3_ENDPOINT).protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', path: ['S3_ENDPOINT'], message: 'must be https:// in production' });
    }
    for (const name of ['SESSION_SECRET', 'DATABASE_URL', 'PUBLIC_URL', 'ADMIN_TOKEN', 'SMTP_URL'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required in production' });
    }
    // Finance refunds storefront orders through the store's Admin API (ADR 0059).
    if (env.SHOPIFY_STORE_DOMAIN && !env.SHOPIFY_ADMIN_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['SHOPIFY_ADMIN_TOKEN'],
        message: 'is required with the other SHOPIFY_* in production',
      });
    }
    // A card payment's receipt names the seller and where it is (ADR 0058).
    if (env.STRIPE_SECRET_KEY) {
      for (const name of ['RECEIPT_SELLER_NAME', 'RECEIPT_SELLER_ADDRESS'] as const) {
        if (!env[name])
          ctx.addIssue({ code: 'custom', path: [name], message: 'is required with STRIPE_* in production' });
      }
    }
    // Production refuses what a guess or a network observer would open (ADR 0027).
    if (env.PUBLIC_URL && URL.canParse(env.PUBLIC_URL) && new URL(env.PUBLIC_URL).protocol !== 'https:') {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'must be https:// in production (Secure session cookie, HSTS)',
      });
    }
    for (const name of productionSecretNames) {
      const value = env[name];
      const weakness = value === undefined ? undefined : secretWeakness(value);
      if (weakness) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `${weakness.reason}: use a random value, e.g. openssl rand -base64 32`,
        });
      }
    }
    if (env.PASSWORD_HASH_COST !== 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['PASSWORD_HASH_COST'],
        message: 'must be production in production: the test cost is far below OWASP minimum for argon2id',
      });
    }
    if (env.ADMIN_TOKEN && env.ADMIN_TOKEN === env.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_TOKEN'], message: 'must differ from SESSION_SECRET' });
    }
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    for (const [name, ceiling] of Object.entries(PRODUCTION_CEILINGS) as [keyof typeof PRODUCTION_CEILINGS, number][]) {
      if (env[name] > ceiling) {
        ctx.addIssue({ code: 'custom', path: [name], message: `may not exceed ${ceiling} in production` });
      }
    }
  });

export type Env = z.output<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string;
  adminToken: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Days a mail's record is kept and exported (ADR 0038). */
  mailLogRetentionDays: number;
  /** Whether this process works the job queue and keeps its schedules (ADR 0051). */
  jobWorkers: boolean;
  appTarget: Env['APP_TARGET'];
  trustProxy: boolean;
  logLevel: Env['LOG_LEVEL'];
  webDistDir: string | undefined;
  /** The back-office console's build, served under /console (ADR 0047). */
  consoleDistDir: string | undefined;
  supportChatScriptUrl: string | undefined;
  redirectTargets: RedirectTarget[];
  /** Custom protocol of the desktop apps' login deeplink. */
  appLoginScheme: string;
  /** Threads hashing passwords at once (ADR 0028). */
  hashingThreads: number;
  /** Argon2id parameters: `test` (argon2's cheapest) only outside production (ADR 0035). */
  passwordHashCost: PasswordHashCost;
  /** How the hashing threads yield the cores: SCHED_IDLE and niced, or niced (ADR 0023 addendum). */
  hashingPriority: HashingPriority;
  features: { coProducer: boolean };
  social: {
    google?: { clientId: string; jwksUrl?: string; tokenInfoUrl?: string };
    apple?: { clientId: string; jwksUrl?: string };
    facebook?: { appId: string; appSecret: string; graphUrl?: string };
  };
  stripe?: { secretKey: string; publishableKey: string; webhookSecret: string; apiUrl?: string };
  shopify?: {
    storeDomain: string;
    storefrontToken: string;
    webhookSecret: string;
    voiceAiProductIds: string[];
    /** The Admin API token finance's refunds use; unset (outside production only): refunds in the Shopify admin. */
    adminToken?: string;
  };
  /** PEM of the offline licence signing key; unset: DATA_DIR/offline-license-key.pem (not in production). */
  offlineLicenseSigningKey: string | undefined;
  /** Whether customers may activate offline (spec: development environment only, unless configured). */
  offlineActivation: boolean;
  /** Sign-ups per client and overall, mails per mailbox, per hour (ADR 0031). */
  abuseLimits: { signUpsPerClient: number; signUpsTotal: number; mailsPerMailbox: number };
  /** Where installers are kept (ADR 0046). */
  objectStorage: ObjectStorageConfig;
  /** The largest installer an operator may upload, in bytes. */
  releaseMaxBytes: number;
  /** Who sells, as card purchases' receipts name them (ADR 0058). */
  seller: { name: string; address: string[]; taxId: string | undefined };
}

export type ObjectStorageConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    };

/** The seller outside production when RECEIPT_SELLER_NAME is unset. */
export const DEVELOPMENT_SELLER_NAME = 'Sonarworks';

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError naming each bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const dataDir = path.resolve(env.DATA_DIR);
  const needsDataDir = !env.DATABASE_URL || !env.SESSION_SECRET || !env.ADMIN_TOKEN;
  if (needsDataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    publicUrl: servicePublicUrl(env),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    sessionSecret: env.SESSION_SECRET ?? readOrCreateSecret(dataDir, 'session-secret'),
    adminToken: env.ADMIN_TOKEN ?? readOrCreateSecret(dataDir, 'admin-token'),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mailLogRetentionDays: env.MAIL_LOG_RETENTION_DAYS,
    jobWorkers: env.JOB_WORKERS,
    appTarget: env.APP_TARGET,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    webDistDir: env.WEB_DIST_DIR,
    consoleDistDir: env.CONSOLE_DIST_DIR,
    supportChatScriptUrl: env.SUPPORT_CHAT_SCRIPT_URL,
    redirectTargets: env.REDIRECT_TARGETS,
    appLoginScheme: env.APP_LOGIN_SCHEME,
    hashingThreads: env.HASHING_THREADS ? Number(env.HASHING_THREADS) : defaultHashingThreads(),
    passwordHashCost: env.PASSWORD_HASH_COST,
    hashingPriority: env.HASHING_PRIORITY,
    features: { coProducer: env.FEATURE_CO_PRODUCER },
    offlineLicenseSigningKey: env.OFFLINE_LICENSE_SIGNING_KEY,
    offlineActivation:
      env.OFFLINE_ACTIVATION === undefined
        ? !isProduction
        : env.OFFLINE_ACTIVATION === 'true' || env.OFFLINE_ACTIVATION === '1',
    abuseLimits: {
      signUpsPerClient: env.SIGNUP_LIMIT_PER_CLIENT,
      signUpsTotal: env.SIGNUP_LIMIT_TOTAL,
      mailsPerMailbox: env.MAIL_LIMIT_PER_MAILBOX,
    },
    objectStorage: env.S3_BUCKET
      ? {
          kind: 's3',
          bucket: env.S3_BUCKET,
          region: env.S3_REGION ?? 'us-east-1',
          endpoint: env.S3_ENDPOINT,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1',
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : { kind: 'local', dir: path.join(dataDir, 'objects') },
    releaseMaxBytes: env.RELEASE_MAX_BYTES,
    seller: {
      name: env.RECEIPT_SELLER_NAME ?? DEVELOPMENT_SELLER_NAME,
      address: (env.RECEIPT_SELLER_ADDRESS ?? '')
        .split(';')
        .map((line) => line.trim())
        .filter(Boolean),
      taxId: env.RECEIPT_SELLER_TAX_ID,
    },
    social: {
      ...(env.GOOGLE_CLIENT_ID && {
        google: {
          clientId: env.GOOGLE_CLIENT_ID,
          jwksUrl: env.GOOGLE_JWKS_URL,
          tokenInfoUrl: env.GOOGLE_TOKENINFO_URL,
        },
      }),
      ...(env.APPLE_CLIENT_ID && { apple: { clientId: env.APPLE_CLIENT_ID, jwksUrl: env.APPLE_JWKS_URL } }),
      ...(env.FACEBOOK_APP_ID &&
        env.FACEBOOK_APP_SECRET && {
          facebook: {
            appId: env.FACEBOOK_APP_ID,
            appSecret: env.FACEBOOK_APP_SECRET,
            graphUrl: env.FACEBOOK_GRAPH_URL,
          },
        }),
    },
    ...(env.STRIPE_SECRET_KEY &&
      env.STRIPE_PUBLISHABLE_KEY &&
      env.STRIPE_WEBHOOK_SECRET && {
        stripe: {
          secretKey: env.STRIPE_SECRET_KEY,
          publishableKey: env.STRIPE_PUBLISHABLE_KEY,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET,
          ...(env.STRIPE_API_URL && { apiUrl: env.STRIPE_API_URL }),
        },
      }),
    ...(env.SHOPIFY_STORE_DOMAIN &&
      env.SHOPIFY_STOREFRONT_TOKEN &&
      env.SHOPIFY_WEBHOOK_SECRET &&
      env.SHOPIFY_VOICE_AI_PRODUCT_IDS && {
        shopify: {
          storeDomain: env.SHOPIFY_STORE_DOMAIN,
          storefrontToken: env.SHOPIFY_STOREFRONT_TOKEN,
          webhookSecret: env.SHOPIFY_WEBHOOK_SECRET,
          voiceAiProductIds: env.SHOPIFY_VOICE_AI_PRODUCT_IDS.split(',').map((id) => id.trim()),
          ...(env.SHOPIFY_ADMIN_TOKEN && { adminToken: env.SHOPIFY_ADMIN_TOKEN }),
        },
      }),
  };
}

/**
 * One core is left to the event loop and the database: on two cores one thread hashes, so a
 * sign-in flood cannot take the core that signed-in requests are answered on (ADR 0028).
 */
export function defaultHashingThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** A secret generated once into DATA_DIR, readable by its owner only (embedded default). */
function readOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}
