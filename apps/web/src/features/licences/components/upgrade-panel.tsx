import { isValidUpgradeCode, licenceMessages, messages } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Spinner } from '../../../components/spinner';
import { TextField } from '../../../components/text-field';
import { licenceHelpLinks } from '../../../config/external-links';
import { isFault } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useReloadLicences } from '../api/get-account-licences';
import { useKeyUpgradePaths } from '../api/get-key-upgrade-paths';
import { useUpgradeKey } from '../api/upgrade-key';
import { ExternalAwareLink } from './info-links';
import { LicenceKeyPanel, type ProductKeysPanelProps } from './licence-select';

const text = licencesText.upgrade;

/**
 * Upgrade a licence: pick the licence (a single one is picked for you), then the store's
 * upgrades for it on the left and an upgrade code on the right. A licence already used for an
 * upgrade shows 'Upgraded' and offers nothing.
 */
export function UpgradePanel({ id, productName, keys, onClose }: ProductKeysPanelProps) {
  return (
    <LicenceKeyPanel id={id} heading={text.heading(productName)} keys={keys} onClose={onClose}>
      {(key) =>
        key.IsUsedForUpgrade ? (
          <p className="upgrade__used">
            <span className="badge">{licenceMessages.upgraded}</span> {text.alreadyUpgraded}
          </p>
        ) : (
          <div className="upgrade">
            <StoreUpgrades formattedKey={key.FormattedKey} />
            <UpgradeCodeForm key={key.FormattedKey} formattedKey={key.FormattedKey} onUpgraded={onClose} />
          </div>
        )
      }
    </LicenceKeyPanel>
  );
}

function StoreUpgrades({ formattedKey }: { formattedKey: string }) {
  const paths = useKeyUpgradePaths(formattedKey);
  const links = paths.data?.LinksToStore;
  const headingId = useId();
  return (
    <section className="upgrade__store" aria-labelledby={headingId}>
      <h4 id={headingId}>{text.storeHeading}</h4>
      {paths.isLoading && <Spinner label={licencesText.loading} />}
      {links && links.length === 0 && <p>{text.noStoreUpgrades}</p>}
      {links && links.length > 0 && (
        <ul className="upgrade__links">
          {links.map((link) => (
            <li key={link.Link} className="upgrade__link">
              <p className="upgrade__link-name">{link.Name}</p>
              <p className="upgrade__link-description">{link.Description}</p>
              <ExternalAwareLink className="button button--secondary button--small" href={link.Link}>
                {link.ButtonText}
              </ExternalAwareLink>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The upgrade code. Submit stays disabled while the code is blank or fails the contracts'
 * validator. A failed call refocuses the field with 'Upgrade error.'; an incompatible code
 * also opens the popup that explains what to do.
 */
function UpgradeCodeForm({ formattedKey, onUpgraded }: { formattedKey: string; onUpgraded: () => void }) {
  const upgrade = useUpgradeKey();
  const reload = useReloadLicences();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [isTouched, setTouched] = useState(false);
  const [isIncompatible, setIncompatible] = useState(false);
  const isValid = isValidUpgradeCode(code);
  const headingId = useId();
  const formatError = isTouched && code.trim() && !isValid ? messages.upgradeCodeFormat : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim() || !isValid || upgrade.isPending) return;
    upgrade.mutate(
      { key: formattedKey, upgradeCode: code },
      {
        onSuccess: async () => {
          notify('success', licenceMessages.upgradeSuccessful);
          onUpgraded();
          await reload();
        },
        onError: (failure) => {
          input.current?.focus();
          if (isFault(failure, 'UpgradeCodeIncompatibility')) setIncompatible(true);
        },
      },
    );
  };

  return (
    <section className="upgrade__code" aria-labelledby={headingId}>
      <h4 id={headingId}>{text.codeHeading}</h4>
      <form className="form" noValidate onSubmit={submit}>
        <TextField
          ref={input}
          label={text.codeLabel}
          hint={text.codeHint}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          className="field--key"
          value={code}
          error={formatError ?? (upgrade.isError ? licenceMessages.upgradeError : undefined)}
          onBlur={() => setTouched(true)}
          onChange={(event) => {
            upgrade.reset();
            // Codes are upper case (UPG-…); typing in lower case is forgiven.
            setCode(event.target.value.toUpperCase());
          }}
        />
        <Button type="submit" isBusy={upgrade.isPending} disabled={!code.trim() || !isValid || upgrade.isPending}>
          {text.apply}
        </Button>
      </form>
      {isIncompatible && (
        <Dialog
          title={licenceMessages.upgradeIncompatibleTitle}
          onClose={() => {
            setIncompatible(false);
            input.current?.focus();
          }}
        >
          <p>{text.incompatibleAdvice}</p>
          <ul className="dialog__links">
            <li>
              <ExternalAwareLink href={licenceHelpLinks.upgrades}>{text.howUpgradesWork}</ExternalAwareLink>
            </li>
            <li>
              <ExternalAwareLink href={licenceHelpLinks.cancelOrder}>{text.cancelOrder}</ExternalAwareLink>
            </li>
            <li>
              <ExternalAwareLink href={licenceHelpLinks.contactSupport}>{text.contactSupport}</ExternalAwareLink>
            </li>
          </ul>
        </Dialog>
      )}
    </section>
  );
}
