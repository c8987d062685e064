import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, startRefusedService } from '../test/kit';
import { ConfigError, DEVELOPMENT_SELLER_NAME, loadConfig } from './config';
import { estimatedSecretBits, secretWeakness } from './lib/secret-strength';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'soundid-config-'));

describe('loadConfig', () => {
  it('runs with nothing set: embedded defaults and secrets generated once, owner-only', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      appTarget: 'reference',
    });
    expect(readFileSync(path.join(dir, 'admin-token'), 'utf8').trim()).toBe(config.adminToken);
    expect(statSync(path.join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('names each bad variable', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty', DATABASE_URL: 'nope' })).toThrow(ConfigError);
    try {
      loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty', REDIRECT_TARGETS: '[{' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/REDIRECT_TARGETS/);
    }
  });

  it('requires real secrets and services in production', () => {
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() });
      expect.unreachable();
    } catch (error) {
      for (const name of ['SESSION_SECRET', 'DATABASE_URL', 'PUBLIC_URL', 'ADMIN_TOKEN', 'SMTP_URL']) {
        expect((error as Error).message).toContain(name);
      }
    }
  });

  it('listens on loopback unless HOST says otherwise: the dev mailbox is not on the network (ASVS 13.4.2)', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).host).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...production, DATA_DIR: dataDir() }).host).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: dataDir(), HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('refuses a partial Stripe configuration in every environment, naming each missing variable', () => {
    for (const NODE_ENV of ['development', 'test', 'production']) {
      const message = refusal({
        ...(NODE_ENV === 'production' ? production : {}),
        NODE_ENV,
        STRIPE_SECRET_KEY: 'sk_live_51HxQfVK0123abcdefXYZ',
      });
      expect(message).toMatch(/STRIPE_PUBLISHABLE_KEY: is required with the other STRIPE_\*/);
      expect(message).toMatch(/STRIPE_WEBHOOK_SECRET: is required with the other STRIPE_\*/);
      expect(message).not.toMatch(/STRIPE_SECRET_KEY/);
    }
    expect(loadConfig({ DATA_DIR: dataDir(), ...stripe }).stripe).toMatchObject({
      secretKey: stripe.STRIPE_SECRET_KEY,
    });
  });
});

/** Strong values, as `openssl rand` gives them: the production configuration every refusal below starts from. */
const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
  PUBLIC_URL: 'https://my.soundid.example',
  SESSION_SECRET: 'UHUb7cHgYV9hL+jjREx5I6aSnANGdLi5zN/M7IuX96M=',
  ADMIN_TOKEN: '05e9d0817ea2d7e023693c91c58cf4959fc3a7d0a8b5318a186ca762b9084223',
  SMTP_URL: 'smtp://mail.example.com:587',
};
const stripe = {
  STRIPE_SECRET_KEY: 'sk_live_51HxQfVK0123abcdefXYZ',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_51HxQfVK0123abcdefXYZ',
  STRIPE_WEBHOOK_SECRET: 'whsec_oLt4PllKB6oJYW9wRX7gIQP2KSJzt1EE',
  // A card payment's receipt names the seller (ADR 0058).
  RECEIPT_SELLER_NAME: 'Sonarworks SIA',
  RECEIPT_SELLER_ADDRESS: 'Street 1; Riga LV-1010; Latvia',
};
/** A real store, with the Admin API token finance's refunds use (ADR 0059). */
const shopify = {
  SHOPIFY_STORE_DOMAIN: 'soundid.myshopify.com',
  SHOPIFY_STOREFRONT_TOKEN: 'public-storefront-token',
  SHOPIFY_WEBHOOK_SECRET: 'f1441a9fbe627abddb9e6510733aadd4c824ad9e9d1e5518fdc1df756cc37ffe',
  SHOPIFY_VOICE_AI_PRODUCT_IDS: 'gid://shopify/Product/7981234567890',
  SHOPIFY_ADMIN_TOKEN: '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',
};

