import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
import { editsContent, readsMoney } from '../../../../domain/roles';
import { formatPence } from '../../../../domain/money';
import { client } from '../../../lib/api';
import { DonationForm } from '../../forms/DonationForm';
import { SupportMessagePanel } from '../../forms/SupportMessagePanel';
import { listPathOf } from '../../lib/routes';
import { useApiGet } from '../../lib/use-api';
import { $dashUser } from '../../session';
import { Alert, Badge, NotFound, PageHeader, Spinner } from '../../ui/primitives';
import { MonthlyGiftAdmin } from '../my-donations/MonthlyGiftAdmin';
import { VerifyGiftAid } from '../gift-aid/VerifyGiftAid';
import { AuditHistory } from './AuditHistory';
import { GiftAidFacts, PaymentFacts } from './StoryFacts';
import { MoneyBack } from './MoneyBack';
import { RefundPanel } from './RefundPanel';
import { ResendReceipt } from './ResendReceipt';
import { statusLabel, statusTone } from './labels';
import './donation-page.css';

import type { DonationStory } from './story';

const storyCall = client.api.donations[':id'].story.$get;

/**
 * /dashboard/donations/edit/:id for the people who handle money: the gift's whole story (payment,
 * Gift Aid, money back, receipt, history) with the one action that applies. Fields are editable
 * only where the API says so (an offline gift not claimed nor reversed); anyone else keeps the form.
 */
export function DonationPage({ id }: { id: string }) {
  const user = useStore($dashUser);
  if (user === undefined) return <Spinner />;
  if (!readsMoney(user)) return <DonationForm id={id} />;
  // A finance officer reads the gift but does not moderate its message of support (staff only in the API).
  return <DonationStoryView id={id} canVerify={editsContent(user)} canModerate={editsContent(user)} />;
}

function DonationStoryView({ id, canVerify, canModerate }: { id: string; canVerify: boolean; canModerate: boolean }) {
  const [load, reload] = useApiGet(`donations/${id}/story`, (o) => storyCall({ param: { id } }, o));
  // Keep the last story on screen while it reloads after a refund, so focus and scroll stay put.
  const last = useRef<DonationStory | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (load.status === 'ok') last.current = load.data;
  if (load.status === 'error')
    return load.error.statusCode === 404 ? (
      <NotFound title="Not Found" back="/dashboard/donations" backLabel="Back to Donations" />
    ) : (
      <h1 className="dash-not-found">{load.error.message}</h1>
    );
  const done = (message: string) => {
    setNotice(message);
    reload();
  };
  const story = last.current;
  if (!story) return <Spinner />;
  const gift = story.donation;
  const offline = gift.source === 'manual' || gift.source === 'batch';
  const editable = story.actions.includes('edit');
  const canRefund = story.actions.includes('refund');
  const verifiable =
    canVerify &&
    offline &&
    !story.gift_aid.claim &&
    !story.reversals.length &&
    !gift.gift_aid &&
    gift.status === 'succeeded';

  return (
    <section className="dash-section donation-page">
      <PageHeader
        title={`Gift of ${formatPence(gift.amount)} from ${gift.donor.label}`}
        back={<a href={listPathOf('donations')}>All donations</a>}
      />
      <div className="donation-summary" data-testid="donation-summary">
        {/* An offline gift gone back was reversed (a bounced cheque), not refunded: the badge says which. */}
        <Badge tone={statusTone(gift.status)}>
          {offline && gift.status === 'refunded' ? 'Reversed' : statusLabel(gift.status)}
        </Badge>
        <span>
          Remaining <strong data-testid="donation-remaining">{formatPence(story.remaining_pence)}</strong>
          {gift.refunded_amount ? (
            <>
              {' '}
              of {formatPence(gift.amount)} ({formatPence(gift.refunded_amount)} back)
            </>
          ) : null}
        </span>
        <span className="dash-muted">
          {editable ? 'Editable: a gift entered by hand, not yet claimed' : 'Read-only'}
        </span>
      </div>

      {notice ? <Alert tone="success">{notice}</Alert> : null}

      <div className="donation-columns">
        <PaymentFacts story={story} />
        <GiftAidFacts story={story}>
          {verifiable ? <VerifyGiftAid donationId={gift._id} onVerified={done} embedded /> : null}
        </GiftAidFacts>
      </div>

      {gift.status === 'succeeded' ? (
        <p className="donation-receipt-again">
          <ResendReceipt donationId={gift._id} />
        </p>
      ) : null}

      <MoneyBack story={story} />
      {canRefund ? (
        <RefundPanel story={story} offline={offline} onDone={done} onReview={() => setNotice(null)} />
      ) : (
        <p className="dash-hint">{noRefundReason(story, offline)}</p>
      )}

      {editable ? (
        <DonationForm id={gift._id} embedded onSaved={() => done('Saved: the gift’s details are updated.')} />
      ) : (
        <p className="dash-hint donation-readonly-note">{readOnlyReason(story, offline)}</p>
      )}

      <AuditHistory entries={story.history} />
      {gift.subscription_id ? <MonthlyGiftAdmin subscriptionId={gift.subscription_id} canCancel={canModerate} /> : null}
      {canModerate ? <SupportMessagePanel donationId={gift._id} /> : null}
    </section>
  );
}

function noRefundReason(story: DonationStory, offline: boolean): string {
  const { status } = story.donation;
  if (status === 'pending' || status === 'processing')
    return 'Nothing can be refunded until the payment has gone through.';
  if (status === 'failed' || status === 'abandoned')
    return 'The payment did not go through: there is nothing to refund.';
  if (story.remaining_pence <= 0)
    return `All of this gift has gone back: nothing remains to ${offline ? 'reverse' : 'refund'}.`;
  return '';
}

function readOnlyReason(story: DonationStory, offline: boolean): string {
  if (!offline)
    return 'A gift paid online is read-only: what the donor paid is what Stripe took. Use Refund to give money back.';
  if (story.gift_aid.claim)
    return 'This gift is in a Gift Aid claim, so its details cannot change. Reverse it and record a new gift to correct it.';
  if (story.reversals.length) return 'Money has gone back on this gift, so its details cannot change.';
  if (story.donation.source === 'batch')
    return 'A gift in a posted batch matches its paying-in slip, so it is not edited: reverse it and enter the right one in a new batch.';
  return 'Only admins and organization admins edit gifts.';
}
