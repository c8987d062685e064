import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiErrorsStore, showApiError } from '../lib/api-errors';
import * as browserLocation from '../lib/browser-location';
import { navigationMemoryStore } from '../lib/navigation-memory';
import { notificationsStore } from '../lib/notifications';
import { sessionStore } from '../lib/session';
import { mockApi, testUser } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';

const where = (router: ReturnType<typeof renderApp>['router']) =>
  router.state.location.pathname + router.state.location.search;

describe('routes and guards', () => {
  it('waits on loading while the user is unknown, then goes on to the target', async () => {
    const { router } = renderApp('/profile', { user: undefined });
    await waitFor(() => expect(where(router)).toBe('/loading?nextUrl=%2Fprofile'));
    // The router's state changes before React renders the new route: wait for the screen too.
    await waitFor(() => expect(screen.queryByRole('banner')).not.toBeInTheDocument());
    act(() => sessionStore.set(testUser));
    await waitFor(() => expect(where(router)).toBe('/profile'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('My SoundID | Profile'));
  });

  it('sends an anonymous visitor of a signed-in page to login with nextUrl', async () => {
    const { router } = renderApp('/add-license', { user: null });
    await waitFor(() => expect(where(router)).toBe('/login?nextUrl=%2Fadd-license'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('My SoundID | Log in'));
  });

  it('keeps a signed-in user off login, going to nextUrl', async () => {
    mockApi({});
    const { router } = renderApp('/login?nextUrl=%2Fadd-license', { user: testUser });
    await waitFor(() => expect(where(router)).toBe('/add-license'));
  });

  it('sends a signed-in user with a target login to the redirect route, which leaves for the target', async () => {
    const leaveTo = vi.spyOn(browserLocation, 'leaveTo').mockImplementation(() => undefined);
    const { router } = renderApp('/forum/login?return_to=%2Ft%2F1', {
      user: null,
      config: { RedirectTargets: [{ Id: 'forum', Name: 'the forum', CallbackUrl: 'https://forum.example/sso' }] },
    });
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(navigationMemoryStore.get().savedRedirectPath).toBe('/forum/redirect?return_to=%2Ft%2F1');
    act(() => sessionStore.set(testUser));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forum/redirect'));
    await waitFor(() => expect(navigationMemoryStore.get().savedRedirectPath).toBe(null));
    expect(await screen.findByRole('heading', { name: 'Redirecting to the forum shortly...' })).toBeInTheDocument();
    expect(leaveTo).toHaveBeenCalledWith('https://forum.example/sso/t/1');
  });

  it('redirects the root by app target: reference to products, others to profile', async () => {
    const reference = renderApp('/', { user: testUser, config: { AppTarget: 'reference' } });
    await waitFor(() => expect(where(reference.router)).toBe('/products'));
    expect(await screen.findByRole('link', { name: 'Register a new license' })).toHaveAttribute('href', '/add-license');
    reference.unmount();
    const voice = renderApp('/', { user: testUser, config: { AppTarget: 'voice-ai' } });
    await waitFor(() => expect(where(voice.router)).toBe('/profile'));
  });

  it('opens the desktop app after login when redirectAfterLogin was asked for', async () => {
    mockApi({ GetAppLoginDeeplink: { Success: true, Result: { AppLoginDeeplink: 'soundid-reference://x' } } });
    const { router } = renderApp('/profile?redirectAfterLogin=true', { user: testUser });
    await waitFor(() => expect(where(router)).toBe('/launch?executeReferenceLogin=true'));
    await waitFor(() => expect(navigationMemoryStore.get().redirectAfterLogin).toBe(false));
  });

  it('shows Page not found with an Index link for unknown paths', async () => {
    renderApp('/no/such/page', { user: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Index' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(document.title).toBe('My SoundID | Page Not Found'));
  });

  it('maps the old routes: /auth, /devices, /soundid-reference', async () => {
    const auth = renderApp('/auth', { user: null });
    await waitFor(() => expect(auth.router.state.location.pathname).toBe('/login'));
    auth.unmount();
    const devices = renderApp('/devices', { user: testUser });
    await waitFor(() => expect(devices.router.state.location.pathname).toBe('/products'));
  });

  it('clears API errors on navigation and shows the query notification', async () => {
    const { router } = renderApp('/signup', { user: null });
    await screen.findByRole('heading', { level: 1, name: 'Sign up' });
    act(() =>
      showApiError({
        ExceptionName: 'KeyNotFound',
        ExceptionType: 20,
        ExceptionCode: 404,
        ExceptionUserText: '',
        ExceptionVariables: [],
      }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('License activation key is not valid.');
    await act(() => router.navigate('/login?notification=1'));
    expect(apiErrorsStore.get()).toEqual([]);
    expect(notificationsStore.get().map((n) => [n.content, n.autoCloseTime])).toEqual([
      ['Your request has been submitted', 30000],
    ]);
  });

  it('sends users who already have a password from set-password to change-password', async () => {
    const { router } = renderApp('/profile/set-password', { user: testUser });
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(router.state.location.hash).toBe('#change-password');
    expect(await screen.findByLabelText('Current password')).toBeInTheDocument();
  });

  it('redirects token routes without a token to the root', async () => {
    const { router } = renderApp('/verify-email', { user: testUser });
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
  });
});
