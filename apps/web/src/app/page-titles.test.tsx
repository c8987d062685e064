import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as browserLocation from '../lib/browser-location';
import { mockApi, ok, testUser } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';

/** docs/requirements.md §2: route titles joined by ' | ' after 'My SoundID'. */
describe('page titles', () => {
  it.each([
    ['/login', null, 'My SoundID | Log in'],
    ['/forum/login', null, 'My SoundID | Log in'],
    ['/no/such/page', null, 'My SoundID | Page Not Found'],
    ['/profile', testUser, 'My SoundID | Profile'],
    ['/add-license', testUser, 'My SoundID | Add activation key to activate and manage your license.'],
  ] as const)('%s', async (path, user, title) => {
    mockApi({ GetSessions: ok([]) });
    renderApp(path, { user });
    await waitFor(() => expect(document.title).toBe(title));
  });

  it('joins the titles of nested routes', async () => {
    renderApp('/profile/set-password', { user: { ...testUser, HasPassword: false } });
    await waitFor(() => expect(document.title).toBe('My SoundID | Profile | Set password'));
  });

  it('titles the redirect screen Redirecting...', async () => {
    vi.spyOn(browserLocation, 'leaveTo').mockImplementation(() => undefined);
    renderApp('/forum/redirect', {
      user: testUser,
      config: { RedirectTargets: [{ Id: 'forum', Name: 'the forum', CallbackUrl: 'https://forum.example/sso' }] },
    });
    await screen.findByRole('heading', { level: 1, name: 'Redirecting to the forum shortly...' });
    await waitFor(() => expect(document.title).toBe('My SoundID | Redirecting...'));
  });
});
