import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { inSequence, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

/** Two-step verification on the profile (ADR 0037). */
const codes = Array.from({ length: 10 }, (_, i) => `aaaaa${i}-bbbbbb-cccccc-dddddd`);

async function openPanel() {
  const app = renderApp('/profile', { user: testUser });
  const panel = await screen.findByRole('region', { name: 'Two-step verification' });
  return { ...app, panel };
}

describe('two-step verification panel', () => {
  it('turns on: a QR code drawn here and the key as text, confirmed by a code, then the recovery codes once', async () => {
    const api = mockApi({
      GetSessions: ok([]),
      GetSecondFactors: inSequence(
        ok({ TotpEnabled: false as boolean, RecoveryCodesLeft: 0 }),
        ok({ TotpEnabled: true as boolean, RecoveryCodesLeft: 10 }),
      ),
      BeginTotpSetup: ok({
        Secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        OtpauthUrl: 'otpauth://totp/My%20SoundID:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      }),
      ConfirmTotpSetup: ok({ RecoveryCodes: codes }),
    });
    const { user, panel } = await openPanel();
    await user.click(await within(panel).findByRole('button', { name: 'Turn on' }));
    const qr = await within(panel).findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.querySelector('path')?.getAttribute('d')?.length).toBeGreaterThan(100);
    expect(within(panel).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    await user.type(within(panel).getByLabelText('Code from the app'), '123456');
    await user.click(within(panel).getByRole('button', { name: 'Turn on two-step verification' }));
    const list = await within(panel).findByRole('list', { name: 'Your recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(api.callsTo('ConfirmTotpSetup')[0]?.body).toEqual({ code: '123456' });
    await user.click(within(panel).getByRole('button', { name: 'I have saved my codes' }));
    expect(await within(panel).findByText(/On\. Signing in asks for a code/)).toBeInTheDocument();
    expect(within(panel).getByText(/10 recovery codes left/)).toBeInTheDocument();
    expect(within(panel).queryByRole('list')).not.toBeInTheDocument();
  });

  it('turns off only with a code; a wrong one is said in place', async () => {
    const api = mockApi({
      GetSessions: ok([]),
      GetSecondFactors: ok({ TotpEnabled: true, RecoveryCodesLeft: 3 }),
      DisableTotp: inSequence(
        {
          Success: false,
          Fault: {
            ExceptionName: 'SecondFactorCodeInvalid',
            ExceptionType: 20,
            ExceptionCode: 401,
            ExceptionUserText: 'That code is not valid. Please try again.',
            ExceptionVariables: [],
          },
        },
        ok({}),
      ),
    });
    const { user, panel } = await openPanel();
    expect(await within(panel).findByText(/3 recovery codes left/)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Turn off' }));
    await user.type(within(panel).getByLabelText('Code'), '111111');
    await user.click(within(panel).getByRole('button', { name: 'Turn off' }));
    expect(await within(panel).findByText('That code is not valid. Please try again.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Two-step verification is off.')).toBeInTheDocument();
    expect(api.callsTo('DisableTotp')).toHaveLength(2);
  });
});
