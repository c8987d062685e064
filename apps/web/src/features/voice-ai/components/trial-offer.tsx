import type { ActionButton } from '@soundid/contracts';
import { voiceAiBuyText } from '@soundid/contracts/ui-text';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { useInvokeServerAction } from '../api/invoke-server-action';
import './trial-offer.css';

/** The activate screen of the voice AI plugin (its own route), opened after the trial started. */
export function activateUrl(deeplink: string, activationType: 'normal' | 'trial'): string {
  return `/products/voice-ai/activate?deeplink=${encodeURIComponent(deeplink)}&activationType=${activationType}`;
}

/**
 * The seven-day free trial (docs/requirements.md §2): the button runs the trial's server action, then goes to
 * the activate screen with the app deeplink. Repeated clicks are ignored while it runs (docs/requirements.md §4).
 */
export function TrialOffer({ button }: { button: ActionButton }) {
  const navigate = useNavigate();
  const startTrial = useInvokeServerAction();
  const request = button.ExternalRequest;
  const serverAction = request?.ServerAction;
  if (!request || !serverAction) return null;

  const start = () => {
    if (startTrial.isPending) return;
    startTrial.mutate(serverAction.Url, { onSuccess: () => navigate(activateUrl(request.Url, 'trial')) });
  };

  return (
    <section className="card trial-offer" aria-labelledby="trial-offer-heading">
      <h2 id="trial-offer-heading">{voiceAiBuyText.trialHeading}</h2>
      <p>{voiceAiBuyText.trialText}</p>
      <Button onClick={start} disabled={!button.IsEnabled} isBusy={startTrial.isPending}>
        {button.ActionText}
      </Button>
    </section>
  );
}
