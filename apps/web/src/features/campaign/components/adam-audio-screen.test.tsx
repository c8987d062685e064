import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fault, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

async function openClaim() {
  const app = renderApp('/adam-audio', { user: testUser });
  await screen.findByRole('heading', { level: 1, name: 'Claim your 60-day trial' });
  return { ...app, input: screen.getByLabelText('Monitor serial number') };
}

describe('ADAM Audio trial claim', () => {
  it('checks the serial is 9 to 24 characters before calling', async () => {
    const api = mockApi({});
    const { user, input } = await openClaim();
    await user.type(input, 'ADAM-123');
    await user.click(screen.getByRole('button', { name: 'Claim trial' }));
    expect(await screen.findByText('Serial number must be at least 9 characters.')).toBeInTheDocument();
    expect(input).toHaveAttribute('maxLength', '24');
    expect(api.calls).toHaveLength(0);
  });

  it('shows the claim faults under the field', async () => {
    mockApi({ '/api/accounts/Campaign/ClaimAdam60Day': fault('SerialAlreadyUsed', { ExceptionCode: 409 }) });
    const { user, input } = await openClaim();
    await user.type(input, 'ADAM-DEMO-000001');
    await user.click(screen.getByRole('button', { name: 'Claim trial' }));
    expect(await screen.findByText('This serial number has already been used to claim a trial.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('region', { name: 'Errors' })).toBeNull();
  });

  it('claims: success message and a way to the licences', async () => {
    const api = mockApi({
      '/api/accounts/Campaign/ClaimAdam60Day': ok({ ProductName: 'SoundIDReference', TrialEndsAt: '/Date(1)/' }),
    });
    const { user, input } = await openClaim();
    await user.type(input, ' ADAM-DEMO-000001 ');
    await user.click(screen.getByRole('button', { name: 'Claim trial' }));
    expect(await screen.findByText('Your 60-day trial has been activated successfully!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Licenses & Devices' })).toHaveAttribute('href', '/products');
    expect(api.callsTo('ClaimAdam60Day')[0]?.body).toEqual({ serial: 'ADAM-DEMO-000001', silent: true });
  });
});
