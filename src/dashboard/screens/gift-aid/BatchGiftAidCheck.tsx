import { benefitLimitPence } from '../../../../domain/gift-aid';
import { client } from '../../../lib/api';
import { formatPence } from '../../../lib/format';
import { formatDate } from '../../lib/dates';
import { useApiGet } from '../../lib/use-api';

const giftAid = client.api['gift-aid'];
const METHOD = { online: 'an online', paper: 'a paper', oral: 'an oral', admin: 'a recorded' } as const;

/**
 * Under a batch line with Gift Aid ticked: the donor's declaration that covers the gift's day, or why
 * none does, as the API answers it. Posting the batch checks again and refuses a line no declaration covers.
 */
export function BatchGiftAidCheck({
  donorId,
  organizationId,
  date,
  giftAid: ticked,
  benefitExceedsLimit,
  amount,
}: {
  donorId: string;
  organizationId: string;
  date: string;
  giftAid: boolean;
  benefitExceedsLimit: boolean;
  amount: number | null;
}) {
  const ask = ticked && !benefitExceedsLimit && donorId !== '' && organizationId !== '' && date !== '';
  const query = { donor_id: donorId, organization_id: organizationId, date };
  const [load] = useApiGet(ask ? giftAid.declarations.covering.$path({ query }) : null, (o) =>
    giftAid.declarations.covering.$get({ query }, o),
  );

  if (benefitExceedsLimit) {
    return (
      <p className="dash-batch-gift-aid is-not" role="status">
        Not eligible for Gift Aid: the donor received a benefit above HMRC&apos;s limits
        {amount
          ? ` (for a gift of ${formatPence(amount)}, benefits worth more than ${formatPence(benefitLimitPence(amount))})`
          : ''}
        .
      </p>
    );
  }
  if (!ticked) return null;
  if (!donorId || !organizationId || !date)
    return (
      <p className="dash-batch-gift-aid">
        Choose the organization, the donor and the day banked to check the declaration.
      </p>
    );
  if (load.status === 'error')
    return (
      <p className="dash-batch-gift-aid is-not" role="status">
        Could not check the declaration: {load.error.message}
      </p>
    );
  if (load.status !== 'ok') return <p className="dash-batch-gift-aid">Checking the donor&apos;s declaration…</p>;
  const { eligible, declaration, reason } = load.data;
  if (eligible && declaration) {
    return (
      <p className="dash-batch-gift-aid is-ok" role="status">
        Gift Aid verified: {METHOD[declaration.method]} declaration made on {formatDate(declaration.declared_at)} by{' '}
        {[declaration.first_name, declaration.last_name].join(' ')} covers {formatDate(date)}.
      </p>
    );
  }
  return (
    <p className="dash-batch-gift-aid is-not" role="status">
      Not eligible for Gift Aid: {reason} Untick Gift Aid, or record the declaration on the donor&apos;s page.
    </p>
  );
}
