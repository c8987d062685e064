import { AUDIT_REASON_MIN_LENGTH } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { FaultMessage } from './fault-message';
import { ReasonField } from './reason-field';

export type DialogValues = Record<string, string> & { reason: string };

interface ActionDialogProps<R> {
  /** The button that opens the dialog. */
  label: string;
  /** Its accessible name when the label alone is ambiguous (one button per row). */
  buttonName?: string;
  title: string;
  /** What the action does, in a sentence (shown above the fields). */
  description?: ReactNode;
  /** Fields besides the reason: inputs with a `name`, read when the dialog is confirmed. */
  children?: ReactNode;
  /** A check of the extra fields before the call: a message refuses, undefined goes on. */
  check?: (values: DialogValues, form: FormData) => string | undefined;
  confirm: string;
  /** A change that cannot be undone is styled as such. */
  danger?: boolean;
  /** The call; `form` has every value, repeated names too (checkboxes). */
  run: (values: DialogValues, form: FormData) => Promise<R>;
  onDone: (result: R, values: DialogValues) => void;
}

/**
 * An operator change behind a confirmation (ADR 0045): a modal dialog that will not send the
 * call without a reason of at least AUDIT_REASON_MIN_LENGTH characters, which the service
 * writes into the audit entry. The service's fault is shown in the dialog as it came.
 */
export function ActionDialog<R>(props: ActionDialogProps<R>) {
  const { label, buttonName, title, description, children, check, confirm, danger, run, onDone } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string>();
  const id = useId();
  const mutation = useMutation({
    mutationFn: ({ values, form }: { values: DialogValues; form: FormData }) => run(values, form),
  });

  useEffect(() => {
    const element = dialog.current;
    if (!open || !element || element.open) return;
    element.showModal();
    // The first field takes the focus (the reason, when there is no other), not the first button.
    element.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [open]);

  const close = () => {
    dialog.current?.close();
    setOpen(false);
    setProblem(undefined);
    mutation.reset();
    opener.current?.focus();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)])) as DialogValues;
    values.reason = (values.reason ?? '').trim();
    const refusal =
      values.reason.length < AUDIT_REASON_MIN_LENGTH
        ? `Give a reason of at least ${AUDIT_REASON_MIN_LENGTH} characters: it is kept in the audit trail.`
        : check?.(values, form);
    setProblem(refusal);
    if (refusal) {
      if (values.reason.length < AUDIT_REASON_MIN_LENGTH) reasonField.current?.focus();
      return;
    }
    mutation.mutate(
      { values, form },
      {
        onSuccess: (result) => {
          close();
          onDone(result, values);
        },
      },
    );
  };

  return (
    <>
      <button
        ref={opener}
        type="button"
        className={danger ? 'danger' : 'secondary'}
        aria-label={buttonName}
        onClick={() => setOpen(true)}
      >
        {label}
      </button>
      {open && (
        <dialog
          ref={dialog}
          aria-labelledby={`${id}-title`}
          onCancel={(event) => {
            event.preventDefault();
            close();
          }}
        >
          <form onSubmit={submit} noValidate className="stack">
            <h2 id={`${id}-title`}>{title}</h2>
            {description && <div className="description">{description}</div>}
            {children}
            <ReasonField rows={3} inputRef={reasonField} invalid={problem?.startsWith('Give a reason')} />
            {problem && (
              <p className="fault" role="alert">
                {problem}
              </p>
            )}
            <FaultMessage error={mutation.error} />
            <div className="actions">
              <button type="submit" className={danger ? 'danger' : 'primary'} disabled={mutation.isPending}>
                {mutation.isPending ? 'Working…' : confirm}
              </button>
              <button type="button" className="secondary" onClick={close}>
                Cancel
              </button>
            </div>
          </form>
        </dialog>
      )}
    </>
  );
}
