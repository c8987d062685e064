import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fault } from '../../lib/fault';
import { createSocialVerifier, type SocialVerifierOptions } from './index';

const GOOGLE_CLIENT = 'google-client.apps.test';
const APPLE_CLIENT = 'com.soundid.web';
const FB_APP = '1234567890';
const FB_SECRET = 'fb-secret';
const NOW = new Date('2030-01-01T12:00:00Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

interface FacebookToken {
  app_id: string;
  is_valid: boolean;
  user_id: string;
  email?: string;
}

let server: Server;
let base: string;
let key: CryptoKey;
let otherKey: CryptoKey;
const requests: URL[] = [];
const googleAccessTokens = new Map<string, Record<string, unknown>>();
const facebookTokens = new Map<string, FacebookToken>();

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  key = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };

  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    switch (url.pathname) {
      case '/jwks':
        return send(200, { keys: [jwk] });
      case '/tokeninfo': {
        const info = googleAccessTokens.get(url.searchParams.get('access_token') ?? '');
        return info ? send(200, info) : send(400, { error: 'invalid_token', error_description: 'secret detail' });
      }
      case '/debug_token': {
        if (url.searchParams.get('access_token') !== `${FB_APP}|${FB_SECRET}`) return send(400, { error: {} });
        const data = facebookTokens.get(url.searchParams.get('input_token') ?? '');
        return send(200, { data: data ?? { is_valid: false, error: { message: 'Invalid OAuth access token.' } } });
      }
      case '/me': {
        const data = facebookTokens.get(url.searchParams.get('access_token') ?? '');
        if (!data || url.searchParams.get('fields') !== 'id,email') return send(400, { error: {} });
        return send(200, { id: data.user_id, ...(data.email ? { email: data.email } : {}) });
      }
      default:
        return send(404, {});
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function verifier(overrides: Partial<SocialVerifierOptions> = {}) {
  return createSocialVerifier({
    google: { clientId: GOOGLE_CLIENT, jwksUrl: `${base}/jwks`, tokenInfoUrl: `${base}/tokeninfo` },
    apple: { clientId: APPLE_CLIENT, jwksUrl: `${base}/jwks` },
    facebook: { appId: FB_APP, appSecret: FB_SECRET, graphUrl: base },
    now: () => NOW,
    ...overrides,
  });
}

function sign(
  claims: JWTPayload,
  opts: { issuer: string; audience: string; exp?: number; signWith?: CryptoKey; kid?: string },
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? 'k1' })
    .setIssuer(opts.issuer)
    .setAudience(opts.audience)
    .setSubject(String(claims.sub ?? '1001'))
    .setIssuedAt(nowSeconds - 60)
    .setExpirationTime(opts.exp ?? nowSeconds + 3600)
    .sign(opts.signWith ?? key);
}

async function expectFault(promise: Promise<unknown>, name: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Fault);
  expect((error as Fault).faultName).toBe(name);
  return error as Fault;
}

describe('configuration', () => {
  it('lists only providers with their ids', () => {
    const v = createSocialVerifier({ google: { clientId: 'x' }, facebook: { appId: '1', appSecret: '' } });
    expect(v.configuredPlatforms()).toEqual(['Google']);
    expect(v.isConfigured('Google')).toBe(true);
    expect(v.isConfigured('Apple')).toBe(false);
    expect(v.isConfigured('Facebook')).toBe(false);
    expect(verifier().configuredPlatforms()).toEqual(['Google', 'Apple', 'Facebook']);
  });

  it('refuses an unconfigured provider without calling out', async () => {
    const before = requests.length;
    const v = createSocialVerifier({});
    await expectFault(
      v.verify({ platform: 'Apple', token: 'x', tokenType: 'id_token' }),
      'SocialLoginProviderNotConfigured',
    );
    await expectFault(
      v.verify({ platform: 'Facebook', token: 'x', tokenType: 'access_token' }),
      'SocialLoginProviderNotConfigured',
    );
    expect(requests.length).toBe(before);
  });
});

