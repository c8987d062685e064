import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as browserLocation from '../../../lib/browser-location';
import { emptyLicenceList } from '../../../testing/licence-list';
import { mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

describe('launch screen (docs/requirements.md §2)', () => {
  it('opens a given deeplink at once, again on Retry, and offers the downloads', async () => {
    const open = vi.spyOn(browserLocation, 'openAppLink').mockImplementation(() => undefined);
    const { user } = renderApp('/launch?deeplink=soundid%3A%2F%2Factivate%3Fproduct%3DSoundIDReference&title=Hi', {
      user: testUser,
    });
    await screen.findByRole('heading', { level: 1, name: 'Hi' });
    await waitFor(() => expect(open).toHaveBeenCalledWith('soundid://activate?product=SoundIDReference'));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(2));
    // To the download center's section of the deeplink's product (ADR 0046).
    expect(screen.getByRole('link', { name: 'Go to downloads' })).toHaveAttribute(
      'href',
      '/download-center#SoundIDReference',
    );
  });

  it('with executeReferenceLogin asks for a fresh app login deeplink each time', async () => {
    const open = vi.spyOn(browserLocation, 'openAppLink').mockImplementation(() => undefined);
    const api = mockApi({ GetAppLoginDeeplink: ok({ AppLoginDeeplink: 'soundid://login?token=t1' }) });
    const { user } = renderApp('/launch?executeReferenceLogin=true', { user: testUser });
    await screen.findByRole('heading', { level: 1, name: 'Launching SoundID Reference' });
    await waitFor(() => expect(open).toHaveBeenCalledWith('soundid://login?token=t1'));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(api.callsTo('GetAppLoginDeeplink')).toHaveLength(2));
  });

  it('goes to soundid-reference (then products) without a deeplink or with one that is no app link', async () => {
    mockApi({ '/api/licenses/GetAccountLicensesByProductLine': ok(emptyLicenceList()) });
    for (const path of ['/launch', '/launch?deeplink=https%3A%2F%2Fevil.example']) {
      const { router, unmount } = renderApp(path, { user: testUser });
      await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
      unmount();
    }
  });
});

describe('opening app links', () => {
  it('refuses anything but the desktop apps’ protocols', () => {
    expect(browserLocation.isAppLink('soundid://login?token=x')).toBe(true);
    expect(browserLocation.isAppLink('soundid-reference://trial-activated')).toBe(true);
    expect(browserLocation.isAppLink('javascript:alert(1)')).toBe(false);
    expect(browserLocation.isAppLink('https://evil.example')).toBe(false);
  });
});