/** The message loadConfig refuses the environment with (fails the test when it is accepted). */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('production refuses unsafe configuration (ADR 0027)', () => {
  it('starts with strong, distinct secrets and an https PUBLIC_URL', () => {
    const config = loadConfig({ ...production, DATA_DIR: dataDir(), ...stripe });
    expect(config.isProduction).toBe(true);
    expect(config.stripe?.webhookSecret).toBe(stripe.STRIPE_WEBHOOK_SECRET);
  });

  it('with card checkout, asks for the seller its receipts name (ADR 0058); elsewhere a development seller stands in', () => {
    const { RECEIPT_SELLER_NAME: _name, RECEIPT_SELLER_ADDRESS: _address, ...withoutSeller } = stripe;
    const message = refusal({ ...production, ...withoutSeller });
    expect(message).toMatch(/RECEIPT_SELLER_NAME: is required with STRIPE_\* in production/);
    expect(message).toMatch(/RECEIPT_SELLER_ADDRESS: is required with STRIPE_\* in production/);
    expect(loadConfig({ ...production, DATA_DIR: dataDir(), ...stripe }).seller).toEqual({
      name: 'Sonarworks SIA',
      address: ['Street 1', 'Riga LV-1010', 'Latvia'],
      taxId: undefined,
    });
    expect(loadConfig({ DATA_DIR: dataDir(), ...withoutSeller }).seller).toEqual({
      name: DEVELOPMENT_SELLER_NAME,
      address: [],
      taxId: undefined,
    });
  });

  it('refuses an http PUBLIC_URL: no Secure cookie, no HSTS (ASVS 3.3.1, 3.4.1, 12.2.1)', () => {
    const message = refusal({ ...production, PUBLIC_URL: 'http://my.soundid.example' });
    expect(message).toMatch(/PUBLIC_URL: must be https:\/\/ in production/);
    expect(refusal({ ...production, PUBLIC_URL: 'ftp://my.soundid.example' })).toMatch(/PUBLIC_URL: must be https/);
    // Not a URL at all: the URL rule names it, and nothing throws on the way.
    expect(refusal({ ...production, PUBLIC_URL: 'my.soundid.example' })).toMatch(/PUBLIC_URL: Invalid URL/);
    // Outside production a plain http URL stays fine (local development).
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'http://localhost:3000' }).publicUrl).toBe(
      'http://localhost:3000',
    );
  });

  // ASVS 11.5.1: non-guessable values carry at least 128 bits of entropy; ASVS 13.2.3: no
  // default or placeholder credentials.
  it.each([
    ['SESSION_SECRET', 'a'.repeat(32), /only 1 distinct characters/],
    ['SESSION_SECRET', 'abcdefgh'.repeat(6), /8-character pattern repeated/],
    ['SESSION_SECRET', 'xK9#mQ2$'.repeat(5), /8-character pattern repeated/],
    ['SESSION_SECRET', 'abababababababababababababababab', /only 2 distinct characters/],
    ['SESSION_SECRET', 'session-secret-0000000000000-prod', /repeats one character 13 times in a row/],
    ['SESSION_SECRET', 'changemechangemexchangemechangeme', /about \d+ bits of entropy/],
    ['ADMIN_TOKEN', 'a'.repeat(24), /only 1 distinct characters/],
    ['ADMIN_TOKEN', 'admin-token-admin-token-admin', /12-character pattern repeated/],
    ['ADMIN_TOKEN', 'operator-token-for-production', /about 110 bits of entropy/],
    ['ADMIN_TOKEN', '6a3a65e56eef9706cf29917502bef318', /about \d+ bits of entropy/],
  ])('refuses %s = %j, naming the variable (ASVS 11.5.1, 13.2.3)', (name, value, reason) => {
    const message = refusal({ ...production, [name]: value });
    expect(message).toContain(`${name}: `);
    expect(message).toMatch(reason);
    expect(message).toMatch(/openssl rand -base64 32/);
  });

  it.each([
    ['STRIPE_WEBHOOK_SECRET', 'whsec_test'],
    ['SHOPIFY_WEBHOOK_SECRET', 'shopify'],
  ])('refuses a guessable %s, which would let anyone sign webhooks (ASVS 11.5.1)', (name, value) => {
    expect(loadConfig({ ...production, DATA_DIR: dataDir(), ...stripe, ...shopify }).shopify).toBeDefined();
    const message = refusal({ ...production, ...stripe, ...shopify, [name]: value });
    expect(message).toContain(`${name}: `);
    // Outside production the sandbox's and the tests' simple secrets stay allowed.
    expect(loadConfig({ DATA_DIR: dataDir(), ...stripe, ...shopify, [name]: value })).toBeDefined();
  });

  it("with a store, asks for the Admin API token finance's refunds go through (ADR 0059); elsewhere it may wait", () => {
    const { SHOPIFY_ADMIN_TOKEN: token, ...withoutToken } = shopify;
    expect(refusal({ ...production, ...withoutToken })).toMatch(
      /SHOPIFY_ADMIN_TOKEN: is required with the other SHOPIFY_\* in production/,
    );
    expect(loadConfig({ ...production, DATA_DIR: dataDir(), ...shopify }).shopify?.adminToken).toBe(token);
    expect(loadConfig({ DATA_DIR: dataDir(), ...withoutToken }).shopify?.adminToken).toBeUndefined();
    // Without a store it has nothing to refund.
    expect(refusal({ SHOPIFY_ADMIN_TOKEN: token })).toMatch(/SHOPIFY_ADMIN_TOKEN: needs the other SHOPIFY_\*/);
  });

  it("refuses PASSWORD_HASH_COST=test, the test runs' cheap argon2id, naming the variable (ADR 0035)", () => {
    expect(refusal({ ...production, PASSWORD_HASH_COST: 'test' })).toMatch(/PASSWORD_HASH_COST: must be production/);
    expect(loadConfig({ ...production, DATA_DIR: dataDir() }).passwordHashCost).toBe('production');
    expect(loadConfig({ ...production, DATA_DIR: dataDir(), PASSWORD_HASH_COST: 'production' })).toBeDefined();
    // Outside production the test harnesses set it; anything but the two names is refused.
    expect(loadConfig({ DATA_DIR: dataDir(), PASSWORD_HASH_COST: 'test' }).passwordHashCost).toBe('test');
    expect(() => loadConfig({ DATA_DIR: dataDir(), PASSWORD_HASH_COST: 'cheap' })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('refuses ADMIN_TOKEN equal to SESSION_SECRET: one leak must not open both (ASVS 13.3.2)', () => {
    const message = refusal({ ...production, ADMIN_TOKEN: production.SESSION_SECRET });
    expect(message).toMatch(/ADMIN_TOKEN: must differ from SESSION_SECRET/);
  });

  it('keeps its 128-bit rule documented by the numbers: random 32-byte values pass, placeholders do not', () => {
    for (const value of [
      production.SESSION_SECRET,
      production.ADMIN_TOKEN,
      'oLt4PllKB6oJYW9wRX7gIQP2KSJzt1EEggEaB1x0g5s=',
      'f1441a9fbe627abddb9e6510733aadd4c824ad9e9d1e5518fdc1df756cc37ffe',
    ]) {
      expect(secretWeakness(value)).toBeUndefined();
      expect(estimatedSecretBits(value)).toBeGreaterThan(200);
    }
    expect(estimatedSecretBits('a'.repeat(64))).toBe(0);
    expect(estimatedSecretBits('0123456789'.repeat(10))).toBeCloseTo(10 * Math.log2(10));
  });

  it('a real production start-up with unsafe values exits 1 and names each variable, no stack (ASVS 11.5.1, 3.3.1)', async () => {
    const port = String(await freePort());
    const started = await startRefusedService(production.DATABASE_URL, {
      ...production,
      PORT: port,
      PUBLIC_URL: 'http://my.soundid.example',
      SESSION_SECRET: 'a'.repeat(32),
      ADMIN_TOKEN: 'a'.repeat(24),
      PASSWORD_HASH_COST: 'test',
    });
    expect(started.code).toBe(1);
    expect(started.output).toMatch(/PASSWORD_HASH_COST: must be production in production/);
    expect(started.output).toMatch(/PUBLIC_URL: must be https:\/\/ in production/);
    expect(started.output).toMatch(/SESSION_SECRET: uses only 1 distinct characters/);
    expect(started.output).toMatch(/ADMIN_TOKEN: uses only 1 distinct characters/);
    expect(started.output).not.toMatch(/\n\s+at /);
  }, 120_000);
});

describe('object storage of the installers (ADR 0046)', () => {
  const s3 = {
    S3_BUCKET: 'soundid-releases',
    S3_ENDPOINT: 'https://s3.eu-central-1.example.com',
    S3_REGION: 'eu-central-1',
    S3_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
    S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    S3_FORCE_PATH_STYLE: 'true',
  };

  it('keeps installers in DATA_DIR/objects unless S3_BUCKET is set; 2 GiB uploads by default', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.objectStorage).toEqual({ kind: 'local', dir: path.join(dir, 'objects') });
    expect(config.releaseMaxBytes).toBe(2 * 1024 ** 3);
    expect(loadConfig({ DATA_DIR: dir, ...s3, RELEASE_MAX_BYTES: '1048576' })).toMatchObject({
      releaseMaxBytes: 1048576,
      objectStorage: {
        kind: 's3',
        bucket: 'soundid-releases',
        endpoint: 'https://s3.eu-central-1.example.com',
        region: 'eu-central-1',
        forcePathStyle: true,
        credentials: { accessKeyId: s3.S3_ACCESS_KEY_ID, secretAccessKey: s3.S3_SECRET_ACCESS_KEY },
      },
    });
    // Without keys the SDK's own chain (an instance role) signs; the region defaults to us-east-1.
    expect(loadConfig({ DATA_DIR: dir, S3_BUCKET: 'soundid-releases' }).objectStorage).toMatchObject({
      kind: 's3',
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
      endpoint: undefined,
    });
  });

  it('names each bad S3_* or RELEASE_MAX_BYTES value', () => {
    expect(refusal({ S3_ENDPOINT: 'https://s3.example.com' })).toMatch(/S3_ENDPOINT: needs S3_BUCKET/);
    expect(refusal({ S3_BUCKET: 'Not_A_Bucket' })).toMatch(/S3_BUCKET: must be a bucket name/);
    expect(refusal({ ...s3, S3_ENDPOINT: 'minio:9000' })).toMatch(
      /S3_ENDPOINT: must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(refusal({ ...s3, S3_REGION: 'EU Central' })).toMatch(/S3_REGION: must be a region name/);
    expect(refusal({ ...s3, S3_FORCE_PATH_STYLE: 'yes' })).toMatch(/S3_FORCE_PATH_STYLE/);
    expect(refusal({ S3_BUCKET: 'soundid-releases', S3_ACCESS_KEY_ID: 'AKIA' })).toMatch(
      /S3_SECRET_ACCESS_KEY: is required with the other S3_\*_KEY\*/,
    );
    expect(refusal({ RELEASE_MAX_BYTES: '2GB' })).toMatch(/RELEASE_MAX_BYTES: must be a whole number of bytes/);
    expect(refusal({ RELEASE_MAX_BYTES: String(5 * 1024 ** 3 + 1) })).toMatch(/RELEASE_MAX_BYTES: may not exceed/);
    expect(loadConfig({ DATA_DIR: dataDir(), RELEASE_MAX_BYTES: String(5 * 1024 ** 3) }).releaseMaxBytes).toBe(
      5 * 1024 ** 3,
    );
  });

  it('production wants an https endpoint and a real secret key; the folder stays allowed (one instance)', () => {
    expect(loadConfig({ ...production, DATA_DIR: dataDir(), ...s3 }).objectStorage.kind).toBe('s3');
    expect(loadConfig({ ...production, DATA_DIR: dataDir() }).objectStorage.kind).toBe('local');
    expect(refusal({ ...production, ...s3, S3_ENDPOINT: 'http://minio.internal:9000' })).toMatch(
      /S3_ENDPOINT: must be https:\/\/ in production/,
    );
    expect(refusal({ ...production, ...s3, S3_SECRET_ACCESS_KEY: 'minioadmin' })).toMatch(/S3_SECRET_ACCESS_KEY: /);
    // Outside production a local MinIO with its default keys is fine.
    expect(
      loadConfig({
        DATA_DIR: dataDir(),
        ...s3,
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_SECRET_ACCESS_KEY: 'minioadmin',
      }).objectStorage.kind,
    ).toBe('s3');
  });
});

describe('retention of the mail records (ADR 0038)', () => {
  // ASVS 5.0 14.2.7: the records of the mails sent are kept a defined time, then deleted.
  it('keeps them 400 days unless MAIL_LOG_RETENTION_DAYS says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).mailLogRetentionDays).toBe(400);
    expect(loadConfig({ DATA_DIR: dataDir(), MAIL_LOG_RETENTION_DAYS: '30' }).mailLogRetentionDays).toBe(30);
    expect(loadConfig({ DATA_DIR: dataDir(), MAIL_LOG_RETENTION_DAYS: '3660' }).mailLogRetentionDays).toBe(3660);
    expect(loadConfig({ DATA_DIR: dataDir(), MAIL_LOG_RETENTION_DAYS: ' ' }).mailLogRetentionDays).toBe(400);
  });

  it('names a MAIL_LOG_RETENTION_DAYS that is no whole number of days from 1 to 3660', () => {
    for (const value of ['0', '-1', '1.5', '30d', 'forever', '3661', '99999']) {
      expect(refusal({ MAIL_LOG_RETENTION_DAYS: value }), value).toMatch(
        /MAIL_LOG_RETENTION_DAYS: must be a whole number of days from 1 to 3660/,
      );
    }
  });
});
