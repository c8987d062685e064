import {
  ACCOUNT_DELETION_LINK_VALIDITY_HOURS,
  EMAIL_CHANGE_LINK_VALIDITY_HOURS,
  PASSWORD_RESET_LINK_VALIDITY_HOURS,
  SIGN_IN_REPORT_LINK_VALIDITY_HOURS,
  VERIFICATION_LINK_VALIDITY_HOURS,
} from '@soundid/contracts';
import { renderMail } from '../../integrations/mail/layout';
import type { OutgoingMail } from '../../integrations/mail/types';

/** A mail carrying one single-use action link. */
export interface ActionMailInput {
  to: string;
  link: string;
  /** How long the link works; defaults to the spec's constant for that mail. */
  validHours?: number;
}

const hours = (n: number) => `${n} ${n === 1 ? 'hour' : 'hours'}`;
/** Whole days past a day read as days ("7 days"); the rest as hours ("24 hours"). */
const duration = (n: number) => (n >= 48 && n % 24 === 0 ? `${n / 24} days` : hours(n));
const validity = (n: number) => `For your security, this link is valid for ${duration(n)} and can be used once.`;

/** After sign-up (and on "send again"): proves the address. */
export function verifyEmailMail({
  to,
  link,
  validHours = VERIFICATION_LINK_VALIDITY_HOURS,
}: ActionMailInput): OutgoingMail {
  return renderMail({
    to,
    subject: 'Verify your email address for My SoundID',
    heading: 'Welcome to My SoundID',
    intro: ['Please confirm that this is your email address to finish setting up your SoundID account.'],
    action: { label: 'Verify email address', link },
    outro: [validity(validHours), 'If you did not create a SoundID account, you can ignore this email.'],
  });
}

/** Sent to the NEW address: the change takes effect only when its owner follows the link. */
export function emailChangeMail({
  to,
  link,
  validHours = EMAIL_CHANGE_LINK_VALIDITY_HOURS,
}: ActionMailInput): OutgoingMail {
  return renderMail({
    to,
    subject: 'Confirm your new email address for My SoundID',
    heading: 'Confirm your new email address',
    intro: [`You asked to change the email address of your SoundID account to ${to}.`],
    action: { label: 'Confirm new email address', link },
    outro: [
      validity(validHours),
      'If you did not ask for this change, you can ignore this email: your account keeps its current address.',
    ],
  });
}

export function passwordResetMail({
  to,
  link,
  validHours = PASSWORD_RESET_LINK_VALIDITY_HOURS,
}: ActionMailInput): OutgoingMail {
  return renderMail({
    to,
    subject: 'Reset your My SoundID password',
    heading: 'Reset your password',
    intro: ['We received a request to reset the password of your SoundID account. Choose a new password here:'],
    action: { label: 'Choose a new password', link },
    outro: [
      validity(validHours),
      'Setting a new password signs you out on every device.',
      'If you did not ask for a new password, you can ignore this email: your password stays unchanged.',
    ],
  });
}

export function accountDeletionConfirmMail({
  to,
  link,
  validHours = ACCOUNT_DELETION_LINK_VALIDITY_HOURS,
}: ActionMailInput): OutgoingMail {
  return renderMail({
    to,
    subject: 'Confirm the deletion of your My SoundID account',
    heading: 'Confirm account deletion',
    intro: [
      'You asked to delete your SoundID account. Deleting it removes your profile, licenses, devices and tokens for good; it cannot be undone.',
    ],
    action: { label: 'Delete my account', link },
    outro: [validity(validHours), 'If you want to keep your account, ignore this email: nothing will be deleted.'],
  });
}

/** The receipt after deletion; it carries no links, the account is gone. */
export function accountDeletedMail({ to }: { to: string }): OutgoingMail {
  return renderMail({
    to,
    subject: 'Your My SoundID account has been deleted',
    heading: 'Your account has been deleted',
    intro: ['Your SoundID account and the data linked to it have been deleted, as you asked.'],
    outro: ['Thank you for using SoundID. You are welcome to create a new account at any time.'],
  });
}

/** A recovery code signed the account in: if it was not the customer, they act now (ADR 0037). */
export function recoveryCodeUsedMail({ to, at, left }: { to: string; at: Date; left: number }): OutgoingMail {
  return renderMail({
    to,
    subject: 'A recovery code was used to sign in to My SoundID',
    heading: 'A recovery code was used',
    intro: [
      `Someone signed in to your SoundID account with one of your recovery codes on ${at.toUTCString()}.`,
      `You have ${left} recovery ${left === 1 ? 'code' : 'codes'} left. Each code works once; you can make new ones on your profile.`,
    ],
    outro: ['If this was not you, change your password and make new recovery codes now.'],
  });
}

/** A code that proves presence for an account without a password (ADR 0040). */
export function stepUpCodeMail({ to, code, minutes }: { to: string; code: string; minutes: number }): OutgoingMail {
  return renderMail({
    to,
    subject: `${code} is your My SoundID confirmation code`,
    recordedSubject: 'Your My SoundID confirmation code',
    heading: 'Confirm it’s you',
    intro: [
      `Enter this code in My SoundID to confirm it’s you: ${code}`,
      `It works once, for ${minutes} minutes, in the browser that asked for it.`,
    ],
    outro: ['If you did not ask for it, someone may be signed in to your account: sign out your other devices.'],
  });
}

/** A passkey now signs in to the account: if it was not the customer, they act now (ADR 0039). */
export function passkeyAddedMail({ to, name, at }: { to: string; name: string; at: Date }): OutgoingMail {
  return renderMail({
    to,
    subject: 'A passkey was added to your My SoundID account',
    heading: 'A passkey was added',
    intro: [
      `The passkey “${name}” was added to your SoundID account on ${at.toUTCString()}. It can now sign in to it.`,
    ],
    outro: [
      'If this was not you, remove the passkey on your profile, change your password and sign out your other devices.',
    ],
  });
}

/** Two-step verification went off: the account is back to one factor (ADR 0037). */
export function twoStepTurnedOffMail({ to, at }: { to: string; at: Date }): OutgoingMail {
  return renderMail({
    to,
    subject: 'Two-step verification was turned off for My SoundID',
    heading: 'Two-step verification is off',
    intro: [`Two-step verification was turned off for your SoundID account on ${at.toUTCString()}.`],
    outro: [
      'If this was not you, change your password, turn two-step verification on again and sign out your other devices.',
    ],
  });
}

/**
 * A sign-in from a browser or app this account has not seen (ADR 0041): what, when and from
 * where, and the "This wasn't me" link that secures the account.
 */
export function newDeviceSignInMail({
  to,
  link,
  validHours = SIGN_IN_REPORT_LINK_VALIDITY_HOURS,
  at,
  device,
  ip,
}: ActionMailInput & { at: Date; device: string; ip: string | undefined }): OutgoingMail {
  return renderMail({
    to,
    subject: 'New sign-in to your My SoundID account',
    heading: 'A new device signed in',
    intro: [
      'Someone just signed in to your SoundID account from a browser or app that has not signed in to it before.',
      `Device: ${device}`,
      `When: ${at.toUTCString()}`,
      `IP address: ${ip ?? 'unknown'}`,
      'If this was you, there is nothing to do. If it was not, secure your account now: this signs out every device, stops your password and sends you a link to choose a new one, and pauses email address changes for a day.',
    ],
    action: { label: "This wasn't me", link },
    outro: [validity(validHours)],
  });
}
