import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notificationsStore } from '../../../lib/notifications';
import { fault, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

async function openAddLicense() {
  const app = renderApp('/add-license', { user: testUser });
  await screen.findByRole('heading', { level: 1, name: 'Add activation key to activate and manage your license.' });
  return { ...app, input: screen.getByLabelText('License activation key') };
}

describe('add license', () => {
  it('masks the key as 6-6-6-6 in upper case', async () => {
    const { user, input } = await openAddLicense();
    await user.type(input, 'abcdef123456ghijkl7890ab');
    expect(input).toHaveValue('ABCDEF-123456-GHIJKL-7890AB');
  });

  it('only refocuses the field when the key is empty', async () => {
    const api = mockApi({});
    const { user, input } = await openAddLicense();
    await user.click(screen.getByRole('button', { name: 'Register key' }));
    expect(input).toHaveFocus();
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(api.calls).toHaveLength(0);
  });

  it('flips to an error for a value shaped like an upgrade code', async () => {
    const api = mockApi({});
    const { user, input } = await openAddLicense();
    await user.type(input, 'UPG-ABCDEFGH12');
    await user.click(screen.getByRole('button', { name: 'Register key' }));
    expect(input).toHaveValue('UPG-ABCDEFGH12');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/This looks like an upgrade code\./)).toHaveTextContent(
      'Please register your Reference 4, SoundID Reference or older license activation key first.',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('registers a key and goes to products with a notice', async () => {
    const api = mockApi({ RegisterKey: ok({ ProductCount: 1 }) });
    const { user, input, router } = await openAddLicense();
    await user.type(input, 'ABCDEF123456GHIJKL7890AB');
    await user.click(screen.getByRole('button', { name: 'Register key' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
    expect(api.callsTo('RegisterKey')[0]?.body).toEqual({ key: 'ABCDEF-123456-GHIJKL-7890AB' });
    expect(notificationsStore.get()[0]?.content).toBe('Your activation key has been registered successfully!');
  });

  it('explains a key owned by another account in a popup', async () => {
    mockApi({
      RegisterKey: fault('KeyOwnedByAnotherUser', {
        ExceptionVariables: [{ Key: 'OtherUserEmail', Value: 'o***@e***.com' }],
      }),
    });
    const { user, input } = await openAddLicense();
    await user.type(input, 'ABCDEF123456GHIJKL7890AB');
    await user.click(screen.getByRole('button', { name: 'Register key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activation key already used' });
    expect(dialog).toHaveTextContent('o***@e***.com');
    expect(dialog).toHaveTextContent('An activation key can be used with one account at a time.');
    expect(screen.getByText('License registration error.')).toBeInTheDocument();
  });

  it('offers the activation of a voice AI key on the products page', async () => {
    mockApi({
      RegisterKey: ok({
        ProductCount: 1,
        VoiceAi: { AssetCount: 0, ActivationUrl: 'soundid://activate?product=SoundIDVoiceAI' },
      }),
      '/api/licenses/GetAccountLicensesByProductLine': fault('ServiceUnavailable'),
    });
    const { user, input, router } = await openAddLicense();
    await user.type(input, 'ABCDEF123456GHIJKL7890AB');
    await user.click(screen.getByRole('button', { name: 'Register key' }));
    const offer = await screen.findByRole('link', { name: 'Activate SoundID VoiceAI' });
    expect(router.state.location.pathname).toBe('/products');
    expect(offer).toHaveAttribute(
      'href',
      '/products/voice-ai/activate?deeplink=soundid%3A%2F%2Factivate%3Fproduct%3DSoundIDVoiceAI&activationType=normal',
    );
  });

  it('shows the key faults of the real API in the banner and keeps the key', async () => {
    mockApi({ RegisterKey: fault('KeyNotFound', { ExceptionCode: 404 }) });
    const { user, input } = await openAddLicense();
    await user.type(input, 'ABCDEF123456GHIJKL7890AB');
    await user.click(screen.getByRole('button', { name: 'Register key' }));
    expect(
      await screen.findByText(
        'License activation key is not valid. Please check if you have entered the key correctly.',
      ),
    ).toBeInTheDocument();
    expect(input).toHaveValue('ABCDEF-123456-GHIJKL-7890AB');
  });
});
