import type { CharityIdentity } from '../../../domain';
import type { MailMessage } from './mailer';
import { greetingFor, render } from './template';

/** The code that confirms a donor's request to delete their account. */
export function erasureCodeEmail(input: {
  to: string;
  firstName: string | null;
  code: string;
  minutes: number;
  charity: CharityIdentity;
}): MailMessage {
  return render({
    to: input.to,
    subject: `${input.code} confirms deleting your ${input.charity.name} account`,
    greeting: greetingFor(input.firstName),
    heading: 'Confirm that you want your account deleted',
    blocks: [
      { kind: 'p', text: `Your confirmation code is ${input.code}. It expires in ${input.minutes} minutes.` },
      {
        kind: 'p',
        text: 'Entering it in My Info deletes your name, email, phone, address and sign-ins, and cancels any monthly gift. Your past gifts stay in the totals as anonymous gifts. Gift Aid declarations and claims are kept for six years, as HMRC requires, and only our administrators can see them.',
      },
      { kind: 'small', text: 'If you did not ask for this, ignore this email: nothing changes without the code.' },
    ],
    charity: input.charity,
  });
}
