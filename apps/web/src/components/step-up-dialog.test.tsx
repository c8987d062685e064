import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { postAccountCall } from '../lib/api-client';
import { fault, inSequence, mockApi, ok, testUser } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';

/**
 * The step-up dialog (ADR 0040): a call answering StepUpRequired is asked about in place, and
 * sent again once presence is proven; closed, the call fails as it would have.
 */
const stepUpRequired = (methods: string) =>
  fault('StepUpRequired', {
    ExceptionCode: 403,
    ExceptionVariables: [{ Key: 'Methods', Value: methods }],
  });

async function askToChangeEmail() {
  const app = renderApp('/profile', { user: testUser });
  await app.user.click(await screen.findByRole('button', { name: 'Change Email' }));
  await app.user.type(screen.getByLabelText('New email address'), 'new@example.com');
  await app.user.click(screen.getByRole('button', { name: 'Save' }));
  return app;
}

const profileCalls = { GetSessions: ok([]), GetSecondFactors: ok({ TotpEnabled: false, RecoveryCodesLeft: 0 }) };

describe('step-up dialog', () => {
  it('asks for the password, then sends the e-mail change again and shows its message', async () => {
    const api = mockApi({
      ...profileCalls,
      ListPasskeys: ok({ Passkeys: [] }),
      ChangeEmail: inSequence(stepUpRequired('Password,Totp'), ok({})),
      StepUp: inSequence(fault('StepUpProofInvalid'), ok({ ProvenUntil: '2026-11-26T10:10:00.000Z' })),
    });
    const { user } = await askToChangeEmail();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.type(within(dialog).getByLabelText('Password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText("That didn't confirm it's you. Please try again.")).toBeInTheDocument();
    expect(api.callsTo('ChangeEmail')).toHaveLength(1);

    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('We have sent a confirmation link to your new email address. Please check your inbox.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('StepUp').map((c) => c.body)).toEqual([
      { method: 'Password', password: 'wrong', silent: true },
      { method: 'Password', password: 'right', silent: true },
    ]);
    expect(api.callsTo('ChangeEmail').map((c) => c.body)).toEqual([
      { newEmail: 'new@example.com' },
      { newEmail: 'new@example.com' },
    ]);
  });

  it('offers the other ways the account has; an account without a password gets a mailed code', async () => {
    const api = mockApi({
      ...profileCalls,
      ListPasskeys: ok({ Passkeys: [] }),
      ChangeEmail: inSequence(stepUpRequired('EmailCode'), ok({})),
      SendStepUpCode: ok({}),
      StepUp: ok({ ProvenUntil: '2026-11-26T10:10:00.000Z' }),
    });
    const { user } = await askToChangeEmail();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Email me a code' }));
    await user.type(await within(dialog).findByLabelText('Code from the email'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(/We have sent a confirmation link/)).toBeInTheDocument();
    expect(api.callsTo('SendStepUpCode')).toHaveLength(1);
    expect(api.callsTo('StepUp')[0]?.body).toEqual({ method: 'EmailCode', code: '123456', silent: true });
  });

  it('makes Confirm the primary button and lists the other ways under one label', async () => {
    mockApi({
      ...profileCalls,
      ListPasskeys: ok({ Passkeys: [] }),
      ChangeEmail: stepUpRequired('Password,Totp,Passkey'),
    });
    const { user } = await askToChangeEmail();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toHaveClass('button--primary');
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveClass('button--secondary');
    const others = () =>
      within(within(dialog).getByRole('list', { name: 'Or confirm another way:' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(others()).toEqual(['Authenticator app', 'Passkey']);
    await user.click(within(dialog).getByRole('button', { name: 'Authenticator app' }));
    expect(within(dialog).getByLabelText('Code from your authenticator app')).toBeInTheDocument();
    expect(others()).toEqual(['Password', 'Passkey']);
  });

  it('closed, sends nothing more: the change is not made', async () => {
    const api = mockApi({
      ...profileCalls,
      ListPasskeys: ok({ Passkeys: [] }),
      ChangeEmail: stepUpRequired('Password,Totp,Passkey'),
    });
    const { user } = await askToChangeEmail();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    for (const way of ['Authenticator app', 'Passkey']) {
      expect(within(dialog).getByRole('button', { name: way })).toBeInTheDocument();
    }
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('ChangeEmail')).toHaveLength(1);
    expect(api.callsTo('StepUp')).toHaveLength(0);
    expect(screen.queryByText(/We have sent a confirmation link/)).not.toBeInTheDocument();
  });

  it('two calls that meet StepUpRequired together share one dialog and one proof, and both go through', async () => {
    const api = mockApi({
      ...profileCalls,
      ListPasskeys: ok({ Passkeys: [] }),
      ChangeEmail: inSequence(stepUpRequired('Password'), ok({})),
      DeleteAccount: inSequence(stepUpRequired('Password'), ok({})),
      StepUp: ok({ ProvenUntil: '2026-11-26T10:10:00.000Z' }),
    });
    const { user } = renderApp('/profile', { user: testUser });
    await screen.findByRole('button', { name: 'Change Email' });
    const both = Promise.all([
      postAccountCall('ChangeEmail', { newEmail: 'new@example.com' }),
      postAccountCall('DeleteAccount', {}),
    ]);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.type(within(dialog).getByLabelText('Password'), 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await both;
    expect(api.callsTo('StepUp')).toHaveLength(1);
    expect(api.callsTo('ChangeEmail')).toHaveLength(2);
    expect(api.callsTo('DeleteAccount')).toHaveLength(2);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
