import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { donationReversals, donations } from '../../../db/schema';
import { CARD_REFUND_REASONS, OFFLINE_REVERSAL_REASONS, type ReversalReason } from '../../../domain/finance';
import { formatPence } from '../../../domain';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import { inOrgScope, readsFinance } from '../../lib/policy';
import type { RefundBody, RefundResultDto, ReversalDto } from '../../schemas/refunds';
import { applyProviderEvent } from '../../webhooks/stripe/apply';
import { actorOf, auditInsertIf } from '../audit/append';
import type { SignedInContext, ViewerContext } from '../../lib/service-context';
import { sendRefundNotice } from '../mail/notify';
import { findGiftWithOrganization } from '../donations/list';
import { afterReversal, guardedReversalInsert, remainingSql } from './record';
import { isoOrNull } from '../../../domain/dates';

export type RefundContext = Pick<SignedInContext, 'db' | 'payments' | 'mail' | 'viewer' | 'requestId'>;

const OFFLINE_SOURCES = new Set(['manual', 'batch']);

export function toReversalDto(r: typeof donationReversals.$inferSelect): ReversalDto {
  return {
    _id: r.id,
    donation_id: r.donationId,
    kind: r.kind,
    amount: r.amount,
    reason: r.reason,
    note: r.note,
    status: r.status,
    provider_id: r.providerId,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    succeeded_at: isoOrNull(r.succeededAt),
  };
}

/** The gift if this money reader may act on it (404 otherwise, as the donation routes answer). */
export async function loadGiftInScope(ctx: ViewerContext, idParam: string) {
  const { viewer } = ctx;
  const row = await findGiftWithOrganization(ctx.db, idParam);
  if (!row || !readsFinance(viewer) || !inOrgScope(viewer, row.organizationId)) throw notFound('Donation Not Found');
  return row;
}

/** What is refunded or being refunded (the complement of remainingSql). */
async function pendingOrSucceeded(db: Db, donationId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`(select amount from donations where id = ${donationId}) - ${remainingSql(donationId)}` })
    .from(donations)
    .where(eq(donations.id, donationId));
  return Number(row?.n ?? 0);
}

async function result(db: Db, reversalId: string): Promise<RefundResultDto> {
  const [reversal] = await db.select().from(donationReversals).where(eq(donationReversals.id, reversalId));
  const [gift] = await db.select().from(donations).where(eq(donations.id, reversal.donationId));
  const taken = await pendingOrSucceeded(db, gift.id);
  return {
    reversal: toReversalDto(reversal),
    donation: {
      _id: gift.id,
      status: gift.status,
      amount: gift.amount,
      refunded_amount: gift.refundedAmount,
      remaining: Math.max(0, gift.amount - taken),
    },
  };
}

/**
 * Refund (card) or reverse (offline) part or all of a gift. The reversal row is inserted only if it
 * fits in what remains (one SQL statement), so concurrent requests never exceed the gift. A card
 * refund goes to Stripe after its row is stored as pending; Stripe's refusal marks the row failed, so
 * nothing is left counting, while no answer at all leaves it pending and reserved (Stripe may have
 * made it): the same request again looks for that refund at Stripe first (decision 076). Demo gifts
 * take the same recording path through a Stripe-shaped event.
 */
