import type { DataExport } from '@soundid/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiErrorsStore } from '../../../lib/api-errors';
import * as textFile from '../../../lib/save-text-file';
import { fault, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { dataExportPage } from '../lib/data-export-page';

/** "Download my data" and the deletion panel's summary (ADR 0038). */
const summary = {
  Licences: [
    { Product: 'sid-reference', ProductName: 'SoundID Reference', Keys: 2, TrialEndsAt: null },
    { Product: 'voice-ai', ProductName: 'SoundID VoiceAI', Keys: 0, TrialEndsAt: '2027-01-15T12:00:00.000Z' },
  ],
  UnspentTokens: [{ Tokens: 1200, ExpiresAt: '2027-03-03T12:00:00.000Z' }],
};

const exported = {
  Format: 'my-soundid-data-export/1',
  ExportedAt: '2026-11-26T10:00:00.000Z',
  Profile: { Id: 'u1', Email: 'ada@example.com' },
  Devices: [{ Product: 'sid-reference', Name: '<img src=x onerror=alert(1)> & "Studio"', ActivatedAt: '2026-01-01' }],
  TokenLots: [],
  SignInMethods: { HasPassword: true, LinkedIdentities: [], TwoStepVerification: { Enabled: false } },
  DeletionSummary: summary,
} as unknown as DataExport;

const twoStepOff = { TotpEnabled: false, RecoveryCodesLeft: 0 };

afterEach(() => vi.restoreAllMocks());

async function openPanel() {
  const app = renderApp('/profile', { user: testUser });
  const panel = await screen.findByRole('region', { name: 'Your data' });
  return { ...app, panel };
}

describe('download my data', () => {
  it('exports once, saves the JSON, then the readable page from the same export', async () => {
    const save = vi.spyOn(textFile, 'saveTextFile').mockImplementation(() => undefined);
    const api = mockApi({ GetSessions: ok([]), GetSecondFactors: ok(twoStepOff), ExportMyData: ok(exported) });
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: 'Download my data (JSON)' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [fileName, content] = save.mock.calls[0] ?? [];
    expect(fileName).toBe('my-soundid-data-2026-11-26.json');
    expect(JSON.parse(content ?? '')).toEqual(exported);
    expect(await screen.findByText('Your data has been downloaded.')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Download as a readable page (HTML)' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(2));
    const [pageName, page, type] = save.mock.calls[1] ?? [];
    expect(pageName).toBe('my-soundid-data-2026-11-26.html');
    expect(type).toBe('text/html');
    expect(page).toContain('<h2>Devices</h2>');
    expect(api.callsTo('ExportMyData')).toHaveLength(1);
    expect(api.callsTo('ExportMyData')[0]?.body).toEqual({});
  });

  it('shows the limit fault and saves nothing', async () => {
    const save = vi.spyOn(textFile, 'saveTextFile').mockImplementation(() => undefined);
    mockApi({
      GetSessions: ok([]),
      GetSecondFactors: ok(twoStepOff),
      ListPasskeys: ok({ Passkeys: [] }),
      ExportMyData: fault('AttemptOverLimitDataExport', { ExceptionType: 40, ExceptionCode: 429 }),
    });
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: 'Download as a readable page (HTML)' }));
    await waitFor(() =>
      expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['AttemptOverLimitDataExport']),
    );
    expect(save).not.toHaveBeenCalled();
  });
});

describe('the readable page', () => {
  it('escapes every value and names the sections', () => {
    const page = dataExportPage(exported);
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Studio&quot;');
    expect(page).toContain('<h2>Sign-in methods</h2>');
    expect(page).toContain('<h2>Tokens</h2>\n<p>None</p>');
    const doc = new DOMParser().parseFromString(page, 'text/html');
    expect(doc.querySelector('img')).toBeNull();
    expect(doc.title).toBe('My SoundID: your data');
  });
});

describe('the deletion panel', () => {
  it('lists the licenses and unspent tokens the deletion would end before its confirm button', async () => {
    const api = mockApi({
      GetSessions: ok([]),
      GetSecondFactors: ok(twoStepOff),
      ListPasskeys: ok({ Passkeys: [] }),
      GetDeletionSummary: ok(summary),
      DeleteAccount: ok(),
    });
    const { user } = renderApp('/profile', { user: testUser });
    await user.click(await screen.findByRole('button', { name: 'Delete account' }));
    const losses = await screen.findByRole('list', { name: 'Deleting your account also ends:' });
    expect(
      within(losses)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'SoundID Reference, 2 keys',
      'SoundID VoiceAI, trial until 15 January 2027',
      '1,200 tokens unspent, valid until 3 March 2027',
    ]);
    expect(api.callsTo('GetDeletionSummary')[0]?.body).toEqual({ silent: true });
    await user.click(screen.getByRole('button', { name: 'Yes, delete my account' }));
    await waitFor(() => expect(api.callsTo('DeleteAccount')).toHaveLength(1));
  });

  it('asks as before when there is nothing to lose', async () => {
    mockApi({
      GetSessions: ok([]),
      GetSecondFactors: ok(twoStepOff),
      ListPasskeys: ok({ Passkeys: [] }),
      GetDeletionSummary: ok({ Licences: [], UnspentTokens: [] }),
    });
    const { user } = renderApp('/profile', { user: testUser });
    await user.click(await screen.findByRole('button', { name: 'Delete account' }));
    expect(screen.getByText('Are you sure? This cannot be undone.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Deleting your account also ends:')).not.toBeInTheDocument());
    expect(apiErrorsStore.get()).toEqual([]);
  });

  it('asks as before, without a banner, when the summary cannot be read', async () => {
    const api = mockApi({
      GetSessions: ok([]),
      GetSecondFactors: ok(twoStepOff),
      ListPasskeys: ok({ Passkeys: [] }),
      GetDeletionSummary: fault('ServiceUnavailable', { ExceptionType: 50, ExceptionCode: 503 }),
      DeleteAccount: ok(),
    });
    const { user } = renderApp('/profile', { user: testUser });
    await user.click(await screen.findByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(api.callsTo('GetDeletionSummary')).toHaveLength(1));
    expect(screen.queryByText('Deleting your account also ends:')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes, delete my account' }));
    await waitFor(() => expect(api.callsTo('DeleteAccount')).toHaveLength(1));
    expect(apiErrorsStore.get()).toEqual([]);
  });
});
