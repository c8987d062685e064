import { SESSION_COOKIE_PLAIN, SESSION_COOKIE_SECURE } from '@soundid/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Fault } from '../../lib/fault';
import type {
  AuthenticatedRead,
  AuthenticatedSession,
  SessionRowState,
  SessionScopedRead,
  SessionService,
} from './sessions';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in session of the request, or a session Fault. */
    requireSession(request: FastifyRequest): Promise<Authenticated>;
    /** The same check, the session row read by the call's own statement with its data (one round trip). */
    requireSessionWith<TRow extends SessionRowState>(
      request: FastifyRequest,
      read: SessionScopedRead<TRow>,
    ): Promise<AuthenticatedRead<TRow>>;
    /** The session if the request carries a valid one. */
    optionalSession(request: FastifyRequest): Promise<Authenticated | undefined>;
  }
}

/**
 * The browser keeps the session in an HttpOnly cookie (API contract, Session):
 * `__Host-soundid_session` (Secure) over https, `soundid_session` over plain http.
 */
export class SessionCookie {
  readonly name: string;
  private readonly secure: boolean;

  constructor(publicUrl: string) {
    this.secure = publicUrl.startsWith('https://');
    this.name = this.secure ? SESSION_COOKIE_SECURE : SESSION_COOKIE_PLAIN;
  }

  /** With keep-me-signed-in the cookie lives until the token expires; otherwise it is a session cookie. */
  set(reply: FastifyReply, token: string, expiresAt: Date, keepMeSignedIn: boolean): void {
    reply.setCookie(this.name, token, {
      httpOnly: true,
      secure: this.secure,
      sameSite: 'lax',
      path: '/',
      ...(keepMeSignedIn ? { expires: expiresAt } : {}),
    });
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.name, { httpOnly: true, secure: this.secure, sameSite: 'lax', path: '/' });
  }

  read(request: FastifyRequest): string | undefined {
    return request.cookies[this.name] || undefined;
  }
}

/**
 * A request made by a browser: browsers add Fetch Metadata (Sec-Fetch-Site) to every request,
 * and script can neither set nor remove it. Desktop apps and curl send none.
 */
export function isBrowserRequest(request: FastifyRequest): boolean {
  return request.headers['sec-fetch-site'] !== undefined;
}

export interface Authenticated extends AuthenticatedSession {
  /** How the token came: apps send the header, browsers the cookie. */
  via: 'header' | 'cookie';
}

/**
 * A request is signed in by the AuthToken header, or by the cookie together with the
 * Software header, which a cross-site form or link cannot send (ASVS 3.5.1).
 */
export function sessionTokenOf(
  request: FastifyRequest,
  cookie: SessionCookie,
): { token: string; via: 'header' | 'cookie' } {
  const header = request.headers.authtoken;
  const headerToken = Array.isArray(header) ? header[0] : header;
  if (headerToken) return { token: headerToken, via: 'header' };
  const cookieToken = cookie.read(request);
  if (!cookieToken) throw new Fault('SecurityAuthTokenNotPassed');
  if (!request.headers.software) throw new Fault('SoftwareHeaderMissing');
  return { token: cookieToken, via: 'cookie' };
}

/**
 * The session of a GET that the browser follows as a navigation (a download link), which cannot
 * carry the Software header: the AuthToken header, or the cookie alone. Only for reads that
 * change nothing and answer an attachment to the signed-in customer only: a forged cross-site
 * link gains nothing (ASVS 3.5.1 guards state changes).
 */
export function navigationTokenOf(request: FastifyRequest, cookie: SessionCookie): string {
  const header = request.headers.authtoken;
  const token = (Array.isArray(header) ? header[0] : header) || cookie.read(request);
  if (!token) throw new Fault('SecurityAuthTokenNotPassed');
  return token;
}

export async function authenticateRequest(
  request: FastifyRequest,
  cookie: SessionCookie,
  sessions: SessionService,
): Promise<Authenticated> {
  const { token, via } = sessionTokenOf(request, cookie);
  return { ...(await sessions.authenticate(token)), via };
}

/**
 * The session check, the one decorator of the service (ADR 0033): every area's routes ask it
 * for the signed-in customer (`app.requireSession(request)`) instead of receiving the session
 * service. Declared above, beside its implementation.
 */
export function registerSessionCheck(
  app: FastifyInstance,
  { sessions, sessionCookie }: { sessions: SessionService; sessionCookie: SessionCookie },
): void {
  app.decorate('requireSession', (request: FastifyRequest) => authenticateRequest(request, sessionCookie, sessions));
  app.decorate(
    'requireSessionWith',
    async <TRow extends SessionRowState>(request: FastifyRequest, read: SessionScopedRead<TRow>) =>
      sessions.authenticateWith(sessionTokenOf(request, sessionCookie).token, read),
  );
  app.decorate('optionalSession', async (request: FastifyRequest) => {
    try {
      return await authenticateRequest(request, sessionCookie, sessions);
    } catch {
      return undefined;
    }
  });
}
