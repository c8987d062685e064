import {
  ACCOUNT_DELETION_LINK_VALIDITY_HOURS,
  PASSWORD_RESET_LINK_VALIDITY_HOURS,
  VERIFICATION_LINK_VALIDITY_HOURS,
} from '@soundid/contracts';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../integrations/mail/layout';
import {
  accountDeletedMail,
  accountDeletionConfirmMail,
  emailChangeMail,
  newDeviceSignInMail,
  passkeyAddedMail,
  passwordResetMail,
  recoveryCodeUsedMail,
  stepUpCodeMail,
  twoStepTurnedOffMail,
  verifyEmailMail,
} from './mails';

const to = 'ann@example.com';
const link = 'https://id.soundid.test/verify-email?token=abc&x=<script>"1"';

const actionMails = {
  verifyEmailMail: verifyEmailMail({ to, link, validHours: VERIFICATION_LINK_VALIDITY_HOURS }),
  emailChangeMail: emailChangeMail({ to, link, validHours: 24 }),
  passwordResetMail: passwordResetMail({ to, link, validHours: PASSWORD_RESET_LINK_VALIDITY_HOURS }),
  accountDeletionConfirmMail: accountDeletionConfirmMail({
    to,
    link,
    validHours: ACCOUNT_DELETION_LINK_VALIDITY_HOURS,
  }),
};

describe.each(Object.entries(actionMails))('%s', (_name, mail) => {
  it('has a subject, the recipient and the link in both bodies', () => {
    expect(mail.to).toBe(to);
    expect(mail.subject).toMatch(/SoundID/);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(escapeHtml(link));
    expect(mail.links).toEqual([link]);
  });

  it('escapes the HTML body', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).toContain('token=abc&amp;x=');
    expect(mail.html).toContain('&quot;1&quot;');
    expect(mail.html).toMatch(/^<!doctype html>/);
  });

  it('says how long the link works', () => {
    expect(mail.text).toMatch(/valid for \d+ hours?/);
  });
});

describe('validity', () => {
  it('verification says 24 hours, reset says 1 hour', () => {
    expect(verifyEmailMail({ to, link }).text).toContain('valid for 24 hours');
    expect(passwordResetMail({ to, link, validHours: 1 }).text).toContain('valid for 1 hour ');
    expect(passwordResetMail({ to, link }).html).toContain('valid for 1 hour ');
  });
});

describe('both bodies say the same', () => {
  it.each(Object.entries(actionMails))('%s: the validity and the action in text and HTML', (_name, mail) => {
    const validity = mail.text.match(/valid for \d+ hours?/)?.[0];
    expect(validity).toBeDefined();
    expect(mail.html).toContain(validity);
  });

  it('verification: 24 hours in both bodies', () => {
    const mail = verifyEmailMail({ to, link });
    expect(mail.text).toContain('valid for 24 hours');
    expect(mail.html).toContain('valid for 24 hours');
  });

  it('deletion done: says the account is deleted in both bodies', () => {
    const mail = accountDeletedMail({ to });
    expect(mail.text).toContain('Your SoundID account and the data linked to it have been deleted');
    expect(mail.html).toContain('Your SoundID account and the data linked to it have been deleted');
  });
});

describe('emailChangeMail', () => {
  it('names the new address, escaped in HTML', () => {
    const mail = emailChangeMail({ to: 'new<b>@example.com', link: 'https://x.test/a' });
    expect(mail.text).toContain('new<b>@example.com');
    expect(mail.html).toContain('new&lt;b&gt;@example.com');
    expect(mail.html).not.toContain('new<b>');
  });
});

describe('accountDeletedMail', () => {
  it('has no links', () => {
    const mail = accountDeletedMail({ to });
    expect(mail.subject).toBe('Your My SoundID account has been deleted');
    expect(mail.links).toEqual([]);
    expect(mail.text).not.toMatch(/https?:/);
    expect(mail.html).not.toContain('<a ');
    expect(mail.html).toContain('My SoundID');
  });
});

describe('subjects', () => {
  const at = new Date('2026-01-15T10:00:00Z');
  const every = {
    ...actionMails,
    accountDeletedMail: accountDeletedMail({ to }),
    recoveryCodeUsedMail: recoveryCodeUsedMail({ to, at, left: 3 }),
    stepUpCodeMail: stepUpCodeMail({ to, code: '123456', minutes: 10 }),
    passkeyAddedMail: passkeyAddedMail({ to, name: 'Laptop', at }),
    twoStepTurnedOffMail: twoStepTurnedOffMail({ to, at }),
    newDeviceSignInMail: newDeviceSignInMail({ to, link, at, device: 'Chrome on macOS', ip: undefined }),
  };

  it.each(Object.entries(every))('%s names the product as My SoundID', (_name, mail) => {
    expect(mail.subject).toContain('My SoundID');
    expect(mail.subject.replaceAll('My SoundID', '')).not.toContain('SoundID');
  });
});

describe('newDeviceSignInMail (ADR 0041)', () => {
  const at = new Date('2026-01-15T10:00:00Z');
  const mail = newDeviceSignInMail({ to, link, at, device: 'Firefox <on> macOS', ip: '203.0.113.7' });

  it('names what, when and from which address, with the "This wasn\'t me" link, in both bodies', () => {
    for (const line of [
      'Device: Firefox <on> macOS',
      'When: Thu, 15 Jan 2026 10:00:00 GMT',
      'IP address: 203.0.113.7',
    ]) {
      expect(mail.text).toContain(line);
      expect(mail.html).toContain(escapeHtml(line));
    }
    expect(mail.text).toContain("This wasn't me:");
    expect(mail.links).toEqual([link]);
    expect(mail.html).not.toContain('<on>');
  });

  it('says who signed in to what, in a plain sentence', () => {
    const sentence =
      'Someone just signed in to your SoundID account from a browser or app that has not signed in to it before.';
    expect(mail.subject).toBe('New sign-in to your My SoundID account');
    expect(mail.text).toContain(sentence);
    expect(mail.html).toContain(sentence);
  });

  it('says the link works for 7 days, once', () => {
    expect(mail.text).toContain('valid for 7 days and can be used once');
    expect(mail.html).toContain('valid for 7 days and can be used once');
  });

  it('says so when the address is unknown', () => {
    expect(newDeviceSignInMail({ to, link, at, device: 'Chrome', ip: undefined }).text).toContain(
      'IP address: unknown',
    );
  });
});

describe('escapeHtml', () => {
  it('escapes the five special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
