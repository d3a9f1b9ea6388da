import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { chunks } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import {
  checkoutDetails,
  donations,
  erasureRequests,
  loginCodes,
  marketingConsents,
  monthlyGifts,
  organizationAdmins,
  sessions,
  supportRequests,
  users,
} from '../../../db/schema';
import { ERASURE_CODE_MINUTES } from '../../../domain';
import { HttpError, badRequest } from '../../lib/errors';
import type { AuthUser } from '../../lib/types';
import { constantTimeEqual, generateCode, hashCode, MAX_CODE_ATTEMPTS } from '../auth/login-codes';
import { charityForOrganization } from '../organizations/charity';
import type { Statement } from '../donations/record';
import { erasureCodeEmail } from '../mail/erasure-code';
import { createMailer } from '../mail/mailer';
import { cancelMonthlyGift, type ActionContext } from '../monthly-gifts/donor-actions';
import type { ErasureDto } from '../../schemas/consent';
import { isDonor } from '../../lib/policy';
import type { ServiceContext } from '../../lib/service-context';

/** A user's profile fields: what erasure clears, and what an organization admin does not see. */
export const BLANK_PROFILE = {
  phone: null,
  avatar: null,
  address: null,
  city: null,
  province: null,
  postalCode: null,
  country: null,
} as const;

/**
 * A donor deletes their account (UK GDPR art. 17), confirmed by an emailed code. We blank the
 * person (name, email, phone, address, photo, sessions, consent contact data), cancel running
 * monthly gifts, and keep their donations as anonymous gifts in the totals. Gift Aid declarations
 * and claims stay, untouched, for HMRC's six years (docs/decisions/020).
 */

type Ctx = ActionContext & Pick<ServiceContext, 'config'>;

const codeSubject = (userId: string) => `erasure:${userId}`;

export async function requestErasure(ctx: Ctx, user: AuthUser, now = new Date()) {
  if (!isDonor(user)) {
    throw new HttpError(
      409,
      'Administrator accounts cannot delete themselves here. Ask another administrator to remove your access first.',
    );
  }
  const code = generateCode();
  const expiresAt = new Date(now.getTime() + ERASURE_CODE_MINUTES * 60_000);
  // A new request replaces any earlier one that was never confirmed.
  await ctx.db.batch([
    ctx.db
      .update(erasureRequests)
      .set({ outcome: 'expired', detail: 'Replaced by a newer request' })
      .where(and(eq(erasureRequests.userId, user.id), eq(erasureRequests.outcome, 'pending'))),
    ctx.db.insert(erasureRequests).values({
      userId: user.id,
      codeHash: await hashCode(ctx.config.authSecret, codeSubject(user.id), code),
      expiresAt,
      requestedAt: now,
    }),
  ]);
  const charity = await charityForOrganization(ctx.db, ctx.config, null);
  await createMailer(ctx.db, ctx.config).send(
    erasureCodeEmail({
      to: user.email,
      firstName: user.firstName || null,
      code,
      minutes: ERASURE_CODE_MINUTES,
      charity,
    }),
  );
  return { sent: true as const, expires_at: expiresAt.toISOString() };
}

const invalidCode = () => badRequest('code: that code is not right or has expired; ask for a new one');

