import { and, eq, gte, inArray, isNull, notLike, or, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { MONTHLY_GIFT_SET_UP } from '../../../domain/monthly-gifts';
import { campaigns, monthlyGifts, users } from '../../../db/schema';
import type { AppConfig } from '../../lib/types';
import { causeOf } from '../mail/facts';
import { itemDownEmail } from '../mail/item-down';
import { logMailFailure, type Mailer } from '../mail/mailer';
import { cancelLinkUrl } from '../monthly-gifts/link-tokens';
import { CAMPAIGN_DOWN_WINDOW_DAYS } from './appeal-campaign-down';

/**
 * "The appeal your monthly gift supports is no longer on the site" (docs/decisions/070). When an
 * appeal or a campaign is set to draft or deleted, by the charity or by its own fundraiser, the
 * donors whose monthly gifts support it are told, in the five-minute run: the gift goes on to the
 * charity, and a signed link stops it without signing in. Each gift is claimed first
 * (monthly_gifts.item_down_told_at, null → now), and the email goes under
 * `monthly-item-down:<gift>:<take-down time>`; the claim is released once the item is back on the
 * site, so a later take-down is told too.
 */

const TOLD_PER_RUN = 200;

export type ItemDownOptions = { db: Db; mailer: Mailer; config: AppConfig; origin: string; now: Date };

export async function emailMonthlyDonorsItemDown(
  options: ItemDownOptions,
): Promise<{ sent: number; released: number }> {
  const { db, now } = options;
  const released = (await releaseItemsBackQuery(db)).length;
  const since = new Date(now.getTime() - CAMPAIGN_DOWN_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  const rows = await takenDownGifts(db, since);

  const mail = { db, config: options.config, origin: options.origin };
  let sent = 0;
  const seen = new Set<string>();
  for (const row of rows) {
    // A gift to an appeal whose campaign went down too is found twice: told once.
    if (seen.has(row.giftId)) continue;
    seen.add(row.giftId);
    try {
      if (!(await claim(db, row.giftId, now))) continue;
      try {
        const cause = await causeOf(mail, row.campaignId, row.appealId);
        const message = itemDownEmail({
          subscriptionId: row.giftId,
          donor: { email: row.email, firstName: row.firstName || null },
          charity: cause.charity,
          amount: row.amount,
          item: row.appealId
            ? { kind: 'appeal', title: cause.appealTitle ?? cause.campaignTitle }
            : { kind: 'campaign', title: cause.campaignTitle },
          // Its appeal is live; its campaign is what went.
          campaignTitle: row.appealId && row.downId !== row.appealId ? cause.campaignTitle : null,
          version: String(row.downAt.getTime()),
          cancelUrl: await cancelLinkUrl(options.config.authSecret, options.origin, row.giftId, now),
          manageUrl: `${options.origin}/dashboard/donations/me`,
        });
        const result = await options.mailer.send(message);
        if (!result.duplicate) sent += 1;
      } catch (err) {
        // Not written: free the claim so the next run writes it (the key keeps it to one email).
        await db.update(monthlyGifts).set({ itemDownToldAt: null }).where(eq(monthlyGifts.id, row.giftId));
        throw err;
      }
    } catch (err) {
      logMailFailure('monthly item down email failed', err, { subscription_id: row.giftId });
    }
  }
  return { sent, released };
}

/**
 * The monthly gifts to items taken off the site since `since`, still set up and not yet told, with
 * their donors: the items through campaigns_status_updated_idx, then their gifts by campaign
 * (monthly_gifts_campaign_idx), a campaign's own and its appeals', or one appeal's.
 */
export function takenDownGifts(db: Db, since: Date) {
  const down = alias(campaigns, 'down');
  return db
    .select({
      giftId: monthlyGifts.id,
      campaignId: monthlyGifts.campaignId,
      appealId: monthlyGifts.appealId,
      amount: monthlyGifts.amount,
      email: users.email,
      firstName: users.firstName,
      downId: down.id,
      downAt: down.updatedAt,
    })
    .from(down)
    .innerJoin(
      monthlyGifts,
      and(
        eq(monthlyGifts.campaignId, sql`coalesce(${down.campaignId}, ${down.id})`),
        or(isNull(down.campaignId), eq(monthlyGifts.appealId, down.id)),
      ),
    )
    .innerJoin(users, eq(users.id, monthlyGifts.donorId))
    .where(
      and(
        inArray(down.status, ['draft', 'deleted']),
        gte(down.updatedAt, since),
        inArray(monthlyGifts.status, [...MONTHLY_GIFT_SET_UP]),
        isNull(monthlyGifts.itemDownToldAt),
        isNull(users.erasedAt),
        sql`${users.email} <> ''`,
        notLike(users.email, '%.invalid'),
      ),
    )
    .limit(TOLD_PER_RUN);
}

async function claim(db: Db, giftId: string, now: Date): Promise<boolean> {
  const claimed = await db
    .update(monthlyGifts)
    .set({ itemDownToldAt: now })
    .where(and(eq(monthlyGifts.id, giftId), isNull(monthlyGifts.itemDownToldAt)))
    .returning({ id: monthlyGifts.id });
  return claimed.length > 0;
}

/**
 * Frees the claims of gifts whose campaign (and appeal, if any) are approved again; the told ones
 * are found by monthly_gifts_item_down_idx, so it is one indexed look when none are told.
 */
export function releaseItemsBackQuery(db: Db) {
  const approved = (id: SQLWrapper) =>
    sql`(select ${campaigns.status} from ${campaigns} where ${campaigns.id} = ${id}) = 'approved'`;
  return db
    .update(monthlyGifts)
    .set({ itemDownToldAt: null })
    .where(
      and(
        // A range, not "is not null", which SQLite's planner does not take to an index (no statistics).
        sql`${monthlyGifts.itemDownToldAt} > 0`,
        approved(monthlyGifts.campaignId),
        or(isNull(monthlyGifts.appealId), approved(monthlyGifts.appealId)),
      ),
    )
    .returning({ id: monthlyGifts.id });
}
