import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as browserLocation from '../../../lib/browser-location';
import { fault, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

describe('trial thank-you (sidr5-thank-you)', () => {
  it('needs a login', async () => {
    const { router } = renderApp('/sidr5-thank-you', { user: null });
    await waitFor(() => expect(router.state.location.search).toBe('?nextUrl=%2Fsidr5-thank-you'));
  });

  it('says the trial is activated, then opens the desktop app through its protocol', async () => {
    const open = vi.spyOn(browserLocation, 'openAppLink').mockImplementation(() => undefined);
    renderApp('/sidr5-thank-you', { user: testUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Trial activated successfully' })).toBeInTheDocument();
    // The link opens from a passive effect, which may flush after the heading is in the DOM.
    await waitFor(() => expect(open).toHaveBeenCalledExactlyOnceWith('soundid-reference://trial-activated'));
  });
});

describe('ADAM Audio 60-day trial claim', () => {
  it('needs a login', async () => {
    const { router } = renderApp('/adam-audio', { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('checks the serial (9 to 24 characters), claims and shows the success message', async () => {
    const api = mockApi({ 'Campaign/ClaimAdam60Day': inOrder() });
    const { user } = renderApp('/adam-audio', { user: testUser });
    const serial = await screen.findByLabelText('Monitor serial number');
    expect(serial).toHaveAttribute('maxLength', '24');
    await user.type(serial, 'SHORT');
    await user.click(screen.getByRole('button', { name: 'Claim trial' }));
    // The form checks on submit, asynchronously: a loaded machine (CI) draws the message a moment later.
    expect(await screen.findByText('Serial number must be at least 9 characters.')).toBeInTheDocument();
    expect(api.calls).toEqual([]);

    await user.clear(serial);
    await user.type(serial, 'ADAM123456');
    await user.click(screen.getByRole('button', { name: 'Claim trial' }));
    expect(await screen.findByText('Serial number is not valid. Please check the serial number on your monitor.'));
    await user.click(screen.getByRole('button', { name: 'Claim trial' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your 60-day trial has been activated successfully!');
    expect(api.calls.map((c) => [c.path, c.body])).toEqual([
      // Silent: the screen shows the claim's faults under the field, not in the global banner.
      ['/api/accounts/Campaign/ClaimAdam60Day', { serial: 'ADAM123456', silent: true }],
      ['/api/accounts/Campaign/ClaimAdam60Day', { serial: 'ADAM123456', silent: true }],
    ]);
  });
});

/** A wrong serial first, then a good one. */
function inOrder() {
  let calls = 0;
  return () =>
    calls++ === 0
      ? fault('SerialNotFound')
      : ok({ ProductName: 'SoundIDReference', TrialEndsAt: '/Date(1767225600000)/' });
}
