import { text } from '@soundid/contracts/ui-text';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Button } from './button';

/**
 * A modal built on <dialog>: the browser traps focus and closes it on Escape. Escape is the
 * dialog's alone: it does not also reach what the dialog sits in (a panel that closes on Escape
 * would lose what the customer typed there). Close is the primary button of a dialog that only
 * tells; one whose body holds the action (`closeVariant="secondary"`) leaves that look to it.
 */
export function Dialog({
  title,
  children,
  onClose,
  closeVariant = 'primary',
}: {
  title: string;
  children: ReactNode;
  onClose: () => void;
  closeVariant?: 'primary' | 'secondary';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
    return () => dialog?.close?.();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') event.stopPropagation();
      }}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <div className="dialog__body">{children}</div>
      <div className="dialog__actions">
        <Button variant={closeVariant} onClick={onClose}>
          {text.close}
        </Button>
      </div>
    </dialog>
  );
}
