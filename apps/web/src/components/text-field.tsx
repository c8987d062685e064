import { type ComponentProps, type ReactNode, useId } from 'react';

export interface TextFieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  /** Marks the field invalid without a message (the login form shows no validator text). */
  invalid?: boolean;
  /** Rendered after the input inside its frame, e.g. a show-password toggle. */
  adornment?: ReactNode;
}

export function TextField({ label, error, hint, invalid, adornment, className, ...inputProps }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__control">
        <input
          id={id}
          className="field__input"
          aria-invalid={Boolean(error) || invalid || undefined}
          aria-describedby={describedBy}
          {...inputProps}
        />
        {adornment}
      </div>
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
