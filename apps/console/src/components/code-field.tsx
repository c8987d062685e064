import { type Ref, useId } from 'react';

/** The authenticator app's six-digit code (the field is named `code`; spaces are allowed). */
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
        pattern="[0-9 ]{6,7}"
        maxLength={7}
        required
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">
        Six digits; a code is accepted once.
      </p>
    </>
  );
}

/** The code a form's CodeField holds, without its spaces. */
export const codeOf = (form: HTMLFormElement) => String(new FormData(form).get('code') ?? '').replace(/\s/g, '');
