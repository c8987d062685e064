import { text } from '@soundid/contracts/ui-text';
import { useEffect } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { usePublicConfig } from '../../../config/public-config-context';
import { leaveTo } from '../../../lib/browser-location';
import { buildRedirectUrl } from '../redirect-url';

/** Sends a signed-in customer back to the configured site that asked for the login. */
export function RedirectScreen() {
  const { target } = useParams();
  const [params] = useSearchParams();
  const { RedirectTargets } = usePublicConfig();
  const destination = RedirectTargets.find((candidate) => candidate.Id === target);
  const url = destination ? buildRedirectUrl(destination.CallbackUrl, params.get('return_to')) : null;

  useEffect(() => {
    if (url) leaveTo(url);
  }, [url]);

  if (!destination || !url) return <Navigate to="/" replace />;
  return (
    <Page heading={text.redirectingTo(destination.Name)}>
      <p>
        <a href={url}>{text.redirectManualLink}</a>
      </p>
    </Page>
  );
}
