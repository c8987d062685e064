import { messages } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { Page } from '../../../components/page';
import { REFERENCE_TRIAL_ACTIVATED_LINK } from '../../../config/client';
import { openAppLink } from '../../../lib/browser-location';
import { useRunOnce } from '../../../lib/use-run-once';

export function TrialThankYouScreen() {
  useRunOnce(() => openAppLink(REFERENCE_TRIAL_ACTIVATED_LINK));
  return (
    <Page heading={messages.trialActivated}>
      <p>{text.trialOpeningApp}</p>
    </Page>
  );
}
