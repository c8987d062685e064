import type { FaultBody } from '@soundid/contracts';
import { useEffect, useState } from 'react';
import StepUpDialog from '../components/step-up-dialog';
import { stepUpSlot } from '../lib/api-client';

/**
 * Answers the API client's step-up slot while someone is signed in (ADR 0040): a call that
 * answered StepUpRequired waits for the dialog, and is sent again once presence is proven.
 */
export default function StepUpHost() {
  const [pending, setPending] = useState<{ fault: FaultBody; answer: (proven: boolean) => void } | null>(null);
  useEffect(() => {
    const ask = (fault: FaultBody) =>
      new Promise<boolean>((resolve) => {
        setPending({
          fault,
          answer: (proven) => {
            setPending(null);
            resolve(proven);
          },
        });
      });
    stepUpSlot.ask = ask;
    return () => {
      if (stepUpSlot.ask === ask) stepUpSlot.ask = undefined;
    };
  }, []);
  return pending ? <StepUpDialog fault={pending.fault} onDone={pending.answer} /> : null;
}
