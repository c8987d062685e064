import { downloadCenterPathForDeeplink } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/button';
import { Page } from '../../../components/page';
import { isAppLink, openAppLink } from '../../../lib/browser-location';
import { useRunOnce } from '../../../lib/use-run-once';
import { useGetAppLoginDeeplink } from '../api/get-app-login-deeplink';

/** Opens the desktop app: a given deeplink, or one that signs the app in (executeReferenceLogin). */
export function LaunchScreen() {
  const [params] = useSearchParams();
  const deeplink = params.get('deeplink');
  const executeReferenceLogin = params.has('executeReferenceLogin');
  // Only desktop-app links are opened: any other deeplink counts as none.
  const appLink = deeplink && isAppLink(deeplink) ? deeplink : null;
  if (!appLink && !executeReferenceLogin) return <Navigate to="/soundid-reference" replace />;
  return (
    <Launch
      deeplink={appLink}
      heading={params.get('title') ?? text.launchHeading}
      description={params.get('description') ?? text.launchIntro}
    />
  );
}

function Launch({ deeplink, heading, description }: { deeplink: string | null; heading: string; description: string }) {
  const appLogin = useGetAppLoginDeeplink();
  const launch = () => {
    if (deeplink) openAppLink(deeplink);
    else appLogin.mutate(undefined, { onSuccess: (link) => openAppLink(link) });
  };
  useRunOnce(launch);

  return (
    <Page heading={heading}>
      <div className="card">
        <p>{description}</p>
        <div className="form__actions">
          <Button isBusy={appLogin.isPending} disabled={appLogin.isPending} onClick={launch}>
            {text.retry}
          </Button>
          <Link className="button button--secondary" to={downloadCenterPathForDeeplink(deeplink)}>
            {text.goToDownloads}
          </Link>
        </div>
      </div>
    </Page>
  );
}
