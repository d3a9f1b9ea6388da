import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { giftAidAdjustments, giftAidClaimedGifts, giftAidClaims } from '../../../db/schema';
import {
  canMoveClaim,
  claimMoveRefusal,
  formatPence,
  type GiftAidClaimStatus,
  isIsoDay,
  londonIsoDate,
} from '../../../domain';
import { badRequest, HttpError } from '../../lib/errors';
import type { AuthUser } from '../../lib/types';
import type { ClaimDto, ClaimUpdate, PaymentInput } from '../../schemas/gift-aid';
import { type AuditActor, auditInsertIf, staffActor } from '../audit/append';
import { getClaim } from './claims';
import type { AuditedWriteContext, SignedInContext } from '../../lib/service-context';

/** A claim's life after it is made: submitted, paid, rejected and resubmitted, or voided (domain rules in GIFT_AID_CLAIM_TRANSITIONS). */

type StaffActor = AuditActor & { user: AuthUser };

function refuseMove(claim: ClaimDto, to: GiftAidClaimStatus): void {
  if (!canMoveClaim(claim.status, to)) throw badRequest(claimMoveRefusal(claim.status, to));
}

function requireReference(reference: string | null | undefined): string {
  const value = reference?.trim();
  if (!value)
    throw badRequest(
      "hmrc_reference: enter HMRC's reference for the submission (Charities Online shows it once the claim is sent)",
    );
  return value;
}

/**
 * The update guarded by the status it was read in, with its audit row, in one batch: two staff
 * acting at once cannot both move the claim, and a write is never without its record.
 */
async function moveClaim(
  db: Db,
  actor: StaffActor,
  claim: ClaimDto,
  set: Partial<typeof giftAidClaims.$inferInsert>,
  action: string,
  note: string | null,
  extra: 'release' | null,
  now: Date,
): Promise<ClaimDto> {
  const guard = and(eq(giftAidClaims.id, claim._id), eq(giftAidClaims.status, claim.status));
  // The statements after the move ride on it: this request's own write (its updated_at) is there, so
  // a move that lost a race releases nothing and logs nothing.
  const moved = sql`exists (select 1 from ${giftAidClaims} where ${giftAidClaims.id} = ${claim._id}
    and ${giftAidClaims.updatedAt} = ${now.getTime()} and ${giftAidClaims.status} = ${set.status ?? claim.status})`;
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [key, value] of Object.entries(set))
    changes[key] = [null, value instanceof Date ? value.toISOString() : value];
  if (set.status) changes.status = [claim.status, set.status];
  const statements = [
    db
      .update(giftAidClaims)
      .set({ ...set, updatedAt: now })
      .where(guard),
    ...(extra === 'release'
      ? [
          // A void draft gives its gifts back (they become eligible again) and hands back the adjustments it was to report.
          db.delete(giftAidClaimedGifts).where(and(eq(giftAidClaimedGifts.claimId, claim._id), moved)),
          db
            .update(giftAidAdjustments)
            .set({ settledClaimId: null })
            .where(and(eq(giftAidAdjustments.settledClaimId, claim._id), moved)),
          // And the refunds of its own gifts are no over-claim any more: it never reached HMRC, and the
          // next claim takes each gift at what it is worth after them. Left, they were reported as well.
          db
            .delete(giftAidAdjustments)
            .where(and(eq(giftAidAdjustments.claimId, claim._id), isNull(giftAidAdjustments.settledClaimId), moved)),
        ]
      : []),
    auditInsertIf(
      db,
      actor,
      moved,
      { action, targetType: 'claim', targetId: claim._id, organizationId: claim.organization.value, changes, note },
      now,
    ),
  ];
  if (extra === 'release') {
    const [reported] = await db
      .select({ id: giftAidAdjustments.id })
      .from(giftAidAdjustments)
      .where(and(eq(giftAidAdjustments.claimId, claim._id), isNotNull(giftAidAdjustments.settledClaimId)))
      .limit(1);
    if (reported)
      throw new HttpError(
        409,
        'A later claim already reports a refund of one of this claim’s gifts; void that claim first, then this one',
      );
  }
  const [current] = await db
    .select({ status: giftAidClaims.status })
    .from(giftAidClaims)
    .where(eq(giftAidClaims.id, claim._id))
    .limit(1);
  if (current?.status !== claim.status)
    throw new HttpError(409, 'This claim was changed a moment ago; reload it and try again');
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  const [after] = await db
    .select({ updatedAt: giftAidClaims.updatedAt })
    .from(giftAidClaims)
    .where(eq(giftAidClaims.id, claim._id))
    .limit(1);
  if (after?.updatedAt?.getTime() !== now.getTime())
    throw new HttpError(409, 'This claim was changed a moment ago; reload it and try again');
  return getClaim({ db, viewer: actor.user }, claim._id);
}

