import { FAULT_HELP_LINKS } from '@soundid/contracts';
import { text as coreText } from '@soundid/contracts/ui-text';
import { FormMessage } from '../../../components/form-message';
import { isFault } from '../../../lib/api-errors';
import { ExternalAwareLink } from './info-links';

/**
 * A failed deactivation or removal under its panel: KeyRevokeOverLimit (a deactivation, or a
 * licence removal that would release machines, past the allowance; ADR 0030) has its Learn more
 * link; other faults show their message.
 */
export function ActionError({ error }: { error: Error }) {
  const helpLink = FAULT_HELP_LINKS.KeyRevokeOverLimit;
  if (helpLink && isFault(error, 'KeyRevokeOverLimit')) {
    return (
      <FormMessage tone="error">
        {error.message} <ExternalAwareLink href={helpLink}>{coreText.learnMore}</ExternalAwareLink>
      </FormMessage>
    );
  }
  return <FormMessage tone="error">{error.message}</FormMessage>;
}