describe('Google id token', () => {
  it.each(['accounts.google.com', 'https://accounts.google.com'])('accepts issuer %s', async (issuer) => {
    const token = await sign(
      { sub: 'g-1', email: 'ann@example.com', email_verified: true },
      { issuer, audience: GOOGLE_CLIENT },
    );
    await expect(verifier().verify({ platform: 'Google', token, tokenType: 'id_token' })).resolves.toEqual({
      provider: 'Google',
      subject: 'g-1',
      email: 'ann@example.com',
      emailVerified: true,
    });
  });

  it('reports an unverified e-mail as such', async () => {
    const token = await sign(
      { sub: 'g-2', email: 'bob@example.com', email_verified: false },
      { issuer: 'https://accounts.google.com', audience: GOOGLE_CLIENT },
    );
    const identity = await verifier().verify({ platform: 'Google', token, tokenType: 'id_token' });
    expect(identity.emailVerified).toBe(false);
  });

  it('refuses another audience', async () => {
    const token = await sign({ sub: 'g-1' }, { issuer: 'accounts.google.com', audience: 'someone-else' });
    await expectFault(
      verifier().verify({ platform: 'Google', token, tokenType: 'id_token' }),
      'SocialLoginTokenInvalid',
    );
  });

  it('refuses another issuer', async () => {
    const token = await sign({ sub: 'g-1' }, { issuer: 'https://evil.example.com', audience: GOOGLE_CLIENT });
    await expectFault(
      verifier().verify({ platform: 'Google', token, tokenType: 'id_token' }),
      'SocialLoginTokenInvalid',
    );
  });

  it('refuses an expired token (against the injected clock)', async () => {
    const token = await sign(
      { sub: 'g-1' },
      { issuer: 'accounts.google.com', audience: GOOGLE_CLIENT, exp: nowSeconds - 120 },
    );
    await expectFault(
      verifier().verify({ platform: 'Google', token, tokenType: 'id_token' }),
      'SocialLoginTokenInvalid',
    );
    // The same token is fine for a clock before its expiry.
    const earlier = verifier({ now: () => new Date(NOW.getTime() - 10 * 60_000) });
    await expect(earlier.verify({ platform: 'Google', token, tokenType: 'id_token' })).resolves.toMatchObject({
      subject: 'g-1',
    });
  });

  it('refuses a token signed with another key, and garbage', async () => {
    const v = verifier();
    const forged = await sign(
      { sub: 'g-1' },
      { issuer: 'accounts.google.com', audience: GOOGLE_CLIENT, signWith: otherKey },
    );
    await expectFault(
      v.verify({ platform: 'Google', token: forged, tokenType: 'id_token' }),
      'SocialLoginTokenInvalid',
    );
    const unknownKid = await sign(
      { sub: 'g-1' },
      { issuer: 'accounts.google.com', audience: GOOGLE_CLIENT, signWith: otherKey, kid: 'k2' },
    );
    await expectFault(
      v.verify({ platform: 'Google', token: unknownKid, tokenType: 'id_token' }),
      'SocialLoginTokenInvalid',
    );
    await expectFault(
      v.verify({ platform: 'Google', token: 'not.a.jwt', tokenType: 'id_token' }),
      'SocialLoginTokenInvalid',
    );
  });

  it('turns an unreachable key set into SocialLoginTokenInvalid and tells onFailure why', async () => {
    const failures: unknown[] = [];
    const v = verifier({
      google: { clientId: GOOGLE_CLIENT, jwksUrl: 'http://127.0.0.1:1/jwks' },
      onFailure: (_platform, error) => failures.push(error),
    });
    const token = await sign({ sub: 'g-1' }, { issuer: 'accounts.google.com', audience: GOOGLE_CLIENT });
    const fault = await expectFault(
      v.verify({ platform: 'Google', token, tokenType: 'id_token' }),
      'SocialLoginTokenInvalid',
    );
    expect(fault.message).toBe('The sign-in with the provider could not be verified.');
    expect(failures).toHaveLength(1);
  });
});

describe('Google access token', () => {
  it('accepts a token whose azp is our client', async () => {
    googleAccessTokens.set('ya29.good', {
      azp: GOOGLE_CLIENT,
      aud: GOOGLE_CLIENT,
      sub: 'g-7',
      scope: 'openid email',
      exp: String(nowSeconds + 1800),
      expires_in: '1800',
      email: 'cat@example.com',
      email_verified: 'true',
    });
    await expect(
      verifier().verify({ platform: 'Google', token: 'ya29.good', tokenType: 'access_token' }),
    ).resolves.toEqual({
      provider: 'Google',
      subject: 'g-7',
      email: 'cat@example.com',
      emailVerified: true,
    });
  });

  it('accepts an answer with expires_in only, matched on aud', async () => {
    googleAccessTokens.set('ya29.short', { aud: GOOGLE_CLIENT, sub: 'g-8', expires_in: '3599' });
    await expect(
      verifier().verify({ platform: 'Google', token: 'ya29.short', tokenType: 'access_token' }),
    ).resolves.toEqual({ provider: 'Google', subject: 'g-8', email: undefined, emailVerified: false });
  });

  it('refuses a token issued to another client', async () => {
    googleAccessTokens.set('ya29.other', {
      azp: 'other-client',
      aud: 'other-client',
      sub: 'g-7',
      exp: String(nowSeconds + 1800),
      email: 'cat@example.com',
      email_verified: 'true',
    });
    await expectFault(
      verifier().verify({ platform: 'Google', token: 'ya29.other', tokenType: 'access_token' }),
      'SocialLoginTokenInvalid',
    );
  });

  it('refuses an expired or unknown token without leaking the provider text', async () => {
    googleAccessTokens.set('ya29.old', { aud: GOOGLE_CLIENT, sub: 'g-7', exp: String(nowSeconds - 1) });
    googleAccessTokens.set('ya29.spent', { aud: GOOGLE_CLIENT, sub: 'g-7', expires_in: '0' });
    googleAccessTokens.set('ya29.timeless', { aud: GOOGLE_CLIENT, sub: 'g-7' });
    for (const token of ['ya29.old', 'ya29.spent', 'ya29.timeless']) {
      await expectFault(
        verifier().verify({ platform: 'Google', token, tokenType: 'access_token' }),
        'SocialLoginTokenInvalid',
      );
    }
    const fault = await expectFault(
      verifier().verify({ platform: 'Google', token: 'ya29.unknown', tokenType: 'access_token' }),
      'SocialLoginTokenInvalid',
    );
    expect(JSON.stringify(fault.toBody())).not.toContain('secret detail');
  });
});

