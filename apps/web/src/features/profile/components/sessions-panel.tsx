import { formatHistoryDate, messages } from '@soundid/contracts';
import { profileText, text } from '@soundid/contracts/ui-text';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { PasswordField } from '../../../components/password-field';
import { isFault } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useSessionUser } from '../../../lib/session';
import { useEndOtherSessions, useSessions } from '../api/sessions';
import './sessions-panel.css';

/**
 * Where the customer is signed in, with a way to sign out everywhere else. Ending the other
 * sessions asks for the password first (ASVS 7.5.2); an account without one sends none, and
 * the service asks for a step-up unless one is recent (ADR 0040): StepUpRequired shows here
 * only when the customer closed that dialog.
 */
const REAUTHENTICATION_FAULTS = ['ReauthenticationPasswordInvalid', 'StepUpRequired', 'AttemptOverLimitLogin'] as const;

export function SessionsPanel() {
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const hasPassword = useSessionUser()?.HasPassword ?? false;
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const others = sessions.data?.filter((s) => !s.Current).length ?? 0;
  // The refusals this panel explains itself; any other fault goes to the page's banner.
  const refusal = isFault(endOthers.error, ...REAUTHENTICATION_FAULTS) ? endOthers.error.message : null;

  const end = (event?: FormEvent) => {
    event?.preventDefault();
    endOthers.mutate(hasPassword ? { password } : {}, {
      onSuccess: () => {
        setConfirming(false);
        setPassword('');
        notify('success', messages.otherSessionsEnded);
      },
    });
  };

  return (
    <section className="card sessions" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="sessions__heading">
        {profileText.sessionsHeading}
      </h2>
      {sessions.isPending ? (
        <p>{text.loading}</p>
      ) : (
        <ul className="sessions__list">
          {sessions.data?.map((session) => (
            <li key={session.Id} className="sessions__item">
              <span className="sessions__device">{session.Device}</span>
              <span className="sessions__meta">
                {session.Current
                  ? profileText.thisDevice
                  : `${profileText.lastActive} ${formatHistoryDate(session.LastSeenAt)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {others > 0 && confirming && (
        <form className="form form--inline" noValidate onSubmit={end}>
          <PasswordField
            label={text.password}
            hint={profileText.endOtherSessionsConfirm}
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          {refusal && <FormMessage tone="error">{refusal}</FormMessage>}
          <div className="form__actions">
            <Button type="submit" isBusy={endOthers.isPending} disabled={endOthers.isPending || !password}>
              {profileText.endOtherSessions}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {text.cancel}
            </Button>
          </div>
        </form>
      )}
      {others > 0 && !confirming && (
        <>
          {!hasPassword && refusal && <FormMessage tone="error">{refusal}</FormMessage>}
          <Button
            variant="secondary"
            isBusy={endOthers.isPending}
            disabled={endOthers.isPending}
            onClick={() => (hasPassword ? setConfirming(true) : end())}
          >
            {profileText.endOtherSessions}
          </Button>
        </>
      )}
    </section>
  );
}
