import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { checkoutDetails, giftAidDeclarations, marketingConsents, users } from '../../../db/schema';
import { MARKETING_CONSENT_WORDING } from '../../../domain';
import type { Statement } from './record';

/**
 * The donation box's personal choices travel with the pending gift (checkout_details, and the Gift
 * Aid declaration's pending_donation_id) and reach the account only when the payment succeeds:
 * anyone can type someone else's email into the box, and an unpaid checkout must change nothing.
 */

export type CheckoutPersonal = {
  firstName: string | null;
  lastName: string | null;
  marketingConsent: boolean;
  /** The signed-in owner's own checkout, or one that created the account. */
  consentToAccount: boolean;
};

export async function saveCheckoutDetails(db: Db, donationId: string, personal: CheckoutPersonal): Promise<void> {
  // The owner's own checkout is kept even with nothing else to say: it lets its declaration follow theirs.
  if (!personal.firstName && !personal.lastName && !personal.marketingConsent && !personal.consentToAccount) return;
  await db
    .insert(checkoutDetails)
    .values({ donationId, ...personal })
    .onConflictDoNothing({ target: checkoutDetails.donationId });
}

/**
 * The statements a paid gift adds to its recording batch (each guarded like the rest of it):
 * its Gift Aid declaration becomes the donor's and the name fills an account that has none, both
 * only in the owner's own checkout (`consent_to_account`); so is the consent, and once.
 */
export function applyCheckoutDetails(
  db: Db,
  guard: SQL,
  donationId: string,
  donorId: string,
  now = Date.now(),
): Statement[] {
  const details = sql`(select 1 from checkout_details cd where cd.donation_id = ${donationId} and cd.applied_at is null`;
  const madeWithGift = sql`(select n.id from gift_aid_declarations n where n.pending_donation_id = ${donationId})`;
  return [
    // The declaration made with this gift is the donor's current one to that charity: the ones it
    // follows (the same charity, still in force) point at it, as an address change's versions do,
    // so My Info shows one declaration in force with the address just typed. Gifts given under
    // the older ones keep them. Only in the account owner's own checkout (signed in, or the one that
    // made the account): anyone can type an email into the box, and a stranger's details must not
    // replace the donor's. First, while the new one is still found by its pending gift.
    db
      .update(giftAidDeclarations)
      .set({ replacedBy: madeWithGift })
      .where(
        and(
          eq(giftAidDeclarations.donorId, donorId),
          isNull(giftAidDeclarations.pendingDonationId),
          isNull(giftAidDeclarations.cancelledAt),
          isNull(giftAidDeclarations.replacedBy),
          sql`${giftAidDeclarations.organizationId} is (select n.organization_id from gift_aid_declarations n where n.pending_donation_id = ${donationId})`,
          sql`exists ${madeWithGift}`,
          sql`exists (select 1 from checkout_details cd where cd.donation_id = ${donationId} and cd.consent_to_account = 1)`,
          guard,
        ),
      ),
    // The declaration becomes the account's only in its owner's own checkout. A guest's stays held
    // with its gift (and the renewals that name it): anyone can type an email into the box, and a
    // stranger's name and address must not become the declaration the office or a claim finds for
    // the account's other gifts (decision 077).
    db
      .update(giftAidDeclarations)
      .set({ pendingDonationId: null })
      .where(
        and(
          eq(giftAidDeclarations.pendingDonationId, donationId),
          sql`exists (select 1 from checkout_details cd where cd.donation_id = ${donationId} and cd.consent_to_account = 1)`,
          guard,
        ),
      ),
    db
      .update(users)
      .set({
        firstName: sql`coalesce((select first_name from checkout_details where donation_id = ${donationId}), '')`,
        lastName: sql`coalesce((select last_name from checkout_details where donation_id = ${donationId}), '')`,
        updatedAt: new Date(now),
      })
      .where(
        and(
          eq(users.id, donorId),
          eq(users.firstName, ''),
          eq(users.lastName, ''),
          isNull(users.erasedAt),
          // Only the owner's own checkout names the account: a guest may have typed a stranger's email.
          sql`exists ${details} and cd.first_name is not null and cd.consent_to_account = 1)`,
          guard,
        ),
      ),
    db.insert(marketingConsents).select(
      sql`select ${crypto.randomUUID()}, u.id, u.email, ${MARKETING_CONSENT_WORDING}, 'donation_box', ${now}, null, ${now}
        from users u where u.id = ${donorId} and u.erased_at is null
        and exists ${details} and cd.marketing_consent = 1 and cd.consent_to_account = 1)
        and not exists (select 1 from marketing_consents where user_id = u.id and withdrawn_at is null) and ${guard}`,
    ),
    db
      .update(checkoutDetails)
      .set({ appliedAt: new Date(now) })
      .where(and(eq(checkoutDetails.donationId, donationId), isNull(checkoutDetails.appliedAt), guard)),
  ];
}

/** The name typed for one gift (its message and receipt use it before the account's). */
export async function checkoutNameOf(
  db: Db,
  donationId: string,
): Promise<{ firstName: string | null; lastName: string | null } | null> {
  const [row] = await db
    .select({ firstName: checkoutDetails.firstName, lastName: checkoutDetails.lastName })
    .from(checkoutDetails)
    .where(eq(checkoutDetails.donationId, donationId))
    .limit(1);
  return row ?? null;
}
