import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as browserLocation from '../../../lib/browser-location';
import { testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const DEEPLINK = 'soundid://activate?product=SoundIDVoiceAI';
const path = (params: Record<string, string>) => `/products/voice-ai/activate?${new URLSearchParams(params)}`;

describe('How to activate SoundID VoiceAI', () => {
  it('opens the deeplink on request; the button then becomes Retry', async () => {
    const open = vi.spyOn(browserLocation, 'openAppLink').mockImplementation(() => undefined);
    const { user } = renderApp(path({ deeplink: DEEPLINK, activationType: 'normal' }), {
      user: testUser,
      config: { SupportChatScriptUrl: 'https://chat.example/widget.js' },
    });
    await screen.findByRole('heading', { level: 1, name: 'How to activate SoundID VoiceAI' });
    await waitFor(() => expect(document.title).toBe('My SoundID | How to activate SoundID VoiceAI'));
    expect(document.documentElement.dataset.supportChat).toBe('hidden');
    expect(screen.getAllByRole('listitem').length).toBeGreaterThanOrEqual(4);
    expect(open).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Open SoundID VoiceAI' }));
    expect(open).toHaveBeenCalledWith(DEEPLINK);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(open).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('link', { name: 'Go to downloads' })).toHaveAttribute(
      'href',
      '/download-center#SoundIDVoiceAI',
    );
  });

  it('speaks of the trial for activationType=trial', async () => {
    renderApp(path({ deeplink: 'soundid://starttrial?product=SoundIDVoiceAI', activationType: 'trial' }), {
      user: testUser,
    });
    expect(await screen.findByRole('button', { name: 'Start the trial in SoundID VoiceAI' })).toBeInTheDocument();
    expect(screen.getByText(/free SoundID VoiceAI trial/)).toBeInTheDocument();
  });

  it('goes to the buy page without a deeplink, or with one that is no app link', async () => {
    for (const params of [{}, { deeplink: 'javascript:alert(1)' }] as Record<string, string>[]) {
      const { router, unmount } = renderApp(path(params), { user: testUser });
      await waitFor(() => expect(router.state.location.pathname).toBe('/products/voice-ai'));
      unmount();
    }
  });
});
