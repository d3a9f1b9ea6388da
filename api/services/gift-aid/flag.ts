import { sql } from 'drizzle-orm';

/**
 * The value of donations.gift_aid for a gift recorded from a payment event: 1 only when its
 * declaration exists and was not cancelled by the gift's date, so the flag (and every total that
 * sums it) means "eligible at the gift's date" even for a monthly renewal after a cancellation.
 */
export function giftAidEligibleAt(declarationId: string | null, date: number) {
  if (!declarationId) return sql`0`;
  // A declaration cancelled as of the moment it was made (an oral one within its 30 days) never counted.
  return sql`(select count(*) from gift_aid_declarations where id = ${declarationId}
    and (cancelled_at is null or (cancelled_at > ${date} and cancelled_at > declared_at)))`;
}
