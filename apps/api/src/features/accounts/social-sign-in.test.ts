import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { type ProviderStandIns, startProviderStandIns } from '../../../test/provider-stand-ins';

let t: TestApp;
let providers: ProviderStandIns;
const GOOGLE = 'google-client-id.apps.googleusercontent.com';
const APPLE = 'com.soundid.web';

beforeAll(async () => {
  providers = await startProviderStandIns();
  t = await createTestApp({
    GOOGLE_CLIENT_ID: GOOGLE,
    GOOGLE_JWKS_URL: `${providers.url}/jwks`,
    GOOGLE_TOKENINFO_URL: `${providers.url}/tokeninfo`,
    APPLE_CLIENT_ID: APPLE,
    APPLE_JWKS_URL: `${providers.url}/jwks`,
    FACEBOOK_APP_ID: 'fb-app',
    FACEBOOK_APP_SECRET: 'fb-secret',
    FACEBOOK_GRAPH_URL: providers.url,
  });
  // The stand-in signs with the real time; the service checks expiry against it too.
  t.clock.now = () => new Date();
});
afterAll(async () => {
  await t.close();
  await providers.close();
});

const social = (socialPlatform: string, token: string, tokenType: string) =>
  t.call('/api/accounts/LoginBySocial', { socialPlatform, token, tokenType, getProfile: true });

describe('LoginBySocial', () => {
  it('lists the configured providers for the SPA', async () => {
    const config = (await t.app.inject('/api/config')).json().Result;
    expect(Object.keys(config.SocialProviders).sort()).toEqual(['Apple', 'Facebook', 'Google']);
  });

  it('creates a verified, password-less account from a Google id token, then signs the same identity in', async () => {
    const idToken = await providers.signIdToken(
      { sub: 'g-1', email: 'wes@example.com', email_verified: true },
      { issuer: 'https://accounts.google.com', audience: GOOGLE },
    );
    const first = await social('Google', idToken, 'id_token');
    expect(first.statusCode).toBe(200);
    expect(first.json().Result.User).toMatchObject({
      Email: 'wes@example.com',
      EmailVerified: true,
      HasPassword: false,
    });
    expect(first.headers['set-cookie']).toMatch(/HttpOnly/);
    const again = await social('Google', idToken, 'id_token');
    expect(again.json().Result.User.Id).toBe(first.json().Result.User.Id);

    // A social-only customer sets a first password with an empty old one.
    const token = first.json().Token;
    const set = await t.call('/api/accounts/ChangePassword', { oldPassword: '', newPassword: 'first password' }, token);
    expect(set.json()).toEqual({ Success: true, Result: {} });
    const login = await t.call('/api/accounts/LoginByEmail', { email: 'wes@example.com', password: 'first password' });
    expect(login.statusCode).toBe(200);
  });

  it('links a Google access token to the existing account with the same verified address', async () => {
    await signUpVerified(t, 'xan@example.com');
    providers.googleAccessTokens.set('ga-1', {
      aud: GOOGLE,
      azp: GOOGLE,
      sub: 'g-2',
      email: 'xan@example.com',
      email_verified: 'true',
      expires_in: '3599',
    });
    const res = await social('Google', 'ga-1', 'access_token');
    expect(res.json().Result.User).toMatchObject({ Email: 'xan@example.com', HasPassword: true });
    providers.googleAccessTokens.set('ga-other', {
      aud: 'someone-else',
      sub: 'g-9',
      email: 'x@y.com',
      expires_in: '100',
    });
    expect(faultOf(await social('Google', 'ga-other', 'access_token'))).toBe('SocialLoginTokenInvalid');
  });

  it('drops a password set on a never-verified account when the owner signs in socially', async () => {
    await t.call('/api/accounts/register', { email: 'yas@example.com', password: PASSWORD });
    const idToken = await providers.signIdToken(
      { sub: 'apple-1', email: 'yas@example.com', email_verified: 'true' },
      { issuer: 'https://appleid.apple.com', audience: APPLE },
    );
    const res = await social('Apple', idToken, 'id_token');
    expect(res.json().Result.User).toMatchObject({ EmailVerified: true, HasPassword: false });
    expect(faultOf(await t.call('/api/accounts/LoginByEmail', { email: 'yas@example.com', password: PASSWORD }))).toBe(
      'UserLoginInvalidCredentials',
    );
  });

  it('signs in with Facebook and refuses tokens of another app', async () => {
    providers.facebookTokens.set('fb-1', {
      app_id: 'fb-app',
      is_valid: true,
      user_id: 'f-1',
      email: 'zed@example.com',
    });
    expect((await social('Facebook', 'fb-1', 'access_token')).json().Result.User.Email).toBe('zed@example.com');
    providers.facebookTokens.set('fb-2', {
      app_id: 'other-app',
      is_valid: true,
      user_id: 'f-2',
      email: 'z2@example.com',
    });
    expect(faultOf(await social('Facebook', 'fb-2', 'access_token'))).toBe('SocialLoginTokenInvalid');
    providers.facebookTokens.set('fb-3', { app_id: 'fb-app', is_valid: true, user_id: 'f-3' });
    expect(faultOf(await social('Facebook', 'fb-3', 'access_token'))).toBe('SocialLoginEmailMissing');
  });

  it('refuses forged, expired and wrong-audience id tokens', async () => {
    const wrongAudience = await providers.signIdToken(
      { sub: 'g-3', email: 'a@example.com', email_verified: true },
      { issuer: 'accounts.google.com', audience: 'another-client' },
    );
    expect(faultOf(await social('Google', wrongAudience, 'id_token'))).toBe('SocialLoginTokenInvalid');
    const expired = await providers.signIdToken(
      { sub: 'g-3', email: 'a@example.com', email_verified: true },
      { issuer: 'accounts.google.com', audience: GOOGLE, expiresIn: '-1m' },
    );
    expect(faultOf(await social('Google', expired, 'id_token'))).toBe('SocialLoginTokenInvalid');
    expect(faultOf(await social('Google', 'eyJhbGciOiJub25lIn0.e30.', 'id_token'))).toBe('SocialLoginTokenInvalid');
  });
});

describe('without configured providers', () => {
  it('answers SocialLoginProviderNotConfigured', async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.call('/api/accounts/LoginBySocial', {
        socialPlatform: 'Google',
        token: 'x',
        tokenType: 'id_token',
      });
      expect(faultOf(res)).toBe('SocialLoginProviderNotConfigured');
    } finally {
      await plain.close();
    }
  });
});
