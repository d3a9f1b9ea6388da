import type { ReactNode } from 'react';
import { formatPence } from '../../../../domain/money';
import { formatDate } from '../../lib/dates';
import { Section } from '../../ui/primitives';
import type { DonationStory } from './story';
import { claimedLabel, methodLabel, notClaimedLabel, sourceLabel } from './labels';

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="dash-facts donation-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** How the gift was paid, where it came from, what it cost and whether the donor was thanked. */
export function PaymentFacts({ story }: { story: DonationStory }) {
  const gift = story.donation;
  const offline = gift.source === 'manual' || gift.source === 'batch';
  return (
    <Section title="Payment" className="donation-card">
      <Facts
        rows={[
          ['Amount', formatPence(gift.amount)],
          ['Date', formatDate(gift.date)],
          ['Donor', <a href={`/dashboard/donors/edit/${encodeURIComponent(gift.donor.value)}`}>{gift.donor.label}</a>],
          ['For', gift.appeal ? `${gift.appeal.label} (${gift.campaign.label})` : gift.campaign.label],
          ['Type', gift.type === 'monthly' ? 'Monthly gift' : 'One-off gift'],
          ['Method', methodLabel(gift.payment_method, gift.bank_last4)],
          ['Source', sourceLabel(gift.source)],
          ...(story.batch_id
            ? [
                ['Batch', <a href={`/dashboard/batches/${encodeURIComponent(story.batch_id)}`}>Open its batch</a>] as [
                  string,
                  ReactNode,
                ],
              ]
            : []),
          ['Reference', story.reference ? <code>{story.reference}</code> : 'None'],
          [
            'Fee',
            story.fee_pence === null
              ? offline
                ? 'None (paid offline)'
                : 'Not known yet'
              : formatPence(story.fee_pence),
          ],
          [
            'Net',
            story.net_pence === null
              ? offline
                ? formatPence(gift.amount)
                : 'Not known yet'
              : formatPence(story.net_pence),
          ],
          ['Receipt', story.receipt_sent_at ? `Sent ${formatDate(story.receipt_sent_at)}` : 'Not sent'],
        ]}
      />
    </Section>
  );
}

/** The gift's Gift Aid: asked for or not, under which declaration, in which claim. */
export function GiftAidFacts({ story, children }: { story: DonationStory; children?: ReactNode }) {
  const { gift_aid: ga } = story;
  const declaration = ga.declaration;
  const claim = ga.claim;
  return (
    <Section title="Gift Aid" className="donation-card">
      <Facts
        rows={[
          ['Gift Aid', ga.requested ? 'Yes' : 'No'],
          [
            'Declaration',
            declaration
              ? `${declaration.method.charAt(0).toUpperCase()}${declaration.method.slice(1)} declaration made ${formatDate(declaration.declared_at)}${declaration.cancelled_at ? `, cancelled ${formatDate(declaration.cancelled_at)}` : ''}`
              : 'None on this gift',
          ],
          [
            'Claim',
            claim ? (
              <>
                <a href="/dashboard/gift-aid">
                  {claim.hmrc_reference ? `Claim ${claim.hmrc_reference}` : 'Gift Aid claim'}
                </a>{' '}
                ({claim.status.replace(/_/g, ' ')}): {claimedLabel(claim.amount_pence)}
              </>
            ) : (
              notClaimedLabel({
                requested: ga.requested,
                declared: !!declaration,
                amount: story.donation.amount,
                remaining: story.remaining_pence,
              })
            ),
          ],
          ...(ga.adjustments_pence
            ? ([
                ['Adjusted', `${formatPence(Math.abs(ga.adjustments_pence))} of Gift Aid to repay in the next claim`],
              ] as [string, ReactNode][])
            : []),
        ]}
      />
      {children}
    </Section>
  );
}
