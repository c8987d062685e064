import { formatAddress } from '@soundid/contracts';
import { profileText } from '@soundid/contracts/ui-text';
import { useCallback, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Page } from '../../../components/page';
import { useSessionUser } from '../../../lib/session';
import { ActivityPanel } from './activity-panel';
import { AddressEditor } from './address-editor';
import { DataExportPanel } from './data-export-panel';
import { DeleteAccountPanel } from './delete-account-panel';
import { EmailEditor } from './email-editor';
import { PasskeysPanel } from './passkeys-panel';
import { PasswordEditor } from './password-editor';
import { ProfileRow } from './profile-row';
import { SessionsPanel } from './sessions-panel';
import { TokenNoticesPanel } from './token-notices-panel';
import { TwoStepPanel } from './two-step-panel';

type Row = 'email' | 'address' | 'password';

/** Where change-password links land: the profile with the password row open. */
export const CHANGE_PASSWORD_HASH = '#change-password';

export function ProfileScreen() {
  const user = useSessionUser();
  const location = useLocation();
  const [editing, setEditing] = useState<Row | null>(() =>
    location.hash === CHANGE_PASSWORD_HASH ? 'password' : null,
  );
  const close = useCallback(() => setEditing(null), []);
  if (!user) return null;

  return (
    <Page heading={profileText.profileHeading} width="medium">
      <div className="card card--rows">
        <ProfileRow
          id="email"
          label={profileText.emailRow}
          value={user.Email}
          isEditing={editing === 'email'}
          onEdit={() => setEditing('email')}
          editor={<EmailEditor onDone={close} />}
        />
        <ProfileRow
          id="address"
          label={profileText.addressRow}
          value={formatAddress(user.Profile)}
          isEditing={editing === 'address'}
          onEdit={() => setEditing('address')}
          editor={<AddressEditor profile={user.Profile} onDone={close} />}
        />
        {user.HasPassword ? (
          <ProfileRow
            id="change-password"
            label={profileText.passwordRow}
            value={profileText.passwordHidden}
            isEditing={editing === 'password'}
            onEdit={() => setEditing('password')}
            editor={<PasswordEditor onDone={close} />}
          />
        ) : (
          <section id="change-password" className="profile-row" aria-labelledby="set-password-label">
            <div className="profile-row__summary">
              <h2 id="set-password-label" className="profile-row__label">
                {profileText.passwordRow}
              </h2>
              <div className="profile-row__value">{profileText.noPasswordYet}</div>
              <Link className="profile-row__action" to="/profile/set-password">
                {profileText.setPasswordLink}
              </Link>
            </div>
          </section>
        )}
      </div>
      <TwoStepPanel />
      <PasskeysPanel />
      <SessionsPanel />
      <TokenNoticesPanel />
      <ActivityPanel />
      <DataExportPanel />
      <DeleteAccountPanel />
    </Page>
  );
}
