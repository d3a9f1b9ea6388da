import type { CharityIdentity } from '../../../domain';
import type { MailMessage } from './mailer';
import { greetingFor, render } from './template';

export type SupportRequestFacts = {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  sentAt: Date;
};

const when = (date: Date) =>
  date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/London' });

/** To the charity's support address: who wrote, about what, and where to reply. */
export function supportRequestEmail(input: {
  to: string;
  request: SupportRequestFacts;
  inboxUrl: string;
  charity: CharityIdentity;
}): MailMessage {
  const { request } = input;
  return render({
    to: input.to,
    subject: `Contact Support: ${request.subject}`,
    greeting: 'Hello,',
    heading: `${request.name} sent a message through Contact Support`,
    blocks: [
      {
        kind: 'facts',
        rows: [
          ['From', `${request.name} <${request.email}>`],
          ['Sent', when(request.sentAt)],
          ['Subject', request.subject],
        ],
      },
      { kind: 'p', text: request.message },
      { kind: 'button', label: 'Open the Support inbox', href: input.inboxUrl },
      {
        kind: 'small',
        text: `Reply to ${request.email} within 24-48 hours, then mark the message handled in the Support inbox.`,
      },
    ],
    charity: input.charity,
    key: `support:${request.id}`,
  });
}

/** The sender's copy, so they have a record of what they asked. */
export function supportRequestCopyEmail(input: {
  request: SupportRequestFacts;
  charity: CharityIdentity;
}): MailMessage {
  const { request } = input;
  return render({
    to: request.email,
    subject: `We received your message: ${request.subject}`,
    greeting: greetingFor(request.name.split(' ')[0]),
    heading: 'Thank you for contacting us',
    blocks: [
      { kind: 'p', text: 'We have your message and will reply to this address within 24-48 hours. This is your copy:' },
      {
        kind: 'facts',
        rows: [
          ['Sent', when(request.sentAt)],
          ['Subject', request.subject],
        ],
      },
      { kind: 'p', text: request.message },
    ],
    charity: input.charity,
    key: `support-copy:${request.id}`,
  });
}
