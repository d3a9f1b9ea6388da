import { and, eq, gte, inArray, isNull, notLike, or, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { toShortId } from '../../../domain/ids';
import { MONTHLY_GIFT_SET_UP } from '../../../domain/monthly-gifts';
import { campaigns, monthlyGifts, users } from '../../../db/schema';
import type { AppConfig } from '../../lib/types';
import { causeOf } from '../mail/facts';
import { itemBackEmail, itemDownEmail } from '../mail/item-down';
import { logMailFailure, type Mailer } from '../mail/mailer';
import { cancelLinkUrl } from '../monthly-gifts/link-tokens';
import { CAMPAIGN_DOWN_WINDOW_DAYS } from './appeal-campaign-down';

/**
 * "The appeal your monthly gift supports is no longer on the site" (docs/decisions/070). When an
 * appeal or a campaign is set to draft or deleted, by the charity or by its own fundraiser, the
 * donors whose monthly gifts support it are told, in the five-minute run: the gift goes on to the
 * charity, and a signed link stops it without signing in. Each gift is claimed first
 * (monthly_gifts.item_down_told_at, null → now), and the email goes under
 * `monthly-item-down:<gift>:<take-down time>`. Once the item is back on the site, a donor whose gift
 * is still set up is told that too (`monthly-item-back:<gift>:<claim time>`), and the claim is
 * released, so a later take-down is told as well.
 */

const TOLD_PER_RUN = 200;

export type ItemDownOptions = { db: Db; mailer: Mailer; config: AppConfig; origin: string; now: Date };

export async function emailMonthlyDonorsItemDown(
  options: ItemDownOptions,
): Promise<{ sent: number; released: number; back: number }> {
  const { db, now } = options;
  const { released, back } = await tellItemsBack(options);
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
        const { cause, facts } = await giftFacts(mail, row);
        const message = itemDownEmail({
          ...facts,
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
  return { sent, released, back };
}

type GiftRow = {
  giftId: string;
  campaignId: string;
  appealId: string | null;
  amount: number;
  email: string;
  firstName: string | null;
};

/** What both emails say of a gift: its donor, charity, amount, and the appeal or campaign it supports. */
async function giftFacts(mail: Parameters<typeof causeOf>[0], row: GiftRow) {
  const cause = await causeOf(mail, row.campaignId, row.appealId);
  const facts = {
    subscriptionId: row.giftId,
    donor: { email: row.email, firstName: row.firstName || null },
    charity: cause.charity,
    amount: row.amount,
    item: row.appealId
      ? { kind: 'appeal' as const, title: cause.appealTitle ?? cause.campaignTitle }
      : { kind: 'campaign' as const, title: cause.campaignTitle },
  };
  return { cause, facts };
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
 * The told gifts whose campaign (and appeal, if any) are approved again, with their donors; found by
 * monthly_gifts_item_down_idx, so it is one indexed look when none are told.
 */
export function itemsBackQuery(db: Db) {
  const approved = (id: SQLWrapper) =>
    sql`(select ${campaigns.status} from ${campaigns} where ${campaigns.id} = ${id}) = 'approved'`;
  return db
    .select({
      giftId: monthlyGifts.id,
      toldAt: monthlyGifts.itemDownToldAt,
      status: monthlyGifts.status,
      campaignId: monthlyGifts.campaignId,
      appealId: monthlyGifts.appealId,
      amount: monthlyGifts.amount,
      email: users.email,
      firstName: users.firstName,
      erasedAt: users.erasedAt,
    })
    .from(monthlyGifts)
    .innerJoin(users, eq(users.id, monthlyGifts.donorId))
    .where(
      and(
        // A range, not "is not null", which SQLite's planner does not take to an index (no statistics).
        sql`${monthlyGifts.itemDownToldAt} > 0`,
        approved(monthlyGifts.campaignId),
        or(isNull(monthlyGifts.appealId), approved(monthlyGifts.appealId)),
      ),
    )
    .limit(TOLD_PER_RUN);
}

/**
 * Each told gift whose item is back: its donor is told (while the gift is still set up and the donor
 * can be written to), then the claim is released, only if it is the one told. An email that could not
 * be written keeps the claim, so the next run tries again; the outbox key keeps it to one.
 */
async function tellItemsBack(options: ItemDownOptions): Promise<{ released: number; back: number }> {
  const { db } = options;
  const mail = { db, config: options.config, origin: options.origin };
  let released = 0;
  let back = 0;
  for (const row of await itemsBackQuery(db)) {
    if (!row.toldAt) continue;
    try {
      const writable = !row.erasedAt && row.email !== '' && !row.email.endsWith('.invalid');
      if (writable && (MONTHLY_GIFT_SET_UP as readonly string[]).includes(row.status)) {
        const { facts } = await giftFacts(mail, row);
        const result = await options.mailer.send(
          itemBackEmail({
            ...facts,
            version: String(row.toldAt.getTime()),
            itemUrl: `${options.origin}/${row.appealId ? 'appeals' : 'campaigns'}/${toShortId(row.appealId ?? row.campaignId)}`,
            manageUrl: `${options.origin}/dashboard/donations/me`,
          }),
        );
        if (!result.duplicate) back += 1;
      }
      const freed = await db
        .update(monthlyGifts)
        .set({ itemDownToldAt: null })
        .where(and(eq(monthlyGifts.id, row.giftId), eq(monthlyGifts.itemDownToldAt, row.toldAt)))
        .returning({ id: monthlyGifts.id });
      released += freed.length;
    } catch (err) {
      logMailFailure('monthly item back email failed', err, { subscription_id: row.giftId });
    }
  }
  return { released, back };
}
