import type { DownloadCenter, ReleaseFile } from '@soundid/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import * as browserLocation from '../../../lib/browser-location';
import { fault, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const file = (version: string, platform: 'macos' | 'windows', id: string): ReleaseFile => ({
  ReleaseFileId: id,
  Version: version,
  Platform: platform,
  FileName: `SoundIDVoiceAI-${version}.${platform === 'macos' ? 'dmg' : 'exe'}`,
  SizeBytes: 152_400_000,
  Sha256: `${id.slice(0, 1)}${'a'.repeat(63)}`,
  Notes: `Version ${version}\n- Faster start-up.`,
  PublishedAt: Date.UTC(2026, 0, 15),
});

const center: DownloadCenter = {
  Products: [
    {
      Code: 'sid-reference',
      ProductName: 'SoundIDReference',
      DisplayName: 'SoundID Reference for Speakers & Headphones',
      Icon: 'soundid-reference',
      Platforms: [{ Platform: 'windows', Latest: file('5.12.2', 'windows', '1'), Older: [] }],
    },
    {
      Code: 'voice-ai',
      ProductName: 'SoundIDVoiceAI',
      DisplayName: 'SoundID VoiceAI',
      Icon: 'soundid-voice-ai',
      Platforms: [
        {
          Platform: 'macos',
          Latest: file('3.4.1', 'macos', '2'),
          Older: [file('3.3.0', 'macos', '3'), file('3.2.0', 'macos', '4')],
        },
      ],
    },
  ],
};

describe('the download center (ADR 0046)', () => {
  it('shows each product with its latest installer per platform, notes, size and checksum; older versions folded', async () => {
    mockApi({ '/api/downloads/GetDownloadCenter': ok(center) });
    renderApp('/download-center', { user: testUser });
    await screen.findByRole('heading', { level: 1, name: 'Downloads' });
    await waitFor(() => expect(document.title).toBe('My SoundID | Downloads'));
    const voice = await screen.findByRole('region', { name: 'SoundID VoiceAI' });
    const latest = within(voice).getByRole('article', { name: 'SoundIDVoiceAI-3.4.1.dmg, Version 3.4.1' });
    expect(within(latest).getByText('Latest version')).toBeInTheDocument();
    expect(within(latest).getByText('SoundIDVoiceAI-3.4.1.dmg, 152.4 MB')).toBeInTheDocument();
    expect(within(latest).getByText(`2${'a'.repeat(63)}`)).toBeInTheDocument();
    expect(within(latest).getByText(/Faster start-up/)).toBeInTheDocument();
    expect(within(latest).getByText('Published January 15, 2026')).toBeInTheDocument();
    const older = within(voice).getByText('Older versions (2)');
    expect(older.closest('details')).not.toHaveAttribute('open');
    expect(within(voice).getByRole('heading', { level: 3, name: 'macOS' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'SoundID Reference for Speakers & Headphones' })).toBeInTheDocument();
  });

  it('asks for a link at each click and follows it; a refusal shows its message', async () => {
    const leave = vi.spyOn(browserLocation, 'leaveTo').mockImplementation(() => undefined);
    const api = mockApi({
      '/api/downloads/GetDownloadCenter': ok(center),
      '/api/downloads/GetDownloadLink': (call) =>
        call.body.releaseFileId === '1'
          ? fault('NoLicenseForProduct', { ExceptionCode: 403 })
          : ok({
              Url: 'https://objects.example/releases/x?X-Amz-Signature=s',
              ExpiresAt: Date.UTC(2026, 0, 15, 0, 5),
              FileName: 'SoundIDVoiceAI-3.4.1.dmg',
              SizeBytes: 152_400_000,
              Sha256: `2${'a'.repeat(63)}`,
            }),
    });
    const { user } = renderApp('/download-center', { user: testUser });
    await user.click(await screen.findByRole('button', { name: 'Download SoundIDVoiceAI-3.4.1.dmg' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://objects.example/releases/x?X-Amz-Signature=s'));
    expect(api.callsTo('GetDownloadLink')[0]?.body).toMatchObject({ releaseFileId: '2' });

    await user.click(screen.getByRole('button', { name: 'Download SoundIDVoiceAI-5.12.2.exe' }));
    expect(await screen.findByText(/You have no license for this product/)).toBeInTheDocument();
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it("lands on the product's section of the link, by code or by the app's product name", async () => {
    mockApi({ '/api/downloads/GetDownloadCenter': ok(center) });
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    for (const hash of ['#voice-ai', '#SoundIDVoiceAI']) {
      const { unmount } = renderApp(`/download-center${hash}`, { user: testUser });
      const heading = await screen.findByRole('heading', { level: 2, name: 'SoundID VoiceAI' });
      await waitFor(() => expect(heading).toHaveFocus());
      unmount();
    }
    expect(scrolled).toHaveBeenCalled();
  });

  it('says so when no product has a release yet, and when the list cannot be read', async () => {
    mockApi({ '/api/downloads/GetDownloadCenter': ok({ Products: [] }) });
    const { unmount } = renderApp('/download-center', { user: testUser });
    expect(await screen.findByText('No downloads are available for your products yet.')).toBeInTheDocument();
    unmount();
    mockApi({ '/api/downloads/GetDownloadCenter': fault('ServiceUnavailable', { ExceptionCode: 503 }) });
    renderApp('/download-center', { user: testUser });
    expect(await screen.findByRole('alert')).toHaveTextContent('The downloads could not be loaded.');
  });
});
