import { emailProblem, faultMessage, messages, passwordProblem } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { PasswordField } from '../../../components/password-field';
import { TextField } from '../../../components/text-field';
import { isApiError, isFault } from '../../../lib/api-errors';
import { type EmailCredentials, useLoginByEmail } from '../api/login-by-email';
import { useResendVerificationEmail } from '../api/resend-verification-email';

/** The second step, loaded only for an account with two-step verification (ADR 0037). */
const SecondFactorStep = lazy(() => import('./second-factor-step'));

/** Which fields break the contracts' rules (their texts are not shown on this form). */
function invalidFields({ email, password }: EmailCredentials) {
  return { email: emailProblem(email) !== undefined, password: passwordProblem(password) !== undefined };
}

/**
 * E-mail sign-in (docs/requirements.md §5): an invalid field takes the focus (e-mail first), the validators'
 * texts are not shown, and submit waits for both fields. After a refused submit the marks follow
 * the typing. Success sets the user; the guards then take the customer on. A plain form with the
 * zod-free rules, so that /login loads no form or schema library (ADR 0020).
 * `otherWays` (the passkey sign-in) follows the password form and gives way to the code step,
 * which offers its own passkey, the one that completes this sign-in (ADR 0039).
 */
export function LoginForm({ otherWays }: { otherWays?: ReactNode }) {
  const [values, setValues] = useState<EmailCredentials>({ email: '', password: '' });
  const [wasSubmitted, setSubmitted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const login = useLoginByEmail();
  const resend = useResendVerificationEmail();
  const [credentials, setCredentials] = useState<EmailCredentials>();
  const isBlank = !values.email || !values.password;
  const invalid = wasSubmitted ? invalidFields(values) : { email: false, password: false };

  const send = (sent: EmailCredentials) => {
    setSubmitted(true);
    const refused = invalidFields(sent);
    if (refused.email) return emailRef.current?.focus();
    if (refused.password) return passwordRef.current?.focus();
    const accepted = { email: sent.email.trim(), password: sent.password };
    resend.reset();
    setCredentials(accepted);
    login.mutate(accepted);
  };

  // The service may have sent this form rendered (ADR 0024): what was typed or autofilled before
  // the app started is in the inputs, not yet in the state, and Enter pressed meanwhile met a
  // disabled submit, which the loader noted on the form (after-paint.ts): it is sent now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the form the service sent
  useEffect(() => {
    const early = { email: emailRef.current?.value ?? '', password: passwordRef.current?.value ?? '' };
    const form = formRef.current as (HTMLFormElement & { enterBeforeStart?: boolean }) | null;
    const wasEnterPressed = form?.enterBeforeStart === true;
    if (form) delete form.enterBeforeStart;
    if (!early.email && !early.password) return;
    setValues(early);
    if (wasEnterPressed) send(early);
  }, []);

  const change = (field: keyof EmailCredentials) => (event: { target: HTMLInputElement }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(values);
  };

  const challenge = isFault(login.error, 'SecondFactorRequired') && login.error.variable('Challenge');
  if (challenge)
    return (
      <Suspense>
        <SecondFactorStep challenge={challenge} onStartOver={login.reset} />
      </Suspense>
    );

  return (
    <>
      {/* POST: a form submitted before the app runs (a password manager's auto-submit) must not
          put the password in the address; the service answers it with a 404 Fault (ADR 0024). */}
      <form className="form" method="post" onSubmit={submit} noValidate ref={formRef}>
        <TextField
          label={text.email}
          type="email"
          autoComplete="email"
          name="email"
          value={values.email}
          onChange={change('email')}
          invalid={invalid.email}
          ref={emailRef}
        />
        <PasswordField
          label={text.password}
          autoComplete="current-password"
          name="password"
          value={values.password}
          onChange={change('password')}
          invalid={invalid.password}
          ref={passwordRef}
        />
        {isFault(login.error, 'UserLoginEmailUnverifiedAndLinkExpired') ? (
          resend.isSuccess ? (
            <FormMessage tone="success">{messages.verificationResent}</FormMessage>
          ) : (
            <FormMessage tone="error">
              <p>{messages.verifyToLogIn}</p>
              <Button
                variant="secondary"
                isBusy={resend.isPending}
                disabled={resend.isPending || !credentials}
                onClick={() => credentials && resend.mutate(credentials)}
              >
                {text.resendVerificationLink}
              </Button>
            </FormMessage>
          )
        ) : (
          isApiError(login.error) && (
            <FormMessage tone="error">
              {faultMessage(login.error.faultName, login.error.fault.ExceptionUserText)}
            </FormMessage>
          )
        )}
        <Button type="submit" isBusy={login.isPending} disabled={isBlank || login.isPending}>
          {text.loginButton}
        </Button>
      </form>
      {otherWays}
    </>
  );
}
