import { LICENCE_TRANSFER_OFFER_DAYS, licenceMessages } from '@soundid/contracts';
import { renderMail } from '../../integrations/mail/layout';
import type { OutgoingMail } from '../../integrations/mail/types';

/** The mails of passing a licence on (docs/decisions/0054-licence-transfer.md). */

/** To the recipient: the offer and its link; the owner's address masked. */
export function licenceTransferOfferMail(input: {
  to: string;
  fromEmail: string;
  displayName: string;
  link: string;
}): OutgoingMail {
  return renderMail({
    to: input.to,
    subject: `A ${input.displayName} license is offered to you`,
    heading: 'A license is offered to you',
    intro: [
      `The owner of the SoundID account ${input.fromEmail} wants to pass their ${input.displayName} license on to you.`,
      `To accept it, open the link and sign in to My SoundID (or sign up) with this email address, ${input.to}.`,
      'Once you have signed up, the offer also waits for you on Licenses & Devices.',
    ],
    action: { label: 'See the license offer', link: input.link },
    outro: [
      `The offer is valid for ${LICENCE_TRANSFER_OFFER_DAYS} days and can be accepted once.`,
      'If you do not know the sender, you can ignore this email: nothing changes.',
    ],
  });
}

/** To the recipient, once the key is in their account. */
export function licenceTransferReceivedMail(input: { to: string; displayName: string; link: string }): OutgoingMail {
  return renderMail({
    to: input.to,
    subject: `${input.displayName} is now in your My SoundID account`,
    heading: 'The license is yours',
    intro: [licenceMessages.licenceTransferAccepted(input.displayName)],
    action: { label: licenceMessages.toProducts, link: input.link },
    outro: ['Sign in to the app with this account to activate it on your computers.'],
  });
}

/** To the former owner, once the recipient accepted. */
export function licenceTransferCompletedMail(input: {
  to: string;
  toEmail: string;
  displayName: string;
  link: string;
}): OutgoingMail {
  return renderMail({
    to: input.to,
    subject: `Your ${input.displayName} license was passed on`,
    heading: 'Your license was passed on',
    intro: [
      `${input.toEmail} accepted your ${input.displayName} license. It is no longer in your account, and the computers it activated beyond the seats you have left were signed out of it.`,
    ],
    action: { label: licenceMessages.toProducts, link: input.link },
    outro: ['If you did not offer this license, please contact support at once.'],
  });
}
