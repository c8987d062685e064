import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiErrorsStore } from '../lib/api-errors';
import * as browserLocation from '../lib/browser-location';
import { navigationMemoryStore } from '../lib/navigation-memory';
import { notificationsStore, notify } from '../lib/notifications';
import { sessionStore } from '../lib/session';
import { fault, mockApi, ok, testUser } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';

const forum = { RedirectTargets: [{ Id: 'forum', Name: 'the forum', CallbackUrl: 'https://forum.example/sso' }] };

describe('logout', () => {
  it('shows only the waiting overlay (no header, no footer), then goes to login signed out', async () => {
    let answer: (value: Response) => void = () => undefined;
    const pending = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => pending),
    );
    const { router } = renderApp('/logout', { user: testUser });
    expect(await screen.findByRole('status')).toBeInTheDocument();
    expect(document.querySelector('.top-bar')).toBeNull();
    expect(document.querySelector('.footer')).toBeNull();
    await act(async () => answer(new Response(JSON.stringify({ Success: true, Result: {} }))));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sessionStore.get()).toBe(null);
    await waitFor(() => expect(document.querySelector('.top-bar')).not.toBeNull());
    expect(document.querySelector('.footer')).not.toBeNull();
  });

  it('goes to the root when the logout fails', async () => {
    mockApi({ Logout: fault('ServiceUnavailable', { ExceptionCode: 503 }) });
    const { router } = renderApp('/logout', { user: testUser });
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
  });
});

describe('loading', () => {
  it('hides header and footer while the user state is unknown', async () => {
    renderApp('/profile', { user: undefined });
    expect(await screen.findByRole('status')).toBeInTheDocument();
    expect(document.querySelector('.top-bar')).toBeNull();
    expect(document.querySelector('.footer')).toBeNull();
  });
});

describe('support chat', () => {
  it('is shown on account screens and hidden over the waiting overlay', async () => {
    mockApi({ GetSessions: ok([]) });
    const config = { SupportChatScriptUrl: 'https://chat.example/widget.js' };
    const profile = renderApp('/profile', { user: testUser, config });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    // Set by an effect, which may run a moment after the heading is drawn.
    await waitFor(() => expect(document.documentElement.dataset.supportChat).toBe('shown'));
    profile.unmount();
    renderApp('/loading', { user: undefined, config });
    await waitFor(() => expect(document.documentElement.dataset.supportChat).toBe('hidden'));
  });
});

describe('redirect screen', () => {
  it('replaces an unknown target by the root', async () => {
    const leaveTo = vi.spyOn(browserLocation, 'leaveTo').mockImplementation(() => undefined);
    const { router } = renderApp('/elsewhere/redirect?return_to=x', { user: testUser, config: forum });
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
    expect(leaveTo).not.toHaveBeenCalled();
  });

  it('adds the leading slash to return_to and offers a manual link', async () => {
    const leaveTo = vi.spyOn(browserLocation, 'leaveTo').mockImplementation(() => undefined);
    renderApp('/forum/redirect?return_to=t%2F42', { user: testUser, config: forum });
    const link = await screen.findByRole('link', { name: 'Continue now' });
    expect(link).toHaveAttribute('href', 'https://forum.example/sso/t/42');
    expect(leaveTo).toHaveBeenCalledWith('https://forum.example/sso/t/42');
  });

  it('remembers target and return_to across a login that starts anonymous', async () => {
    vi.spyOn(browserLocation, 'leaveTo').mockImplementation(() => undefined);
    const { router } = renderApp('/forum/login?return_to=t', { user: null, config: forum });
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    // The customer takes a detour through signup, comes back to a plain login and signs in.
    await act(() => router.navigate('/signup'));
    await act(() => router.navigate('/login'));
    act(() => sessionStore.set(testUser));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forum/redirect'));
    expect(router.state.location.search).toBe('?return_to=t');
    await waitFor(() => expect(navigationMemoryStore.get().savedRedirectPath).toBe(null));
  });
});

describe('the notification query', () => {
  it('shows nothing more when a notification is already there', async () => {
    mockApi({ GetSessions: ok([]) });
    notify('success', 'Something else.');
    renderApp('/profile?notification=1', { user: testUser });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    expect(notificationsStore.get().map((n) => n.content)).toEqual(['Something else.']);
  });

  it('closes its notice after 30000 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({ GetSessions: ok([]) });
    renderApp('/profile?notification=1', { user: testUser });
    await waitFor(() => expect(notificationsStore.get()).toHaveLength(1));
    act(() => vi.advanceTimersByTime(29_000));
    expect(notificationsStore.get().map((n) => n.content)).toEqual(['Your request has been submitted']);
    act(() => vi.advanceTimersByTime(1_100));
    expect(notificationsStore.get()).toEqual([]);
  });
});

describe('errors on navigation', () => {
  it('clears banner errors and danger notices when the customer moves on', async () => {
    mockApi({ GetSessions: ok([]) });
    const { router } = renderApp('/profile', { user: testUser });
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    act(() => {
      notify('danger', 'A danger notice.');
      notify('success', 'A success notice.');
      apiErrorsStore.set([
        {
          id: 1,
          fault: {
            ExceptionName: 'KeyNotFound',
            ExceptionType: 20,
            ExceptionCode: 404,
            ExceptionUserText: '',
            ExceptionVariables: [],
          },
        },
      ]);
    });
    await act(() => router.navigate('/add-license'));
    expect(apiErrorsStore.get()).toEqual([]);
    expect(notificationsStore.get().map((n) => n.content)).toEqual(['A success notice.']);
  });
});
