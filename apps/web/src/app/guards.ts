import type { SessionUser } from '../lib/session';
import type { RouteAccess, RouteKind } from './route-handle';

export interface GuardInput {
  pathname: string;
  search: string;
  /** A link to a section (`/download-center#voice-ai`) keeps it through the start-up's wait. */
  hash?: string;
  access: RouteAccess;
  kind: RouteKind | undefined;
  user: SessionUser;
  redirectAfterLogin: boolean;
  savedRedirectPath: string | null;
  /** The redirect route a login with a target param leads to. */
  loginTargetPath: string | null;
}

export interface GuardDecision {
  to: string;
}

export const LOADING_PATH = '/loading';
export const LOGIN_PATH = '/login';
export const LAUNCH_REFERENCE_LOGIN_PATH = '/launch?executeReferenceLogin=true';
export const ROOT_PATH = '/';

/** Only paths of this app: `//host` or `/\host` would leave it (open redirect). */
export function safeLocalPath(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

function withNextUrl(path: string, pathname: string, search: string): string {
  return `${path}?${new URLSearchParams({ nextUrl: pathname + search })}`;
}

/** The navigation guards of docs/requirements.md §2, in their order; null lets the navigation through. */
export function resolveGuardRedirect(input: GuardInput): GuardDecision | null {
  const { pathname, search, access, kind, user } = input;
  const params = new URLSearchParams(search);

  if (user === undefined) {
    return kind === 'loading' ? null : { to: withNextUrl(LOADING_PATH, pathname, search + (input.hash ?? '')) };
  }
  if (kind === 'loading') return { to: safeLocalPath(params.get('nextUrl')) ?? ROOT_PATH };

  if (user === null) {
    return access.allowAnonymousUser ? null : { to: withNextUrl(LOGIN_PATH, pathname, search) };
  }

  if (input.redirectAfterLogin && user.EmailVerified && kind !== 'launch') {
    return { to: LAUNCH_REFERENCE_LOGIN_PATH };
  }

  if (!access.allowAuthenticatedUser) {
    if (kind !== 'login') return { to: ROOT_PATH };
    if (input.savedRedirectPath) return { to: input.savedRedirectPath };
    return { to: input.loginTargetPath ?? safeLocalPath(params.get('nextUrl')) ?? ROOT_PATH };
  }
  return null;
}