export async function confirmErasure(ctx: Ctx, user: AuthUser, code: string, now = new Date()) {
  const [request] = await ctx.db
    .select()
    .from(erasureRequests)
    .where(and(eq(erasureRequests.userId, user.id), eq(erasureRequests.outcome, 'pending')))
    .orderBy(desc(erasureRequests.requestedAt))
    .limit(1);
  if (!request || request.expiresAt.getTime() <= now.getTime() || request.attempts >= MAX_CODE_ATTEMPTS)
    throw invalidCode();
  const expected = await hashCode(ctx.config.authSecret, codeSubject(user.id), code);
  if (!constantTimeEqual(expected, request.codeHash)) {
    await ctx.db
      .update(erasureRequests)
      .set({ attempts: sql`${erasureRequests.attempts} + 1` })
      .where(eq(erasureRequests.id, request.id));
    throw invalidCode();
  }

  // Stop the money first: if Stripe does not answer, nothing is erased and the donor tries again.
  const running = await ctx.db
    .select()
    .from(monthlyGifts)
    .where(
      and(
        eq(monthlyGifts.donorId, user.id),
        inArray(monthlyGifts.status, ['active', 'paused', 'past_due', 'incomplete']),
      ),
    );
  for (const gift of running) {
    try {
      await cancelMonthlyGift({ ...ctx, mail: undefined }, gift, 'erasure');
    } catch (err) {
      await ctx.db
        .update(erasureRequests)
        .set({ detail: 'A monthly gift could not be cancelled; the donor was asked to try again' })
        .where(eq(erasureRequests.id, request.id));
      if (err instanceof HttpError && err.status === 409) continue;
      throw new HttpError(
        502,
        'We could not cancel your monthly gift with our payment provider, so nothing has been deleted yet. Please try again in a few minutes.',
      );
    }
  }

  const [before] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, user.id)).limit(1);
  const statements: Statement[] = [
    ctx.db
      .update(users)
      .set({
        // The row stays so donations keep their donor and totals stay whole; the address is unusable.
        email: `erased-${user.id}@erased.invalid`,
        firstName: '',
        lastName: '',
        ...BLANK_PROFILE,
        stripeCustomerId: null,
        erasedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, user.id)),
    ctx.db.delete(sessions).where(eq(sessions.userId, user.id)),
    ctx.db.delete(organizationAdmins).where(eq(organizationAdmins.userId, user.id)),
    // Names typed in the donation box go with the account's.
    ctx.db
      .update(checkoutDetails)
      .set({ firstName: null, lastName: null })
      .where(
        inArray(
          checkoutDetails.donationId,
          ctx.db.select({ id: donations.id }).from(donations).where(eq(donations.donorId, user.id)),
        ),
      ),
    // Contact Support messages hold the name, address and whatever the donor wrote.
    ctx.db.delete(supportRequests).where(eq(supportRequests.userId, user.id)),
    ctx.db
      .update(marketingConsents)
      .set({ email: null, withdrawnAt: sql`coalesce(${marketingConsents.withdrawnAt}, ${now.getTime()})` })
      .where(eq(marketingConsents.userId, user.id)),
    ctx.db
      .update(erasureRequests)
      .set({
        outcome: 'completed',
        completedAt: now,
        detail: `Name, contact details, sign-ins and consent contact data removed; ${running.length} monthly gift${running.length === 1 ? '' : 's'} cancelled; donations kept anonymously; Gift Aid records kept for HMRC`,
      })
      .where(eq(erasureRequests.id, request.id)),
  ];
  if (before) statements.push(ctx.db.delete(loginCodes).where(eq(loginCodes.email, before.email)));
  await ctx.db.batch(statements as [Statement, ...Statement[]]);
  return { erased: true as const };
}

/** The latest request per donor, for the admin's donor list. */
export async function latestErasures(db: Db, userIds: string[], now = new Date()): Promise<Map<string, ErasureDto>> {
  const out = new Map<string, ErasureDto>();
  if (!userIds.length) return out;
  // D1 takes at most 100 bound parameters: a 1000-donor page is read in pieces.
  const pieces = await Promise.all(
    chunks(userIds).map((ids) =>
      db
        .select()
        .from(erasureRequests)
        .where(inArray(erasureRequests.userId, ids))
        .orderBy(erasureRequests.requestedAt),
    ),
  );
  const rows = pieces.flat().sort((a, b) => a.requestedAt.getTime() - b.requestedAt.getTime());
  for (const r of rows) {
    const lapsed = r.outcome === 'pending' && r.expiresAt.getTime() <= now.getTime();
    out.set(r.userId, {
      outcome: lapsed ? 'expired' : r.outcome,
      requested_at: r.requestedAt.toISOString(),
      completed_at: r.completedAt?.toISOString() ?? null,
      detail: lapsed ? 'The donor did not confirm the code in time' : r.detail,
    });
  }
  return out;
}
