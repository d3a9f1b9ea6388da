import { inArray, sql, type SQL } from 'drizzle-orm';
import { campaignOfGift } from '../../../db/gift-joins';
import { chunks, rowsPerStatement } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import { campaigns, donationDisputes, donationReversals, donations, payoutLines, payouts } from '../../../db/schema';
import type { PayoutStatus } from '../../../domain/finance';
import type { Statement } from '../donations/record';

/**
 * A payout and its lines (docs/decisions/037). One statement list, run in one batch with the event
 * id (or the demo run's own guard), so a payout is written whole or not at all. Replays change
 * nothing: the payout is keyed by po_…, each line by (payout, txn_…), and every other write is a
 * "set to what the lines say".
 */

export type PayoutHeader = {
  id: string;
  amount: number;
  currency: string;
  status: PayoutStatus;
  /** ms */
  arrivalDate: number;
  failureCode: string | null;
  failureMessage: string | null;
  /** `created` (seconds) of the event: a newer event wins, except that failed is final. */
  eventAt: number;
};

export type PayoutLineInput = {
  balanceTransactionId: string;
  type: string;
  sourceId: string | null;
  /** The PaymentIntent behind a charge, refund or dispute, when Stripe expanded the source. */
  paymentIntentId: string | null;
  amount: number;
  fee: number;
  net: number;
  /** ms */
  availableOn: number | null;
  /** Set by matchLines: the gift the line belongs to (null: unmatched, kept as it is). */
  donationId?: string | null;
};

/** Stripe's balance transaction types that bring a gift's money in, or take it back out. */
export const INCOME_TYPES = ['charge', 'payment'] as const;
export const REFUND_TYPES = ['refund', 'payment_refund', 'payment_failure_refund'] as const;

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Finds each line's gift: charges by their PaymentIntent or the balance transaction stored on the
 * gift, refunds by their reversal row (re_…), disputes by their dispute row (du_…). A line nothing
 * matches keeps donation_id null: it is still part of the payout (an adjustment, a Stripe fee, a
 * payment made outside this app) and shows as unmatched.
 */
export async function matchLines(db: Db, lines: PayoutLineInput[]): Promise<PayoutLineInput[]> {
  const intents = [...new Set(lines.map((l) => l.paymentIntentId).filter((v): v is string => !!v))];
  const txns = lines
    .filter((l) => (INCOME_TYPES as readonly string[]).includes(l.type))
    .map((l) => l.balanceTransactionId);
  const sources = [...new Set(lines.map((l) => l.sourceId).filter((v): v is string => !!v))];
  const byIntent = new Map<string, string>();
  const byTxn = new Map<string, string>();
  const bySource = new Map<string, string>();
  for (const part of chunks(intents)) {
    for (const row of await db
      .select({ id: donations.id, pi: donations.paymentIntentId })
      .from(donations)
      .where(inArray(donations.paymentIntentId, part))) {
      if (row.pi) byIntent.set(row.pi, row.id);
    }
  }
  for (const part of chunks(txns)) {
    for (const row of await db
      .select({ id: donations.id, txn: donations.balanceTransactionId })
      .from(donations)
      .where(inArray(donations.balanceTransactionId, part))) {
      if (row.txn) byTxn.set(row.txn, row.id);
    }
  }
  for (const part of chunks(sources)) {
    const reversals = await db
      .select({ source: donationReversals.providerId, gift: donationReversals.donationId })
      .from(donationReversals)
      .where(inArray(donationReversals.providerId, part));
    const disputes = await db
      .select({ source: donationDisputes.providerId, gift: donationDisputes.donationId })
      .from(donationDisputes)
      .where(inArray(donationDisputes.providerId, part));
    for (const row of [...reversals, ...disputes]) if (row.source) bySource.set(row.source, row.gift);
  }
  return lines.map((l) => ({
    ...l,
    donationId:
      (l.sourceId ? bySource.get(l.sourceId) : undefined) ??
      (l.paymentIntentId ? byIntent.get(l.paymentIntentId) : undefined) ??
      byTxn.get(l.balanceTransactionId) ??
      null,
  }));
}

/** The one organization every matched gift of the payout belongs to, else null (a mixed payout). */
export async function organizationOfLines(db: Db, lines: PayoutLineInput[]): Promise<string | null> {
  const gifts = [...new Set(lines.map((l) => l.donationId).filter((v): v is string => !!v))];
  const orgs = new Set<string | null>();
  for (const part of chunks(gifts)) {
    const rows = await db
      .selectDistinct({ org: campaigns.organizationId })
      .from(donations)
      .innerJoin(campaigns, campaignOfGift)
      .where(inArray(donations.id, part));
    for (const row of rows) orgs.add(row.org);
  }
  return orgs.size === 1 ? ([...orgs][0] ?? null) : null;
}

