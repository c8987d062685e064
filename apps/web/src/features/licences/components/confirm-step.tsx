import { text } from '@soundid/contracts/ui-text';
import { type ReactNode, useEffect, useRef } from 'react';
import { Button } from '../../../components/button';

/**
 * The second step of a two-step ask-then-confirm flow (deactivate, remove): the question with
 * Confirm and Cancel. Focus moves to the question so that it is read out and Escape-free
 * keyboard users land on the choice.
 */
export function ConfirmStep({
  question,
  confirmLabel,
  isBusy,
  onConfirm,
  onCancel,
  children,
}: {
  question: string;
  /** Fields the confirmation takes (a report's reason), between the question and the buttons. */
  children?: ReactNode;
  confirmLabel: string;
  isBusy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLFieldSetElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <fieldset ref={ref} className="confirm-step" tabIndex={-1}>
      <legend className="confirm-step__question">{question}</legend>
      {children}
      <div className="form__actions">
        <Button variant="danger" className="button--small" isBusy={isBusy} disabled={isBusy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button variant="secondary" className="button--small" disabled={isBusy} onClick={onCancel}>
          {text.cancel}
        </Button>
      </div>
    </fieldset>
  );
}
