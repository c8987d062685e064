import { TOTP_DIGITS } from '@soundid/contracts';
import { type Ref, useId } from 'react';

/** The authenticator app's code of TOTP_DIGITS digits (the field is named `code`; spaces are allowed). */
export function CodeField({ inputRef }: { inputRef?: Ref<HTMLInputElement> }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>Code from your authenticator app</label>
      <input
        ref={inputRef}
        id={id}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern={`[0-9 ]{${TOTP_DIGITS},${TOTP_DIGITS + 1}}`}
        maxLength={TOTP_DIGITS + 1}
        required
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">
        {TOTP_DIGITS} digits; a code is accepted once.
      </p>
    </>
  );
}

/** The code a form's CodeField holds, without its spaces. */
export const codeOf = (form: HTMLFormElement) => String(new FormData(form).get('code') ?? '').replace(/\s/g, '');
