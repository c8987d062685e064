import { type ActionButton, activationOf } from '@soundid/contracts';
import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { notify } from '../../../lib/notifications';
import { launchPath } from '../activation-paths';
import { useReloadLicences } from '../api/get-account-licences';
import { useInvokeAction } from '../api/invoke-action';
import { useServerActionLaunch } from '../use-server-action-launch';
import { ExternalAwareLink } from './info-links';

type Size = 'small' | 'normal';

/**
 * One of the list's action buttons, by its ExternalRequest: a link (Link, Redirect), an app
 * deeplink opened through the launch screen (after its server action, when it has one), or a
 * backend action followed by a reload. DeepLinks whose server action has no recognised
 * activation type are unsupported and hidden (docs/requirements.md §4). Buttons that open a panel of the page
 * (Upgrade) have no request and are drawn by their section.
 */
export function ActionButtonView({ button, size = 'normal' }: { button: ActionButton; size?: Size }) {
  const request = button.ExternalRequest;
  if (!request) return null;
  const className = ['button', button.Type === 'Link' ? 'button--secondary' : 'button--primary', sizeClass(size)]
    .filter(Boolean)
    .join(' ');
  if (!button.IsEnabled) {
    return (
      <Button variant="secondary" className={sizeClass(size)} disabled>
        {button.ActionText}
      </Button>
    );
  }
  switch (request.Type) {
    case 'Link':
    case 'Redirect':
      return (
        <ExternalAwareLink className={className} href={request.Url}>
          {button.ActionText}
        </ExternalAwareLink>
      );
    case 'DeepLink':
      return <DeepLinkButton button={button} size={size} />;
    case 'BackendThenReload':
      return <BackendActionButton button={button} url={request.Url} size={size} />;
    default:
      return null;
  }
}

function sizeClass(size: Size): string | undefined {
  return size === 'small' ? 'button--small' : undefined;
}

function DeepLinkButton({ button, size }: { button: ActionButton; size: Size }) {
  const { launch, isPending } = useServerActionLaunch((choice) => launchPath(choice.deeplink));
  const request = button.ExternalRequest;
  if (!request) return null;
  if (!request.ServerAction) {
    return (
      <Link
        className={['button', 'button--primary', sizeClass(size)].filter(Boolean).join(' ')}
        to={launchPath(request.Url)}
      >
        {button.ActionText}
      </Link>
    );
  }
  const choice = activationOf(button);
  if (!choice) return null;
  return (
    <Button className={sizeClass(size)} isBusy={isPending} onClick={() => void launch(choice)}>
      {button.ActionText}
    </Button>
  );
}

function BackendActionButton({ button, url, size }: { button: ActionButton; url: string; size: Size }) {
  const invoke = useInvokeAction();
  const reload = useReloadLicences();
  return (
    <Button
      variant="secondary"
      className={sizeClass(size)}
      isBusy={invoke.isPending}
      disabled={invoke.isPending}
      onClick={() =>
        invoke.mutate(
          { url },
          {
            onSuccess: async (result) => {
              notify('success', result.Message);
              await reload();
            },
          },
        )
      }
    >
      {button.ActionText}
    </Button>
  );
}
