import { licenceMessages } from '@soundid/contracts';
import { Button } from '../../../components/button';
import { openAppLink } from '../../../lib/browser-location';

/** Shown while the reference product's trial can start: the button opens the app's trial deeplink. */
export function TrialBanner({ deeplink }: { deeplink: string }) {
  return (
    <aside className="trial-banner" aria-labelledby="trial-banner-heading">
      <div className="trial-banner__text">
        <h2 id="trial-banner-heading" className="trial-banner__heading">
          {licenceMessages.trialBannerTitle}
        </h2>
        <ul className="trial-banner__bullets">
          {licenceMessages.trialBannerBullets.map((bullet) => (
            <li key={bullet}>{bullet}</li>
          ))}
        </ul>
      </div>
      <Button onClick={() => openAppLink(deeplink)}>{licenceMessages.activateTrialOnThisDevice}</Button>
    </aside>
  );
}
