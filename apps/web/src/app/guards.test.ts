import { describe, expect, it } from 'vitest';
import { testUser } from '../testing/mock-api';
import { type GuardInput, resolveGuardRedirect, safeLocalPath } from './guards';
import { everyone } from './route-handle';

const signedInOnly = { allowAnonymousUser: false, allowAuthenticatedUser: true };
const unverified = { ...testUser, EmailVerified: false };

function guard(change: Partial<GuardInput>) {
  return resolveGuardRedirect({
    pathname: '/profile',
    search: '',
    access: signedInOnly,
    kind: undefined,
    user: testUser,
    redirectAfterLogin: false,
    savedRedirectPath: null,
    loginTargetPath: null,
    ...change,
  });
}

describe('resolveGuardRedirect', () => {
  it('sends every navigation to loading while the user is unknown, keeping the target', () => {
    expect(guard({ user: undefined, search: '?a=1' })).toEqual({ to: '/loading?nextUrl=%2Fprofile%3Fa%3D1' });
    // A product's section of the download center survives the wait (ADR 0046).
    expect(guard({ user: undefined, pathname: '/download-center', search: '', hash: '#voice-ai' })).toEqual({
      to: '/loading?nextUrl=%2Fdownload-center%23voice-ai',
    });
    expect(guard({ user: undefined, pathname: '/loading', kind: 'loading', access: { ...everyone } as never })).toBe(
      null,
    );
  });

  it('leaves loading for nextUrl, or the root, once the user is known', () => {
    const loading = { pathname: '/loading', kind: 'loading' as const };
    expect(guard({ ...loading, search: '?nextUrl=%2Fprofile' })).toEqual({ to: '/profile' });
    expect(guard({ ...loading, search: '?nextUrl=%2Fdownload-center%23voice-ai' })).toEqual({
      to: '/download-center#voice-ai',
    });
    expect(guard({ ...loading, user: null, search: '' })).toEqual({ to: '/' });
    expect(guard({ ...loading, search: '?nextUrl=%2F%2Fevil.example' })).toEqual({ to: '/' });
  });

  it('sends an anonymous user to login with nextUrl from a signed-in route', () => {
    expect(guard({ user: null })).toEqual({ to: '/login?nextUrl=%2Fprofile' });
    expect(guard({ user: null, access: { allowAnonymousUser: true, allowAuthenticatedUser: true } })).toBe(null);
  });

  it('keeps signed-in users off anonymous-only routes', () => {
    expect(guard({ pathname: '/signup', access: { allowAnonymousUser: true, allowAuthenticatedUser: false } })).toEqual(
      { to: '/' },
    );
  });

  it('takes a signed-in user from login to the saved path, else nextUrl, else the root', () => {
    const login = {
      pathname: '/login',
      kind: 'login' as const,
      access: { allowAnonymousUser: true, allowAuthenticatedUser: false },
    };
    expect(guard({ ...login, search: '?nextUrl=%2Fadd-license', savedRedirectPath: '/app/redirect' })).toEqual({
      to: '/app/redirect',
    });
    expect(guard({ ...login, search: '?nextUrl=%2Fadd-license' })).toEqual({ to: '/add-license' });
    expect(guard({ ...login, search: '?nextUrl=https%3A%2F%2Fevil.example' })).toEqual({ to: '/' });
    expect(guard({ ...login })).toEqual({ to: '/' });
    expect(guard({ ...login, loginTargetPath: '/app/redirect?return_to=x' })).toEqual({
      to: '/app/redirect?return_to=x',
    });
  });

  it('opens the desktop app after login when asked and the e-mail is verified', () => {
    expect(guard({ redirectAfterLogin: true })).toEqual({
      to: '/launch?executeReferenceLogin=true',
    });
    expect(guard({ redirectAfterLogin: true, user: unverified })).toBe(null);
    expect(guard({ redirectAfterLogin: true, kind: 'launch', pathname: '/launch' })).toBe(null);
  });
});

describe('safeLocalPath', () => {
  it('accepts paths of this app only', () => {
    expect(safeLocalPath('/profile?x=1')).toBe('/profile?x=1');
    expect(safeLocalPath('//evil.example')).toBe(null);
    expect(safeLocalPath('/\\evil.example')).toBe(null);
    expect(safeLocalPath('https://evil.example')).toBe(null);
    expect(safeLocalPath(null)).toBe(null);
  });
});
