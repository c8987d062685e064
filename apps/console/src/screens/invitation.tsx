import { type CallResult, OPERATOR_PASSWORD_MIN_LENGTH } from '@soundid/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CodeField, codeOf } from '../components/code-field';
import { FaultMessage } from '../components/fault-message';
import { QrCode } from '../components/qr-code';
import { Screen } from '../components/screen';
import { post } from '../lib/api';
import type { SignInState } from '../lib/session';
import { useRun } from '../lib/use-run';

type Accepted = CallResult<'AcceptOperatorInvitation'>;

/**
 * The invitation mail's link (`/console/invitation/<token>`, ADR 0044): a password
 * (AcceptOperatorInvitation), then the authenticator secret as a QR code drawn here and as text,
 * confirmed by the app's first code (ConfirmOperatorInvitation); then sign-in.
 */
export function InvitationScreen() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [accepted, setAccepted] = useState<Accepted>();
  const { run, error, setError, pending } = useRun();
  const id = useId();

  const setPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    if (password !== String(form.get('repeat') ?? '')) {
      setError(new Error('The two passwords differ.'));
      return;
    }
    void run(async () => setAccepted(await post('AcceptOperatorInvitation', { token, password })));
  };

  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = codeOf(event.currentTarget);
    void run(async () => {
      const { Email } = await post('ConfirmOperatorInvitation', { token, code });
      const state: SignInState = { email: Email, notice: 'Your operator account is active. Sign in with a new code.' };
      navigate('/sign-in', { replace: true, state });
    });
  };

  return (
    <main id="main" className="narrow">
      <Screen title="Set up your operator account">
        {!accepted ? (
          <form key="password" onSubmit={setPassword} className="panel stack" noValidate>
            <p>Choose the password you will sign in to the console with.</p>
            <label htmlFor={`${id}-password`}>Password</label>
            <input
              id={`${id}-password`}
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={OPERATOR_PASSWORD_MIN_LENGTH}
              aria-describedby={`${id}-password-hint`}
            />
            <p id={`${id}-password-hint`} className="hint">
              At least {OPERATOR_PASSWORD_MIN_LENGTH} characters, not a common or breached one.
            </p>
            <label htmlFor={`${id}-repeat`}>Repeat the password</label>
            <input id={`${id}-repeat`} name="repeat" type="password" autoComplete="new-password" required />
            <FaultMessage error={error} />
            <div className="actions">
              <button type="submit" className="primary" disabled={pending}>
                Set password
              </button>
            </div>
          </form>
        ) : (
          <form key="code" onSubmit={confirm} className="panel stack">
            <p>
              Add <strong>{accepted.Email}</strong> to your authenticator app: scan the code, or type the secret key.
            </p>
            <QrCode value={accepted.OtpauthUrl} label="QR code of your authenticator secret" />
            <p>
              Secret key: <code data-testid="totp-secret">{accepted.TotpSecret}</code>
            </p>
            <CodeField />
            <FaultMessage error={error} />
            <div className="actions">
              <button type="submit" className="primary" disabled={pending}>
                Confirm
              </button>
            </div>
          </form>
        )}
      </Screen>
    </main>
  );
}
