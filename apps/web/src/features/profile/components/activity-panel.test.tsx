import { ACTIVITY_PAGE_SIZE, type AccountEvent, formatHistoryDate } from '@soundid/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../lib/session';
import { fault, mockApi, ok, type RecordedCall, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

/** My activity on the profile (docs/decisions/0055-my-activity.md); e2e/my-activity.spec.ts walks it in Chromium. */
const at = Date.UTC(2026, 10, 20, 14, 5);
const signIn: AccountEvent = {
  Id: '41',
  Kind: 'signed_in',
  Text: 'Signed in from Firefox on Linux',
  At: at,
  Device: 'Firefox on Linux',
  Ip: '203.0.113.9',
  CanDispute: true,
};
const support: AccountEvent = {
  Id: '40',
  Kind: 'support_action',
  Text: 'SoundID support unlocked sign-in',
  At: at - 60_000,
  CanDispute: false,
};
const others = { GetSessions: ok([]), GetSecondFactors: ok({ TotpEnabled: false, RecoveryCodesLeft: 0 }) };

async function openPanel() {
  const app = renderApp('/profile', { user: testUser });
  const panel = await screen.findByRole('region', { name: 'My activity' });
  return { ...app, panel };
}

describe('My activity panel', () => {
  it('lists the entries newest first with their date and address; only what the customer may have done can be reported', async () => {
    mockApi({ ...others, GetMyActivity: ok({ PageItems: [signIn, support], PageNumber: 1, PageCount: 1 }) });
    const { panel } = await openPanel();
    const items = await within(panel).findAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.activity__text')?.textContent)).toEqual([
      'Signed in from Firefox on Linux',
      'SoundID support unlocked sign-in',
    ]);
    expect(within(items[0] as HTMLElement).getByText(formatHistoryDate(at))).toBeInTheDocument();
    expect(items[0]).toHaveTextContent('from 203.0.113.9');
    expect(
      within(items[0] as HTMLElement).getByRole('button', { name: "This wasn't me: Signed in from Firefox on Linux" }),
    ).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).queryByRole('button')).toBeNull();
    expect(within(panel).queryByRole('navigation')).toBeNull();
  });

  it('pages like the other histories', async () => {
    const entries = (page: number) =>
      Array.from({ length: ACTIVITY_PAGE_SIZE }, (_, i) => ({
        ...support,
        Id: String(page * 100 + i),
        Text: `Entry ${page}-${i}`,
      }));
    const answerPage = ({ body }: RecordedCall) =>
      ok({ PageItems: entries(body.page as number), PageNumber: body.page as number, PageCount: 3 });
    const api = mockApi({ ...others, GetMyActivity: answerPage });
    const { user, panel } = await openPanel();
    expect(await within(panel).findByText('Entry 1-0')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Page 2' }));
    expect(await within(panel).findByText('Entry 2-0')).toBeInTheDocument();
    expect(api.callsTo('GetMyActivity').map((call) => call.body.page)).toEqual([1, 2]);
  });

  it('asks before reporting, then signs out and goes to the sign-in page telling the customer to check the mail', async () => {
    const api = mockApi({
      ...others,
      GetMyActivity: ok({ PageItems: [signIn], PageNumber: 1, PageCount: 1 }),
      ReportNotMe: ok({ FrozenUntil: at + 86_400_000 }),
    });
    const { user, panel, router } = await openPanel();
    await user.click(await within(panel).findByRole('button', { name: /This wasn't me/ }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Report “Signed in from Firefox on Linux” as not yours?',
    });
    expect(dialog).toHaveTextContent('sign out every device');
    // Closing the question reports nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(api.callsTo('ReportNotMe')).toHaveLength(0);

    await user.click(within(panel).getByRole('button', { name: /This wasn't me/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: "Yes, it wasn't me" }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(api.callsTo('ReportNotMe')[0]?.body).toMatchObject({ eventId: '41' });
    expect(sessionStore.get()).toBeNull();
    expect(await screen.findByText(/Check your email for a link to choose a new password/)).toBeInTheDocument();
  });

  it('says why a report was refused, in the dialog, and stays signed in', async () => {
    mockApi({
      ...others,
      GetMyActivity: ok({ PageItems: [signIn], PageNumber: 1, PageCount: 1 }),
      ReportNotMe: fault('AttemptOverLimitNotMe', { ExceptionCode: 429, ExceptionType: 40 }),
    });
    const { user, panel } = await openPanel();
    await user.click(await within(panel).findByRole('button', { name: /This wasn't me/ }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: "Yes, it wasn't me" }));
    expect(await within(dialog).findByText(/Too many reports/)).toBeInTheDocument();
    expect(sessionStore.get()).toEqual(testUser);
  });

  it('says so when there is nothing yet', async () => {
    mockApi({ ...others, GetMyActivity: ok({ PageItems: [], PageNumber: 1, PageCount: 1 }) });
    const { panel } = await openPanel();
    expect(await within(panel).findByText('Nothing here yet.')).toBeInTheDocument();
  });
});
