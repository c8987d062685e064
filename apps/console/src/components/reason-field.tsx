import { AUDIT_REASON_MAX_LENGTH, AUDIT_REASON_MIN_LENGTH } from '@soundid/contracts';
import { type Ref, useId } from 'react';

/** A change's reason or ticket (ADR 0045): the service refuses a change without one. */
export function ReasonField({
  rows = 2,
  inputRef,
  invalid,
}: {
  rows?: number;
  inputRef?: Ref<HTMLTextAreaElement>;
  /** The reason was refused (too short): said to a screen reader on the field. */
  invalid?: boolean;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>Reason or ticket</label>
      <textarea
        ref={inputRef}
        id={id}
        name="reason"
        rows={rows}
        required
        minLength={AUDIT_REASON_MIN_LENGTH}
        maxLength={AUDIT_REASON_MAX_LENGTH}
        aria-describedby={`${id}-hint`}
        aria-invalid={invalid || undefined}
      />
      <p id={`${id}-hint`} className="hint">
        At least {AUDIT_REASON_MIN_LENGTH} characters; kept in the audit trail with your name.
      </p>
    </>
  );
}