describe('Apple', () => {
  it('accepts an id token with email_verified as the string "true"', async () => {
    const token = await sign(
      { sub: '001234.abcd', email: 'x7@privaterelay.appleid.com', email_verified: 'true', is_private_email: 'true' },
      { issuer: 'https://appleid.apple.com', audience: APPLE_CLIENT },
    );
    await expect(verifier().verify({ platform: 'Apple', token, tokenType: 'id_token' })).resolves.toEqual({
      provider: 'Apple',
      subject: '001234.abcd',
      email: 'x7@privaterelay.appleid.com',
      emailVerified: true,
    });
  });

  it('accepts a later sign-in without e-mail', async () => {
    const token = await sign({ sub: '001234.abcd' }, { issuer: 'https://appleid.apple.com', audience: APPLE_CLIENT });
    await expect(verifier().verify({ platform: 'Apple', token, tokenType: 'id_token' })).resolves.toEqual({
      provider: 'Apple',
      subject: '001234.abcd',
      email: undefined,
      emailVerified: false,
    });
  });

  it('refuses a Google-issued token, another audience and access tokens', async () => {
    const v = verifier();
    const google = await sign({ sub: 'a' }, { issuer: 'https://accounts.google.com', audience: APPLE_CLIENT });
    await expectFault(v.verify({ platform: 'Apple', token: google, tokenType: 'id_token' }), 'SocialLoginTokenInvalid');
    const other = await sign({ sub: 'a' }, { issuer: 'https://appleid.apple.com', audience: GOOGLE_CLIENT });
    await expectFault(v.verify({ platform: 'Apple', token: other, tokenType: 'id_token' }), 'SocialLoginTokenInvalid');
    await expectFault(
      v.verify({ platform: 'Apple', token: 'abc', tokenType: 'access_token' }),
      'SocialLoginTokenInvalid',
    );
  });
});

describe('Facebook', () => {
  it('accepts a valid token of our app, with its e-mail as verified', async () => {
    facebookTokens.set('fb-good', { app_id: FB_APP, is_valid: true, user_id: '555', email: 'dee@example.com' });
    await expect(
      verifier().verify({ platform: 'Facebook', token: 'fb-good', tokenType: 'access_token' }),
    ).resolves.toEqual({
      provider: 'Facebook',
      subject: '555',
      email: 'dee@example.com',
      emailVerified: true,
    });
    const me = requests.filter((u) => u.pathname === '/me').at(-1);
    expect(me?.searchParams.get('appsecret_proof')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts a token without e-mail (email undefined)', async () => {
    facebookTokens.set('fb-noemail', { app_id: FB_APP, is_valid: true, user_id: '556' });
    await expect(
      verifier().verify({ platform: 'Facebook', token: 'fb-noemail', tokenType: 'access_token' }),
    ).resolves.toEqual({ provider: 'Facebook', subject: '556', email: undefined, emailVerified: false });
  });

  it('refuses an invalid token', async () => {
    facebookTokens.set('fb-invalid', { app_id: FB_APP, is_valid: false, user_id: '557' });
    await expectFault(
      verifier().verify({ platform: 'Facebook', token: 'fb-invalid', tokenType: 'access_token' }),
      'SocialLoginTokenInvalid',
    );
    await expectFault(
      verifier().verify({ platform: 'Facebook', token: 'fb-unknown', tokenType: 'access_token' }),
      'SocialLoginTokenInvalid',
    );
  });

  it("refuses another app's token", async () => {
    facebookTokens.set('fb-other', { app_id: '999', is_valid: true, user_id: '558', email: 'eve@example.com' });
    await expectFault(
      verifier().verify({ platform: 'Facebook', token: 'fb-other', tokenType: 'access_token' }),
      'SocialLoginTokenInvalid',
    );
  });

  it('refuses id tokens', async () => {
    await expectFault(
      verifier().verify({ platform: 'Facebook', token: 'x', tokenType: 'id_token' }),
      'SocialLoginTokenInvalid',
    );
  });
});

describe('timeouts', () => {
  it('gives up on a provider that does not answer', async () => {
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
      const v = verifier({ facebook: { appId: FB_APP, appSecret: FB_SECRET, graphUrl: url }, timeoutMs: 200 });
      const started = Date.now();
      await expectFault(
        v.verify({ platform: 'Facebook', token: 't', tokenType: 'access_token' }),
        'SocialLoginTokenInvalid',
      );
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});
