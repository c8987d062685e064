import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { type FaultBody, faultMessage, STEP_UP_METHODS, type StepUpMethod } from '@soundid/contracts';
import { stepUpText } from '@soundid/contracts/ui-text';
import { type FormEvent, useId, useState } from 'react';
import { call } from '../lib/api-call';
import type { CallInput } from '../lib/api-client';
import { isApiError } from '../lib/api-errors';
import { useSessionUser } from '../lib/session';
import { Button } from './button';
import { Dialog } from './dialog';
import { FormMessage } from './form-message';
import { PasswordField } from './password-field';
import { TextField } from './text-field';
import './step-up-dialog.css';

type AssertionAnswer = Extract<CallInput<'StepUp'>, { method: 'Passkey' }>['response'];
type RequestOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

/** The account's ways to prove presence, as the StepUpRequired fault names them. */
export function methodsOf(fault: FaultBody): StepUpMethod[] {
  const named = fault.ExceptionVariables.find((v) => v.Key === 'Methods')?.Value ?? '';
  return STEP_UP_METHODS.filter((method) => named.split(',').includes(method));
}

/**
 * The step-up dialog (ADR 0040): asks for a proof of presence in place (the password, a code
 * from the authenticator app, a passkey, or a code mailed to an account without a password),
 * then answers true and the call that needed it is sent again; closed, it answers false.
 * Loaded only when a call asks for it.
 */
export default function StepUpDialog({ fault, onDone }: { fault: FaultBody; onDone: (proven: boolean) => void }) {
  const methods = methodsOf(fault);
  const [method, setMethod] = useState<StepUpMethod | undefined>(methods[0]);
  const [value, setValue] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const email = useSessionUser()?.Email ?? '';
  const othersId = useId();
  const others = methods.filter((other) => other !== method);

  const attempt = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (caught) {
      setError(
        isApiError(caught)
          ? faultMessage(caught.faultName, caught.fault.ExceptionUserText)
          : stepUpText.passkeyCancelled,
      );
      return false;
    } finally {
      setBusy(false);
    }
  };

  const prove = (body: CallInput<'StepUp'>) =>
    attempt(() => call('StepUp', { ...body, silent: true })).then((ok) => ok && onDone(true));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (method === 'Password') void prove({ method, password: value });
    if (method === 'Totp' || method === 'EmailCode') void prove({ method, code: value });
  };

  const provePasskey = () =>
    attempt(async () => {
      if (!browserSupportsWebAuthn()) throw new Error('unsupported');
      const begun = await call('BeginStepUpPasskey', { silent: true });
      const answer = await startAuthentication({ optionsJSON: begun.Result.Options as unknown as RequestOptions });
      await call('StepUp', {
        method: 'Passkey',
        challengeId: begun.Result.ChallengeId,
        response: answer as unknown as AssertionAnswer,
        silent: true,
      });
    }).then((ok) => ok && onDone(true));

  const sendCode = () => attempt(() => call('SendStepUpCode', { silent: true })).then((ok) => ok && setCodeSent(true));

  const choose = (next: StepUpMethod) => {
    setMethod(next);
    setValue('');
    setError(null);
  };

  const field =
    method === 'Password' ? (
      <PasswordField
        label={stepUpText.passwordLabel}
        autoComplete="current-password"
        autoFocus
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
    ) : method === 'Totp' || (method === 'EmailCode' && codeSent) ? (
      <TextField
        label={method === 'Totp' ? stepUpText.codeLabel : stepUpText.emailCodeLabel}
        hint={method === 'EmailCode' ? stepUpText.codeSent(email) : undefined}
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
    ) : null;

  // A passkey, or a mailed code not yet asked for: one button starts it.
  const action =
    method === 'Passkey'
      ? { label: stepUpText.usePasskey, run: provePasskey }
      : method === 'EmailCode'
        ? { label: stepUpText.sendCode, run: sendCode }
        : undefined;

  return (
    <Dialog title={stepUpText.heading} onClose={() => onDone(false)} closeVariant="secondary">
      <p>{methods.length > 0 ? stepUpText.intro : stepUpText.noWay}</p>
      {field && (
        <form className="form step-up__form" noValidate onSubmit={submit}>
          {field}
          {error && <FormMessage tone="error">{error}</FormMessage>}
          <div className="form__actions">
            <Button type="submit" isBusy={busy} disabled={busy || !value}>
              {stepUpText.confirm}
            </Button>
            {method === 'EmailCode' && (
              <Button variant="link" disabled={busy} onClick={() => void sendCode()}>
                {stepUpText.sendAgain}
              </Button>
            )}
          </div>
        </form>
      )}
      {!field && action && (
        <div className="step-up__form">
          {error && <FormMessage tone="error">{error}</FormMessage>}
          <Button isBusy={busy} disabled={busy} onClick={() => void action.run()}>
            {action.label}
          </Button>
        </div>
      )}
      {others.length > 0 && (
        <div className="step-up__others">
          <p id={othersId}>{stepUpText.otherWays}</p>
          <ul aria-labelledby={othersId}>
            {others.map((other) => (
              <li key={other}>
                <Button variant="link" disabled={busy} onClick={() => choose(other)}>
                  {stepUpText.methodNames[other]}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Dialog>
  );
}
