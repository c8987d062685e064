import { OPERATOR_INVITATION_HOURS } from '@soundid/contracts';
import { renderMail } from '../../integrations/mail/layout';
import type { OutgoingMail } from '../../integrations/mail/types';

/** An invitation to the back office (ADR 0044): a password and an authenticator app to set. */
export function operatorInvitationMail({
  to,
  link,
  invitedBy,
}: {
  to: string;
  link: string;
  /** The inviting admin; null for the first admin (the bootstrap token). */
  invitedBy: string | null;
}): OutgoingMail {
  return renderMail({
    to,
    subject: 'Your My SoundID console account',
    heading: 'Set up your console account',
    intro: [
      invitedBy
        ? `${invitedBy} invited you to the My SoundID console, where the team looks after customers.`
        : 'You are the first admin of the My SoundID console.',
      'Choose a password and connect an authenticator app: every sign-in asks for both.',
    ],
    action: { label: 'Set up my account', link },
    outro: [
      `This link works for ${OPERATOR_INVITATION_HOURS} hours and once.`,
      'If you did not expect this, ignore this email and tell your admin.',
    ],
  });
}
