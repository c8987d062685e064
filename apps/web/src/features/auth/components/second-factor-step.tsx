import { faultMessage } from '@soundid/contracts';
import { passkeyText, secondFactorText } from '@soundid/contracts/ui-text';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { isApiError, isFault } from '../../../lib/api-errors';
import { useLoginSecondFactor } from '../api/login-second-factor';
import './second-factor-step.css';

/**
 * The sign-in's second step (ADR 0037): the code from the authenticator app or a recovery
 * code, or a passkey of the account (ADR 0039). Loaded only when a sign-in answers
 * SecondFactorRequired, so /login stays in its budget.
 * An expired challenge (or a lockout) sends the customer back to the password form.
 */
export default function SecondFactorStep({ challenge, onStartOver }: { challenge: string; onStartOver(): void }) {
  const [code, setCode] = useState('');
  const [isPasskeyBusy, setPasskeyBusy] = useState(false);
  const verify = useLoginSecondFactor();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) verify.mutate({ challenge, code: code.trim() });
  };
  const isOver = isFault(verify.error, 'SecondFactorChallengeInvalid', 'AttemptOverLimitLogin');

  return (
    <form className="form" method="post" onSubmit={submit} noValidate aria-labelledby="second-factor-heading">
      <h2 id="second-factor-heading" className="second-factor-step__heading">
        {secondFactorText.signInHeading}
      </h2>
      <p>{secondFactorText.signInIntro}</p>
      <TextField
        label={secondFactorText.codeLabel}
        name="code"
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus
        value={code}
        onChange={(event) => setCode(event.target.value)}
        invalid={isFault(verify.error, 'SecondFactorCodeInvalid', 'RequestInvalid')}
      />
      {isApiError(verify.error) && (
        <FormMessage tone="error">
          {faultMessage(verify.error.faultName, verify.error.fault.ExceptionUserText)}
        </FormMessage>
      )}
      {isOver ? (
        <Button onClick={onStartOver}>{secondFactorText.startOver}</Button>
      ) : (
        <Button type="submit" isBusy={verify.isPending} disabled={!code.trim() || verify.isPending}>
          {secondFactorText.verify}
        </Button>
      )}
      {!isOver && (
        <>
          {/* A passkey of this account instead of a code (ADR 0039). */}
          <Button
            variant="secondary"
            isBusy={isPasskeyBusy}
            disabled={isPasskeyBusy}
            onClick={() => {
              setPasskeyBusy(true);
              import('../passkeys/passkey-sign-in')
                .then((module) => module.signInWithPasskey(challenge))
                .finally(() => setPasskeyBusy(false));
            }}
          >
            {passkeyText.useInstead}
          </Button>
          <Button variant="secondary" onClick={onStartOver}>
            {secondFactorText.startOver}
          </Button>
        </>
      )}
    </form>
  );
}