export async function refundDonation(
  ctx: RefundContext,
  idParam: string,
  input: RefundBody,
  idempotencyKey: string | null,
): Promise<{ status: 200 | 201; body: RefundResultDto }> {
  const { db, viewer } = ctx;
  const { gift, organizationId } = await loadGiftInScope(ctx, idParam);
  if (idempotencyKey) {
    const [earlier] = await db
      .select()
      .from(donationReversals)
      .where(eq(donationReversals.idempotencyKey, idempotencyKey))
      .limit(1);
    if (earlier) {
      if (earlier.donationId !== gift.id)
        throw new HttpError(409, 'Idempotency-Key: this key was already used for another gift');
      // A card refund whose answer never came: the refund Stripe made is looked for, else asked again.
      if (earlier.kind === 'refund' && earlier.status === 'pending' && !earlier.providerId)
        await refundThroughProvider(ctx, gift, earlier.id, earlier.amount, earlier.reason, true);
      return { status: 200, body: await result(db, earlier.id) };
    }
  }
  if (gift.status !== 'succeeded' && gift.status !== 'refunded') {
    throw new HttpError(409, `This gift is ${gift.status}, not paid: there is nothing to refund`);
  }
  // A Small Donations Scheme claim has no adjustment here (unlike Gift Aid's): reversed, the gift
  // would leave HMRC's top-up claimed on money the charity no longer has (decision 081).
  if (gift.gasdsClaimId) {
    throw new HttpError(
      409,
      'This gift is in a Small Donations Scheme (GASDS) claim already made to HMRC: reversing it would leave its top-up over-claimed. Tell HMRC first; this screen cannot record a GASDS adjustment yet',
    );
  }
  const offline = OFFLINE_SOURCES.has(gift.source);
  const allowed: readonly string[] = offline ? OFFLINE_REVERSAL_REASONS : CARD_REFUND_REASONS;
  if (!allowed.includes(input.reason)) {
    throw badRequest(`reason: a ${offline ? 'gift recorded by hand' : 'card gift'} takes one of ${allowed.join(', ')}`);
  }
  const remaining = gift.amount - (await pendingOrSucceeded(db, gift.id));
  if (remaining <= 0) throw new HttpError(409, 'This gift has already been refunded in full');
  const amount = input.amount ?? remaining;
  if (amount > remaining)
    throw badRequest(`amount: at most ${remaining} pence (${formatPence(remaining)}) remains to refund on this gift`);

  const reversalId = crypto.randomUUID();
  const reversal = {
    id: reversalId,
    donationId: gift.id,
    kind: offline ? ('reversal' as const) : ('refund' as const),
    amount,
    reason: input.reason as ReversalReason,
    note: input.note ?? null,
    status: offline ? ('succeeded' as const) : ('pending' as const),
    idempotencyKey,
    createdBy: viewer.id,
  };
  // The audit row and the Gift Aid effects ride only if the reversal row went in.
  const inserted = sql`exists (select 1 from donation_reversals where id = ${reversalId})`;
  const audit = auditInsertIf(db, actorOf(viewer, ctx.requestId), inserted, {
    action: offline ? 'donation.reverse' : 'donation.refund',
    targetType: 'donation',
    targetId: gift.id,
    organizationId,
    changes: { reversal: [null, { id: reversalId, amount, reason: input.reason }] },
    note: input.note ?? null,
  });
  try {
    await db.batch([
      guardedReversalInsert(db, reversal),
      ...(offline ? afterReversal(db, gift.id, inserted) : []),
      audit,
    ]);
  } catch (error) {
    if (
      /UNIQUE/i.test(
        String((error as Error)?.message ?? '') + String((error as { cause?: Error })?.cause?.message ?? ''),
      )
    ) {
      return {
        status: 200,
        body: await result(
          db,
          (
            await db
              .select()
              .from(donationReversals)
              .where(eq(donationReversals.idempotencyKey, idempotencyKey ?? ''))
          ).at(0)?.id ?? reversalId,
        ),
      };
    }
    throw error;
  }
  const [stored] = await db
    .select({ id: donationReversals.id })
    .from(donationReversals)
    .where(eq(donationReversals.id, reversalId));
  if (!stored)
    throw badRequest(
      'amount: another refund of this gift was recorded a moment ago; less remains now, reload and try again',
    );

  if (offline) {
    if (input.reason === 'returned_to_donor' && ctx.mail)
      await sendRefundNotice(ctx.mail, gift.id).catch(() => 'skipped');
    return { status: 201, body: await result(db, reversalId) };
  }
  await refundThroughProvider(ctx, gift, reversalId, amount, reversal.reason);
  return { status: 201, body: await result(db, reversalId) };
}

type Gift = typeof donations.$inferSelect;

/** The refund at the payment provider (Stripe's, or a demo refund event), recorded through the webhook's path. */
async function refundThroughProvider(
  ctx: RefundContext,
  gift: Gift,
  reversalId: string,
  amount: number,
  reason: ReversalReason,
  again = false,
) {
  const { db } = ctx;
  const payments = ctx.payments.forSource(gift.source);
  const outcome = await payments.refund({ gift, reversalId, amount, reason, again });
  const now = new Date();
  if ('refused' in outcome) {
    await db
      .update(donationReversals)
      .set({ status: 'failed', note: outcome.refused.note.slice(0, 500), updatedAt: now, failedAt: now })
      .where(and(eq(donationReversals.id, reversalId), eq(donationReversals.status, 'pending')));
    throw new HttpError(outcome.refused.status, outcome.refused.message);
  }
  if ('unsure' in outcome) {
    // Not failed: Stripe may have made it, and its webhook (or this refund sent again) will say.
    await db
      .update(donationReversals)
      .set({ note: outcome.unsure.note.slice(0, 500), updatedAt: now })
      .where(and(eq(donationReversals.id, reversalId), eq(donationReversals.status, 'pending')));
    throw new HttpError(504, outcome.unsure.message);
  }
  await applyProviderEvent({ db, payments, mail: ctx.mail ?? undefined }, outcome.event);
}
