import { sessionSwitchText } from '@soundid/contracts/ui-text';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { acceptSwitch, declineSwitch } from '../api/exchange-web-login-code';
import type { PendingSwitch } from '../session-switch-store';

/**
 * Asks before a desktop app's portal link replaces the session of another customer signed in
 * here, naming both addresses (ADR 0029). Escape and the first button keep the current one.
 */
export default function SessionSwitchDialog({ pending }: { pending: PendingSwitch }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const questionId = useId();
  const [isBusy, setBusy] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
    return () => dialog?.close?.();
  }, []);
  const { currentEmail, linkEmail } = pending;
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={questionId}
      onCancel={(event) => {
        event.preventDefault();
        if (!isBusy) declineSwitch();
      }}
    >
      <h2 id={titleId} className="dialog__title">
        {sessionSwitchText.title}
      </h2>
      <p id={questionId} className="dialog__body">
        {sessionSwitchText.question(currentEmail, linkEmail)}
      </p>
      <div className="dialog__actions dialog__actions--choice">
        <Button variant="secondary" onClick={declineSwitch} disabled={isBusy}>
          {sessionSwitchText.stay(currentEmail)}
        </Button>
        <Button
          variant="primary"
          isBusy={isBusy}
          disabled={isBusy}
          onClick={() => {
            setBusy(true);
            void acceptSwitch(pending);
          }}
        >
          {sessionSwitchText.switch(linkEmail)}
        </Button>
      </div>
    </dialog>
  );
}
