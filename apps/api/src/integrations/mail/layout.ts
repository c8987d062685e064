import type { OutgoingMail } from './types';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

export const BRAND = 'My SoundID';

export interface MailContent {
  to: string;
  subject: string;
  /** The subject logs and the mail record keep instead, when `subject` carries a secret. */
  recordedSubject?: string;
  /** First line of the mail, e.g. "Confirm your email address". */
  heading: string;
  /** Paragraphs before the button; plain text, escaped for the HTML body. */
  intro: string[];
  /** The one action of the mail: a button in HTML, the raw link in text. */
  action?: { label: string; link: string };
  /** Paragraphs after the button (validity, "if this was not you"). */
  outro: string[];
  /** A second, plain link after the outro (where to change which mails come: ADR 0057). */
  settings?: { label: string; link: string };
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const paragraph = (text: string) =>
  `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2328;">${escapeHtml(text)}</p>`;

/** Builds both bodies of a mail from one content description, in the SoundID house style. */
export function renderMail(content: MailContent): OutgoingMail {
  const { to, subject, recordedSubject, heading, intro, action, outro, settings } = content;
  const signature = `The ${BRAND} team`;

  const text = [
    heading,
    '',
    ...intro.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}:`, action.link, ''] : []),
    ...outro.flatMap((p) => [p, '']),
    ...(settings ? [`${settings.label}: ${settings.link}`, ''] : []),
    '—',
    signature,
    '',
  ].join('\n');

  const button = action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px;"><tr>` +
      `<td style="border-radius:6px;background:#0b5fff;">` +
      `<a href="${escapeHtml(action.link)}" style="display:inline-block;padding:12px 24px;font-size:15px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(action.label)}</a>` +
      `</td></tr></table>` +
      `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#57606a;">If the button does not work, copy this link into your browser:<br>` +
      `<a href="${escapeHtml(action.link)}" style="color:#0b5fff;word-break:break-all;">${escapeHtml(action.link)}</a></p>`
    : '';

  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:${FONT};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0;"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px;">
<tr><td>
<p style="margin:0 0 24px;font-size:18px;font-weight:700;color:#111827;">${escapeHtml(BRAND)}</p>
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#111827;">${escapeHtml(heading)}</h1>
${intro.map(paragraph).join('\n')}
${button}
${outro.map(paragraph).join('\n')}
${settings ? `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#57606a;"><a href="${escapeHtml(settings.link)}" style="color:#0b5fff;">${escapeHtml(settings.label)}</a></p>` : ''}
<p style="margin:24px 0 0;font-size:13px;color:#57606a;">${escapeHtml(signature)}</p>
</td></tr>
</table>
</td></tr></table>
</body>
</html>
`;

  return {
    to,
    subject,
    ...(recordedSubject ? { recordedSubject } : {}),
    text,
    html,
    links: [...(action ? [action.link] : []), ...(settings ? [settings.link] : [])],
  };
}
