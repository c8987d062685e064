import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fault, inSequence, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

/** Passkeys on the profile (ADR 0039); adding one is covered in the browser (e2e/passkeys.spec.ts). */
const laptop = {
  Id: '00000000-0000-4000-8000-000000000001',
  Name: 'iCloud Keychain',
  CreatedAt: '2026-01-02T10:00:00.000Z',
  LastUsedAt: null,
  BackedUp: true,
};

async function openPanel() {
  const app = renderApp('/profile', { user: testUser });
  const panel = await screen.findByRole('region', { name: 'Passkeys' });
  return { ...app, panel };
}

describe('passkeys panel', () => {
  it('lists the passkeys with their dates, renames and removes one', async () => {
    const api = mockApi({
      GetSessions: ok([]),
      GetSecondFactors: ok({ TotpEnabled: false, RecoveryCodesLeft: 0 }),
      ListPasskeys: inSequence(
        ok({ Passkeys: [laptop] }),
        ok({ Passkeys: [{ ...laptop, Name: 'My Mac' }] }),
        ok({ Passkeys: [] }),
      ),
      RenamePasskey: ok({ Passkey: { ...laptop, Name: 'My Mac' } }),
      RemovePasskey: ok({}),
    });
    const { user, panel } = await openPanel();
    const list = await within(panel).findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('iCloud Keychain')).toBeInTheDocument();
    expect(within(list).getByText('Added 2 Jan 2026, not used yet, synced')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Rename iCloud Keychain' }));
    const name = within(panel).getByLabelText('Passkey name');
    await user.clear(name);
    await user.type(name, 'My Mac');
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByText('My Mac')).toBeInTheDocument();
    expect(api.callsTo('RenamePasskey')[0]?.body).toMatchObject({ id: laptop.Id, name: 'My Mac' });

    await user.click(within(panel).getByRole('button', { name: 'Remove My Mac' }));
    expect(within(panel).getByText('Remove the passkey “My Mac”? It will no longer sign you in.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Remove' }));
    expect(await within(panel).findByText('You have no passkeys yet.')).toBeInTheDocument();
    expect(api.callsTo('RemovePasskey')[0]?.body).toMatchObject({ id: laptop.Id });
  });

  it('says a refused rename in place', async () => {
    mockApi({
      GetSessions: ok([]),
      GetSecondFactors: ok({ TotpEnabled: false, RecoveryCodesLeft: 0 }),
      ListPasskeys: ok({ Passkeys: [laptop] }),
      RenamePasskey: fault('PasskeyNotFound'),
    });
    const { user, panel } = await openPanel();
    await user.click(await within(panel).findByRole('button', { name: 'Rename iCloud Keychain' }));
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByText('That passkey was not found.')).toBeInTheDocument();
  });
});
