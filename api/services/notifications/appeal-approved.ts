import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { campaignTotals, campaigns, users } from '../../../db/schema';
import { hasEnded, lastGivingDay } from '../../../domain/giving-ends';
import { firstGivingDay, notOpenYet } from '../../../domain/giving-opens';
import { logMailFailure, type Mailer } from '../mail/mailer';
import { appealApprovedEmail, fundraiserMailContext } from './fundraiser-mail';
import { claimOnce, creatorCanBeWritten } from './once-per-appeal';
import { appealForMailColumns } from './appeal-for-mail';

/**
 * "Your appeal is approved" (docs/decisions/063): when the charity approves an appeal it held for
 * review (an organization's "Appeals need approval"), its fundraiser is told at once, with the link
 * to share, or the day it opens when its start date is still ahead (the "now open" email of 062
 * follows that morning). Sent when an approval opens giving, so that email is claimed here and
 * does not say the same thing again. Under the outbox key `appeal-approved:<id>`: a repeated
 * approval while the row is kept (30 days) sends nothing more.
 */

export const appealApprovedKey = (appealId: string) => `appeal-approved:${appealId}`;

export type ApprovedOptions = { origin: string; now: Date; siteName?: string };

/** Tells the appeal's creator it was approved; false when nobody was told (no address, not open to gifts, told already). Never throws. */
export async function emailApprovedAppeal(
  db: Db,
  mailer: Mailer,
  appealId: string,
  options: ApprovedOptions,
): Promise<boolean> {
  const { now } = options;
  try {
    const parent = alias(campaigns, 'parent');
    const [row] = await db
      .select({
        ...appealForMailColumns(),
        status: campaigns.status,
        dateFrom: campaigns.dateFrom,
        dateTo: campaigns.dateTo,
        campaignStatus: parent.status,
        campaignDateFrom: parent.dateFrom,
        campaignDateTo: parent.dateTo,
      })
      .from(campaigns)
      .innerJoin(parent, eq(parent.id, campaigns.campaignId))
      .innerJoin(users, eq(users.id, campaigns.createdBy))
      .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
      .where(and(eq(campaigns.id, appealId), ...creatorCanBeWritten()))
      .limit(1);
    // Gifts need both approved, and an appeal past its last day takes none: nothing to share.
    if (!row) return false;
    if (row.status !== 'approved' || row.campaignStatus !== 'approved') return false;
    if (hasEnded(lastGivingDay(row.dateTo, row.campaignDateTo), now)) return false;
    const firstDay = firstGivingDay(row.dateFrom, row.campaignDateFrom);
    const opensOn = firstDay && notOpenYet(firstDay, now) ? firstDay : null;
    const context = fundraiserMailContext(row, options.origin, options.siteName);
    const message = appealApprovedEmail(context, { opensOn });
    const result = await mailer.send({ ...message, key: appealApprovedKey(row.id) });
    // Open from now: this email is the "now open" one; the scheduled run must not send that too.
    if (!opensOn) await claimOnce(db, row.id, 'openedSentAt', now);
    return !result.duplicate;
  } catch (err) {
    // The approval is stored either way; a lost notice is logged, never the reason a save fails.
    logMailFailure('appeal approved email failed', err, { appeal_id: appealId });
    return false;
  }
}
