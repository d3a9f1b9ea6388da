import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { campaignTotals, campaigns, organizations, users } from '../../../db/schema';
import { logMailFailure, type Mailer } from '../mail/mailer';
import { appealTakenDownEmail, charityContact, fundraiserMailContext } from './fundraiser-mail';
import { creatorCanBeWritten } from './once-per-appeal';
import { appealForMailColumns, monthlyGiftsSetUpColumn } from './appeal-for-mail';

/**
 * "Your appeal is off the site" (docs/decisions/064): when the charity sets a fundraiser's appeal
 * back to a draft or deletes it, its fundraiser is told at once, with what it raised and whom to
 * ask. Under the outbox key `appeal-taken-down:<id>:<status>`: a second move to the same status
 * while the row is kept (30 days) sends nothing more.
 */

export type TakenDownStatus = 'draft' | 'deleted';

export const appealTakenDownKey = (appealId: string, status: TakenDownStatus) =>
  `appeal-taken-down:${appealId}:${status}`;

export type TakenDownOptions = { origin: string; now: Date; supportEmail: string; siteName?: string };

/** Tells the appeal's creator it was taken off the site; false when nobody was told (no address, told already). Never throws. */
export async function emailTakenDownAppeal(
  db: Db,
  mailer: Mailer,
  appealId: string,
  status: TakenDownStatus,
  options: TakenDownOptions,
): Promise<boolean> {
  try {
    const [row] = await db
      .select({
        ...appealForMailColumns(),
        status: campaigns.status,
        organizationEmail: organizations.email,
        monthlyGifts: monthlyGiftsSetUpColumn(),
      })
      .from(campaigns)
      .innerJoin(users, eq(users.id, campaigns.createdBy))
      .leftJoin(organizations, eq(organizations.id, campaigns.organizationId))
      .leftJoin(campaignTotals, eq(campaignTotals.campaignId, campaigns.id))
      .where(and(eq(campaigns.id, appealId), ...creatorCanBeWritten()))
      .limit(1);
    // Approved again before this ran (or never stored): nothing to say.
    if (!row || row.status !== status) return false;
    const context = fundraiserMailContext(row, options.origin, options.siteName);
    const message = appealTakenDownEmail(context, {
      status,
      contact: charityContact(row.organizationEmail, options.supportEmail),
      monthlyGifts: Number(row.monthlyGifts),
    });
    const result = await mailer.send({ ...message, key: appealTakenDownKey(row.id, status) });
    return !result.duplicate;
  } catch (err) {
    // The status change is stored either way; a lost notice is logged, never the reason a save fails.
    logMailFailure('appeal taken down email failed', err, { appeal_id: appealId });
    return false;
  }
}
