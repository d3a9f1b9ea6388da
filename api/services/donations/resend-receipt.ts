import { HttpError, notFound } from '../../lib/errors';
import { canResendReceipt } from '../../lib/policy';
import type { SignedInContext } from '../../lib/service-context';
import type { ReceiptResentDto } from '../../schemas/donations';
import { hitRateLimit, RateLimitError, type RateRule } from '../abuse/rate-limit';
import { auditInsert, staffActor } from '../audit/append';
import { giftFacts } from '../mail/facts';
import { createMailer } from '../mail/mailer';
import { receiptEmail } from '../mail/receipt';
import { findGiftWithOrganization } from './list';

/** One copy per gift per 10 minutes, whoever asks: a gift cannot be used to flood an inbox. */
export const RECEIPT_RESEND_LIMIT: RateRule = { limit: 1, windowMs: 10 * 60_000 };

export type ResendContext = Pick<SignedInContext, 'db' | 'mail' | 'viewer' | 'requestId'>;

/**
 * Emails a paid gift's receipt again, to the donor's address on file. The first receipt's outbox key
 * stays once-only (webhook copies never send two); each copy gets a key of its own. Staff copies
 * are audited: the donor may ask why they got one.
 */
export async function resendReceipt(ctx: ResendContext, idParam: string): Promise<ReceiptResentDto> {
  const { db, viewer } = ctx;
  const found = await findGiftWithOrganization(db, idParam);
  if (!found || !canResendReceipt(viewer, { donorId: found.gift.donorId, organizationId: found.organizationId }))
    throw notFound('Donation Not Found');
  const facts = await giftFacts(ctx.mail, found.gift.id);
  // A fully refunded gift is `refunded`: its receipt would state a gift that no longer stands.
  if (facts?.status !== 'succeeded')
    throw new HttpError(409, 'This gift was not paid (or was refunded in full), so it has no receipt to send');
  if (facts.donor.erased || !facts.donor.email || facts.donor.email.endsWith('.invalid'))
    throw new HttpError(409, 'This donor has no email address on file, so the receipt cannot be emailed');
  const now = new Date();
  const limit = await hitRateLimit(db, `receipt-resend:${found.gift.id}`, RECEIPT_RESEND_LIMIT, now);
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    throw new RateLimitError(
      `This receipt was emailed a few minutes ago. Please check the inbox and spam folder, or try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      limit.retryAfterSeconds,
    );
  }
  const message = receiptEmail(facts);
  await createMailer(db, ctx.mail.config).send({ ...message, key: `receipt-copy:${found.gift.id}:${now.getTime()}` });
  if (viewer.id !== found.gift.donorId) {
    await db.batch([
      auditInsert(db, staffActor(ctx), {
        action: 'donation.receipt_resent',
        targetType: 'donation',
        targetId: found.gift.id,
        organizationId: found.organizationId,
      }),
    ]);
  }
  return { sent_to: facts.donor.email, sent_at: now.toISOString() };
}
