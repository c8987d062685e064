import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { CodeField, codeOf } from '../components/code-field';
import { FaultMessage } from '../components/fault-message';
import { Screen } from '../components/screen';
import { ApiFault, type ConsoleFaultName, post } from '../lib/api';
import { fieldText } from '../lib/form';
import { type SignInState, signedInTab, useMeQuery } from '../lib/session';
import { useRun } from '../lib/use-run';

/** Faults that mean the challenge is gone: the password step again. */
const CHALLENGE_GONE: readonly ConsoleFaultName[] = ['OperatorChallengeInvalid'];

/**
 * Sign-in, always two steps (ADR 0044): e-mail and password (OperatorLogin) answer a challenge,
 * the authenticator's code (OperatorLoginSecondFactor) opens the console session, whose cookie
 * the service sets for `/api/admin` alone.
 */
export function SignInScreen() {
  const location = useLocation();
  const state = (location.state ?? {}) as SignInState;
  const navigate = useNavigate();
  const client = useQueryClient();
  const [challenge, setChallenge] = useState<string>();
  const { run, error, setError, pending } = useRun();
  const [notice, setNotice] = useState(state.ended ?? state.notice);
  const onwards = state.from && state.from.pathname !== '/sign-in' ? state.from : '/';
  const id = useId();
  const codeField = useRef<HTMLInputElement>(null);
  // An operator already signed in (a bookmark, the back button) goes on to the console.
  const me = useMeQuery();

  // The tab is signed out from here on: a session fault later says nothing of this session.
  useEffect(() => {
    if (me.isError) signedInTab.clear();
  }, [me.isError]);
  useEffect(() => {
    if (challenge) codeField.current?.focus();
  }, [challenge]);

  const signIn = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void run(async () => {
      const { Challenge } = await post('OperatorLogin', {
        email: fieldText(form, 'email'),
        password: String(form.get('password') ?? ''),
      });
      setNotice(undefined);
      setChallenge(Challenge);
    });
  };

  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!challenge) return;
    const code = codeOf(event.currentTarget);
    void run(async () => {
      try {
        await post('OperatorLoginSecondFactor', { challenge, code });
      } catch (caught) {
        if (caught instanceof ApiFault && caught.is(...CHALLENGE_GONE)) setChallenge(undefined);
        throw caught;
      }
      signedInTab.mark();
      client.clear();
      navigate(onwards, { replace: true });
    });
  };

  if (me.data) return <Navigate to={onwards} replace />;

  return (
    <main id="main" className="narrow">
      <Screen title="Sign in to the console">
        {notice && (
          <p className={state.ended ? 'fault' : 'done'} role={state.ended ? 'alert' : 'status'}>
            {notice}
          </p>
        )}
        {!challenge ? (
          <form key="password" onSubmit={signIn} className="panel stack">
            <label htmlFor={`${id}-email`}>E-mail</label>
            <input
              id={`${id}-email`}
              name="email"
              type="email"
              autoComplete="username"
              required
              defaultValue={state.email}
            />
            <label htmlFor={`${id}-password`}>Password</label>
            <input id={`${id}-password`} name="password" type="password" autoComplete="current-password" required />
            <FaultMessage error={error} />
            <div className="actions">
              <button type="submit" className="primary" disabled={pending}>
                Continue
              </button>
            </div>
          </form>
        ) : (
          <form key="code" onSubmit={confirm} className="panel stack">
            <CodeField inputRef={codeField} />
            <FaultMessage error={error} />
            <div className="actions">
              <button type="submit" className="primary" disabled={pending}>
                Sign in
              </button>
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setChallenge(undefined);
                  setError(undefined);
                }}
              >
                Back
              </button>
            </div>
          </form>
        )}
      </Screen>
    </main>
  );
}
