import { licenceMessages } from '@soundid/contracts';
import { licencesText, titles } from '@soundid/contracts/ui-text';
import { Link, useLocation } from 'react-router';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { isApiError } from '../../../lib/api-errors';
import { useHydrated } from '../../../lib/use-hydrated';
import { voiceAiActivatePath } from '../activation-paths';
import { useAccountLicences } from '../api/get-account-licences';
import { usePanels } from '../use-panels';
import { IncomingTransfers } from './incoming-transfers';
import { ReferenceSection } from './reference-section';
import { VoiceAiSection } from './voice-ai-section';

/** Licenses & Devices (docs/requirements.md §2): the voice AI licence and the reference products. */
export function ProductsScreen() {
  const licences = useAccountLicences();
  const panels = usePanels();
  return (
    <Page
      heading={titles.products}
      width="wide"
      actions={
        <Link className="button button--primary" to="/add-license">
          {licenceMessages.registerNewLicense}
        </Link>
      }
    >
      <VoiceAiActivationOffer />
      <IncomingTransfers />
      {licences.isPending && (
        // Holds the list's place, so that the footer does not jump when it comes (CLS).
        <div className="licence-sections licence-sections--pending">
          <Spinner label={licencesText.loading} />
        </div>
      )}
      {licences.isError && (
        <FormMessage tone="error">
          {licencesText.withCode(
            licenceMessages.productListFailed,
            isApiError(licences.error) ? licences.error.fault.ExceptionCode : 0,
          )}
        </FormMessage>
      )}
      {licences.data && (
        <div className="licence-sections">
          <VoiceAiSection voiceAi={licences.data.VoiceAIProducts} panels={panels} reloadedAt={licences.dataUpdatedAt} />
          <ReferenceSection reference={licences.data.ReferenceProducts} panels={panels} />
        </div>
      )}
    </Page>
  );
}

/** After a voice AI key was registered (add-license), the plugin's activation is offered here. */
function VoiceAiActivationOffer() {
  const state = useLocation().state as { voiceAiActivationUrl?: unknown } | null;
  // History state is the browser's alone: not in a page the service rendered (ADR 0024).
  const isHydrated = useHydrated();
  const deeplink = typeof state?.voiceAiActivationUrl === 'string' ? state.voiceAiActivationUrl : undefined;
  if (!deeplink || !isHydrated) return null;
  return (
    <FormMessage tone="info">
      <p>{licencesText.voiceAiReady}</p>
      <Link className="button button--primary button--small" to={voiceAiActivatePath({ deeplink, type: 'normal' })}>
        {licencesText.activateVoiceAi}
      </Link>
    </FormMessage>
  );
}