/** draft → submitted (with HMRC's reference), rejected → submitted again, submitted → paid; never backwards. */
export async function updateClaim(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  idRef: string,
  input: ClaimUpdate,
): Promise<ClaimDto> {
  const { db, now } = ctx;
  const actor = staffActor(ctx);
  const claim = await getClaim(ctx, idRef);
  if (input.status === claim.status && input.status === 'submitted' && input.hmrc_reference !== undefined) {
    const reference = requireReference(input.hmrc_reference);
    if (reference === claim.hmrc_reference) return claim;
    return moveClaim(db, actor, claim, { hmrcReference: reference }, 'claim.reference', null, null, now);
  }
  if (input.status === claim.status) return claim;
  if (input.status === 'void') return voidClaim(ctx, idRef, null);
  if (input.status === 'rejected')
    throw badRequest("status: mark a claim rejected with POST /api/gift-aid/claims/{id}/reject and HMRC's reason");
  refuseMove(claim, input.status);
  if (input.status === 'submitted') {
    const reference = requireReference(input.hmrc_reference);
    const action = claim.status === 'rejected' ? 'claim.resubmit' : 'claim.submit';
    return moveClaim(
      db,
      actor,
      claim,
      { status: 'submitted', hmrcReference: reference, submittedAt: now },
      action,
      null,
      null,
      now,
    );
  }
  return moveClaim(db, actor, claim, { status: 'paid', paidAt: now }, 'claim.paid', null, null, now);
}

/** A draft claim that will not be sent: its gifts become eligible again; the row and its schedule stay as a record. */
export async function voidClaim(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  idRef: string,
  reason: string | null | undefined,
): Promise<ClaimDto> {
  const { db, now } = ctx;
  const actor = staffActor(ctx);
  const claim = await getClaim(ctx, idRef);
  if (claim.status !== 'draft') {
    throw badRequest(
      `status: only a draft claim can be voided; this one is ${claim.status}${claim.status === 'submitted' ? ' (if HMRC rejected it, mark it rejected)' : ''}`,
    );
  }
  return moveClaim(
    db,
    actor,
    claim,
    { status: 'void', voidedAt: now, voidedBy: actor.user.id, voidReason: reason?.trim() || null },
    'claim.void',
    reason?.trim() || null,
    'release',
    now,
  );
}

/** HMRC rejected a submitted claim: its reason is kept; the gifts stay with the claim until it is resubmitted. */
export async function rejectClaim(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  idRef: string,
  reason: string,
): Promise<ClaimDto> {
  const { db, now } = ctx;
  const actor = staffActor(ctx);
  const claim = await getClaim(ctx, idRef);
  refuseMove(claim, 'rejected');
  return moveClaim(
    db,
    actor,
    claim,
    { status: 'rejected', rejectedAt: now, rejectionReason: reason.trim() },
    'claim.reject',
    reason.trim(),
    null,
    now,
  );
}

export async function resubmitClaim(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  idRef: string,
  hmrcReference: string,
): Promise<ClaimDto> {
  const { db, now } = ctx;
  const actor = staffActor(ctx);
  const claim = await getClaim(ctx, idRef);
  if (claim.status !== 'rejected')
    throw badRequest(`status: only a rejected claim can be resubmitted; this one is ${claim.status}`);
  return moveClaim(
    db,
    actor,
    claim,
    { status: 'submitted', hmrcReference: requireReference(hmrcReference), submittedAt: now },
    'claim.resubmit',
    null,
    null,
    now,
  );
}

/**
 * HMRC's payment of a submitted claim: the amount and the day it arrived. A payment that differs
 * from the claim's net figure is accepted (HMRC may have adjusted it) but needs a note saying why,
 * and the difference shows on the claim.
 */
export async function recordPayment(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  idRef: string,
  input: PaymentInput,
): Promise<ClaimDto> {
  const { db, now } = ctx;
  const actor = staffActor(ctx);
  const claim = await getClaim(ctx, idRef);
  if (claim.status !== 'submitted')
    throw badRequest(`status: only a submitted claim can be paid; this one is ${claim.status}`);
  if (!isIsoDay(input.paid_on)) throw badRequest('paid_on: enter a date like 2026-04-06');
  const submittedOn = claim.submitted_at ? londonIsoDate(new Date(claim.submitted_at)) : null;
  if (submittedOn && input.paid_on < submittedOn)
    throw badRequest(`paid_on: must be on or after the day the claim was submitted (${submittedOn})`);
  if (input.paid_on > londonIsoDate(now)) throw badRequest('paid_on: cannot be in the future');
  const note = input.note?.trim() || null;
  const difference = input.amount - claim.net_claim;
  if (difference !== 0 && !note) {
    throw badRequest(
      `note: HMRC paid ${difference > 0 ? 'more' : 'less'} than the claim's net figure (by ${formatPence(Math.abs(difference))}); say why in a note (for example HMRC's adjustment letter)`,
    );
  }
  return moveClaim(
    db,
    actor,
    claim,
    { status: 'paid', paidAt: now, paidAmountPence: input.amount, paidOn: input.paid_on, paymentNote: note },
    'claim.paid',
    note,
    null,
    now,
  );
}
