import { type LicenseKey, licenceMessages } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { type ReactNode, useEffect, useState } from 'react';
import { SelectField } from '../../../components/select-field';
import { Panel } from './panel';

/** What the upgrade and removal panels are given: the product's licence keys. */
export interface ProductKeysPanelProps {
  id: string;
  productName: string;
  keys: readonly LicenseKey[];
  onClose: () => void;
}

/**
 * A panel about one of a product's licences (upgrade, removal): a select with one option per
 * key, then what the panel does with the chosen one. A list of one selects it at once, so the
 * panel goes straight to its form or confirmation (docs/requirements.md §2).
 */
export function LicenceKeyPanel({
  id,
  heading,
  keys,
  onClose,
  onSelect,
  children,
}: {
  id: string;
  heading: string;
  keys: readonly LicenseKey[];
  onClose: () => void;
  /** Called when another licence is chosen: the panel's step starts over. */
  onSelect?: () => void;
  children: (key: LicenseKey) => ReactNode;
}) {
  const only = keys.length === 1 ? keys[0]?.FormattedKey : undefined;
  const [selected, setSelected] = useState(only ?? '');
  useEffect(() => {
    if (only) setSelected(only);
  }, [only]);
  const key = keys.find((k) => k.FormattedKey === selected);

  return (
    <Panel id={id} heading={heading} onClose={onClose}>
      <SelectField
        label={licencesText.licenseSelect}
        placeholder={licencesText.chooseLicense}
        value={selected}
        onChange={(event) => {
          setSelected(event.target.value);
          onSelect?.();
        }}
        options={keys.map((k) => ({
          value: k.FormattedKey,
          label: k.IsUsedForUpgrade ? `${k.FormattedKey} (${licenceMessages.upgraded})` : k.FormattedKey,
        }))}
      />
      {key && children(key)}
    </Panel>
  );
}
