import { type CharityIdentity, registrationLine } from '../../../domain';
import type { MailMessage } from './mailer';
import { escapeHtml } from '../../../domain/html';

/**
 * The one template of every notification email (receipts, notices, codes): a text part and an
 * HTML part built from the same blocks, with the charity block at the foot. Every value that came
 * from a person or the database goes through escapeHtml in the HTML part; nothing is trusted.
 */

export type Block =
  | { kind: 'p'; text: string }
  /** Label and value rows, e.g. Amount: £10.00. */
  | { kind: 'facts'; rows: [string, string][] }
  | { kind: 'button'; label: string; href: string }
  | { kind: 'small'; text: string };

export type Email = {
  to: string;
  subject: string;
  /** The first line after the heading. */
  greeting: string;
  heading: string;
  blocks: Block[];
  /** Who sends it: printed at the foot (name, registration line, address). */
  charity: CharityIdentity;
  /** Outbox key for messages that must go at most once. */
  key?: string;
};

export const greetingFor = (firstName: string | null | undefined) =>
  firstName?.trim() ? `Dear ${firstName.trim()},` : 'Hello,';

/** The charity's identity lines, as receipts must show them. */
export function charityLines(charity: CharityIdentity): string[] {
  return [charity.legalName || charity.name, registrationLine(charity), charity.address].filter(
    (line): line is string => !!line,
  );
}

function textOf(email: Email): string {
  const out: string[] = [email.greeting, '', email.heading, ''];
  for (const block of email.blocks) {
    if (block.kind === 'p' || block.kind === 'small') out.push(block.text, '');
    else if (block.kind === 'facts') {
      const width = Math.max(...block.rows.map(([label]) => label.length)) + 1;
      for (const [label, value] of block.rows) out.push(`${`${label}:`.padEnd(width)} ${value}`);
      out.push('');
    } else out.push(`${block.label}: ${block.href}`, '');
  }
  out.push('--', ...charityLines(email.charity));
  return out.join('\n');
}

const styles = {
  p: 'margin:0 0 16px;line-height:1.5',
  small: 'margin:0 0 16px;color:#4f5b67;font-size:14px;line-height:1.5',
  label: 'padding:6px 12px 6px 0;color:#4f5b67;vertical-align:top;white-space:nowrap',
  value: 'padding:6px 0;font-weight:600;vertical-align:top',
  button:
    'display:inline-block;background:#0b6e4f;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:700',
};

function htmlBlock(block: Block): string {
  switch (block.kind) {
    case 'p':
      return `<p style="${styles.p}">${escapeHtml(block.text)}</p>`;
    case 'small':
      return `<p style="${styles.small}">${escapeHtml(block.text)}</p>`;
    case 'facts':
      return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse">${block.rows
        .map(
          ([label, value]) =>
            `<tr><td style="${styles.label}">${escapeHtml(label)}</td><td style="${styles.value}">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'button':
      return `<p style="margin:0 0 16px"><a href="${escapeHtml(block.href)}" style="${styles.button}">${escapeHtml(block.label)}</a></p>`;
  }
}

function htmlOf(email: Email): string {
  const charity = email.charity;
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><title>${escapeHtml(email.subject)}</title></head>
<body style="margin:0;background:#f6f8f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1b2430">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;border:1px solid #d9dee3">
<tr><td style="background:#0b6e4f;color:#ffffff;padding:16px 24px;border-radius:12px 12px 0 0;font-weight:800;font-size:20px">${escapeHtml(charity.name)}</td></tr>
<tr><td style="padding:24px">
<p style="${styles.p}">${escapeHtml(email.greeting)}</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(email.heading)}</h1>
${email.blocks.map(htmlBlock).join('\n')}
</td></tr></table>
<p style="color:#4f5b67;font-size:12px;line-height:1.5">${charityLines(charity).map(escapeHtml).join('<br>')}</p>
</td></tr></table></body></html>`;
}

export function render(email: Email): MailMessage {
  return { to: email.to, subject: email.subject, text: textOf(email), html: htmlOf(email), key: email.key };
}
