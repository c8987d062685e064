import { downloadCenterPathForDeeplink, isActivationTypeName } from '@soundid/contracts';
import { text as coreText, licencesText } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/button';
import { Page } from '../../../components/page';
import { isAppLink, openAppLink } from '../../../lib/browser-location';
import './voice-ai-activate-screen.css';

const text = licencesText.activate;

/**
 * How to activate SoundID VoiceAI: the steps, and a button that opens the app's deeplink.
 * Voice activation goes from not attempted to attempted, and the button becomes Retry. Without
 * a deeplink (or with one that is not a desktop-app link) the customer goes to the buy page.
 */
export function VoiceAiActivateScreen() {
  const [params] = useSearchParams();
  const deeplink = params.get('deeplink');
  const requestedType = params.get('activationType');
  const activationType = isActivationTypeName(requestedType) ? requestedType : 'normal';
  const [isAttempted, setAttempted] = useState(false);
  if (!deeplink || !isAppLink(deeplink)) return <Navigate to="/products/voice-ai" replace />;
  const isTrial = activationType === 'trial';

  const open = () => {
    openAppLink(deeplink);
    setAttempted(true);
  };

  return (
    <Page heading={licencesText.activateHeading} width="medium">
      <div className="card">
        <p>{isTrial ? text.trialIntro : text.intro}</p>
        <ol className="activate-steps">
          {text.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        {isAttempted && (
          <p role="status" className="activate-steps__attempted">
            {text.attempted}
          </p>
        )}
        <div className="form__actions">
          <Button onClick={open}>{isAttempted ? coreText.retry : isTrial ? text.openTrial : text.open}</Button>
          <Link className="button button--secondary" to={downloadCenterPathForDeeplink(deeplink)}>
            {coreText.goToDownloads}
          </Link>
        </div>
        <p className="card__links">
          <Link to="/products">{text.backToProducts}</Link>
        </p>
      </div>
    </Page>
  );
}