export function payoutStatements(
  db: Db,
  guard: SQL,
  header: PayoutHeader & { organizationId: string | null },
  lines: PayoutLineInput[],
): Statement[] {
  const now = Date.now();
  const p = header.id;
  const newer = sql`excluded.last_event_at >= ${payouts.lastEventAt}`;
  const upsert = db
    .insert(payouts)
    .select(
      sql`select ${p}, ${header.organizationId}, ${header.amount}, ${header.currency}, ${header.status}, ${header.arrivalDate}, ${header.failureMessage},
        ${header.failureCode}, 0, 0, 0, 0, ${header.eventAt}, ${now}, ${now} where ${guard}`,
    )
    .onConflictDoUpdate({
      target: payouts.id,
      set: {
        // Stripe: a paid payout can still fail (the bank returns it); a failed one is never paid.
        status: sql`case when ${payouts.status} = 'failed' or excluded.status = 'failed' then 'failed'
          when ${newer} then excluded.status else ${payouts.status} end`,
        amount: sql`case when ${newer} then excluded.amount else ${payouts.amount} end`,
        arrivalDate: sql`case when ${newer} then excluded.arrival_date else ${payouts.arrivalDate} end`,
        organizationId: sql`coalesce(excluded.organization_id, ${payouts.organizationId})`,
        failureCode: sql`coalesce(excluded.failure_code, ${payouts.failureCode})`,
        failureMessage: sql`coalesce(excluded.failure_message, ${payouts.failureMessage})`,
        lastEventAt: sql`max(${payouts.lastEventAt}, excluded.last_event_at)`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
  const statements: Statement[] = [upsert];
  for (const part of chunks(lines, rowsPerStatement(9))) {
    statements.push(
      db
        .insert(payoutLines)
        .values(
          part.map((l) => ({
            payoutId: p,
            balanceTransactionId: l.balanceTransactionId,
            type: l.type,
            sourceId: l.sourceId,
            donationId: l.donationId ?? null,
            amount: l.amount,
            fee: l.fee,
            net: l.net,
            availableOn: l.availableOn === null ? null : new Date(l.availableOn),
          })),
        )
        // A replay or a second event for the same payout keeps the line, but learns its gift.
        .onConflictDoUpdate({
          target: [payoutLines.payoutId, payoutLines.balanceTransactionId],
          set: { donationId: sql`coalesce(excluded.donation_id, ${payoutLines.donationId})` },
        }),
    );
  }
  const ofPayout = sql`l.payout_id = ${p}`;
  const income = list(INCOME_TYPES);
  const refunds = list(REFUND_TYPES);
  // The figures the list shows, from the lines themselves (so they always agree with them).
  statements.push(
    db
      .update(payouts)
      .set({
        grossPence: sql`(select coalesce(sum(l.amount), 0) from payout_lines l where ${ofPayout} and l.type in (${income}))`,
        feePence: sql`(select coalesce(sum(l.fee), 0) from payout_lines l where ${ofPayout})`,
        refundPence: sql`(select coalesce(-sum(l.amount), 0) from payout_lines l where ${ofPayout} and l.type in (${refunds}))`,
        lineCount: sql`(select count(*) from payout_lines l where ${ofPayout})`,
      })
      .where(sql`${payouts.id} = ${p} and ${guard}`),
  );
  const paid = sql`exists (select 1 from payouts x where x.id = ${p} and x.status = 'paid')`;
  const failed = sql`exists (select 1 from payouts x where x.id = ${p} and x.status = 'failed')`;
  const lineOf = (column: string, types: SQL, key: SQL) =>
    sql`(select ${sql.raw(`l.${column}`)} from payout_lines l where ${ofPayout} and l.type in (${types}) and ${key} limit 1)`;
  const giftLine = (column: string) => lineOf(column, income, sql`l.donation_id = ${donations.id}`);
  // A paid payout names the gifts it paid out and fills in a fee the payment did not get.
  statements.push(
    db
      .update(donations)
      .set({
        payoutId: p,
        feePence: sql`coalesce(${donations.feePence}, ${giftLine('fee')})`,
        netPence: sql`coalesce(${donations.netPence}, ${giftLine('net')})`,
        balanceTransactionId: sql`coalesce(${donations.balanceTransactionId}, ${giftLine('balance_transaction_id')})`,
      })
      .where(
        sql`${donations.id} in (select l.donation_id from payout_lines l where ${ofPayout} and l.type in (${income})) and ${paid} and ${guard}`,
      ),
  );
  const reversalLine = (column: string) => lineOf(column, refunds, sql`l.source_id = ${donationReversals.providerId}`);
  statements.push(
    db
      .update(donationReversals)
      .set({
        payoutId: p,
        feePence: sql`coalesce(${donationReversals.feePence}, ${reversalLine('fee')})`,
        balanceTransactionId: sql`coalesce(${donationReversals.balanceTransactionId}, ${reversalLine('balance_transaction_id')})`,
      })
      .where(
        sql`${donationReversals.providerId} in (select l.source_id from payout_lines l where ${ofPayout} and l.type in (${refunds})) and ${paid} and ${guard}`,
      ),
  );
  // A failed payout's money went back to the Stripe balance: its gifts wait for the next payout.
  statements.push(
    db.update(donations).set({ payoutId: null }).where(sql`${donations.payoutId} = ${p} and ${failed} and ${guard}`),
  );
  statements.push(
    db
      .update(donationReversals)
      .set({ payoutId: null })
      .where(sql`${donationReversals.payoutId} = ${p} and ${failed} and ${guard}`),
  );
  return statements;
}
