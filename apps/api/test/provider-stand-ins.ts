import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/**
 * Local stand-ins for the social providers: a JWKS with a locally generated key (Google and
 * Apple id tokens), Google's tokeninfo and Facebook's debug_token and /me.
 */
export interface ProviderStandIns {
  url: string;
  signIdToken(
    claims: Record<string, unknown>,
    options: { issuer: string; audience: string; expiresIn?: string },
  ): Promise<string>;
  /** access token → what tokeninfo answers for it */
  googleAccessTokens: Map<string, Record<string, unknown>>;
  /** access token → { app_id, is_valid, user_id, email? } */
  facebookTokens: Map<string, { app_id: string; is_valid: boolean; user_id: string; email?: string }>;
  close(): Promise<void>;
}

export async function startProviderStandIns(): Promise<ProviderStandIns> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const googleAccessTokens = new Map<string, Record<string, unknown>>();
  const facebookTokens = new Map<string, { app_id: string; is_valid: boolean; user_id: string; email?: string }>();

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/jwks') return send(200, { keys: [jwk] });
    if (url.pathname === '/tokeninfo') {
      const info = googleAccessTokens.get(url.searchParams.get('access_token') ?? '');
      return info ? send(200, info) : send(400, { error: 'invalid_token' });
    }
    if (url.pathname === '/debug_token') {
      const data = facebookTokens.get(url.searchParams.get('input_token') ?? '');
      return send(200, { data: data ?? { is_valid: false } });
    }
    if (url.pathname === '/me') {
      const data = facebookTokens.get(url.searchParams.get('access_token') ?? '');
      return data ? send(200, { id: data.user_id, ...(data.email ? { email: data.email } : {}) }) : send(400, {});
    }
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    googleAccessTokens,
    facebookTokens,
    signIdToken: (claims, { issuer, audience, expiresIn = '10m' }) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The Google client id the suites configure against the stand-in. */
export const TEST_GOOGLE_CLIENT_ID = 'google-client-id.apps.googleusercontent.com';

/** The service's Google settings pointed at the stand-in (for suites that sign in with Google). */
export const googleStandInEnv = (providers: ProviderStandIns) => ({
  GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID,
  GOOGLE_JWKS_URL: `${providers.url}/jwks`,
  GOOGLE_TOKENINFO_URL: `${providers.url}/tokeninfo`,
});
