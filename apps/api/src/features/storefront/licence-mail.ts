import { licenceMessages } from '@soundid/contracts';
import { renderMail } from '../../integrations/mail/layout';
import type { OutgoingMail } from '../../integrations/mail/types';
import { formatLicenseKey } from '../licences/codes';

export interface LicenceMailInput {
  to: string;
  orderName: string;
  /** Stored form of each key (24 symbols); the mail shows them 6-6-6-6. */
  keys: string[];
  publicUrl: string;
  /**
   * True when the keys were registered to the verified account with this address; otherwise
   * the key itself is the proof of purchase, registered by its holder to any account.
   */
  isInAccount: boolean;
  /** The store's own receipt and order status page (ADR 0058): the store is the seller of the order. */
  statusUrl?: string | null;
}

/** The mail of a fulfilled storefront order: where the licence is, and its keys. */
export function licenceMail({
  to,
  orderName,
  keys,
  publicUrl,
  isInAccount,
  statusUrl,
}: LicenceMailInput): OutgoingMail {
  const plural = keys.length > 1;
  const keyLines = keys.map((key, i) => `License key${plural ? ` ${i + 1}` : ''}: ${formatLicenseKey(key)}`);
  return renderMail({
    to,
    subject: `Your SoundID VoiceAI perpetual license${isInAccount ? '' : ' key'}`,
    heading: `Thank you for your order ${orderName}`,
    intro: isInAccount
      ? [
          `Your SoundID VoiceAI perpetual license${plural ? 's are' : ' is'} now in your SoundID account ${to}.`,
          ...keyLines,
        ]
      : [
          `Here is your SoundID VoiceAI perpetual license key${plural ? 's' : ''}:`,
          ...keyLines,
          `To use it, sign up for a SoundID account (or log in) and register the key under ${licenceMessages.registerNewLicense}.`,
        ],
    action: isInAccount
      ? { label: licenceMessages.toProducts, link: `${publicUrl}/products` }
      : { label: licenceMessages.registerNewLicense, link: `${publicUrl}/add-license` },
    outro: [
      isInAccount
        ? 'Open SoundID VoiceAI, sign in with this account and activate it on your computer.'
        : 'Keep this email: the license key is your proof of purchase.',
      ...(statusUrl ? [`Your receipt and the status of order ${orderName} are in the store: ${statusUrl}`] : []),
    ],
  });
}
