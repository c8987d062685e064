import type { ActivationChoice } from '@soundid/contracts';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { useInvokeAction } from './api/invoke-action';

/**
 * An activation button: first the server action (a GET on its URL: it checks the licence or
 * starts the trial), then the page that opens the app. Clicks while the action runs are
 * ignored (docs/requirements.md §4); a failed action stays on the page with the banner's message.
 */
export function useServerActionLaunch(destination: (choice: ActivationChoice) => string) {
  const invoke = useInvokeAction();
  const navigate = useNavigate();
  const isProcessing = useRef(false);

  const launch = async (choice: ActivationChoice) => {
    if (isProcessing.current) return;
    isProcessing.current = true;
    try {
      await invoke.mutateAsync({ url: choice.serverAction.Url });
      navigate(destination(choice));
    } catch {
      // The generic handler has shown the fault.
    } finally {
      isProcessing.current = false;
    }
  };
  return { launch, isPending: invoke.isPending };
}
