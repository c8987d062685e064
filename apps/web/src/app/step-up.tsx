import type { FaultBody } from '@soundid/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { stepUpSlot } from '../lib/api-client';

// The dialog, and zod's schemas and the WebAuthn client it brings, load when a call asks for a
// proof: not with every signed-in page, whose start they would lengthen (ADR 0043).
const StepUpDialog = lazy(() => import('../components/step-up-dialog'));

/**
 * Answers the API client's step-up slot while someone is signed in (ADR 0040): a call that
 * answered StepUpRequired waits for the dialog, and is sent again once presence is proven.
 */
export default function StepUpHost() {
  const [pending, setPending] = useState<{ fault: FaultBody; answer: (proven: boolean) => void } | null>(null);
  useEffect(() => {
    // Calls that meet StepUpRequired together share one dialog and one proof: a second ask
    // while the dialog is open waits for the same answer instead of replacing the first one's.
    let asking: Promise<boolean> | undefined;
    const ask = (fault: FaultBody) => {
      asking ??= new Promise<boolean>((resolve) => {
        setPending({
          fault,
          answer: (proven) => {
            asking = undefined;
            setPending(null);
            resolve(proven);
          },
        });
      });
      return asking;
    };
    stepUpSlot.ask = ask;
    return () => {
      if (stepUpSlot.ask === ask) stepUpSlot.ask = undefined;
    };
  }, []);
  return pending ? (
    <Suspense fallback={null}>
      <StepUpDialog fault={pending.fault} onDone={pending.answer} />
    </Suspense>
  ) : null;
}
