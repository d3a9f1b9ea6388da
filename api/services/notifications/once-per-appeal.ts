import { eq, isNull, notLike, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { appealNotifications, users } from '../../../db/schema';
import { logMailFailure, type MailMessage, type Mailer } from '../mail/mailer';

/**
 * What the once-per-appeal emails share (the ended summaries, decisions 056 and 069, the "now open"
 * notices, 062 and 067, and the campaign taken down, 066): who can be written to, a stored day read as a day, and the claim that makes each
 * email go once per appeal, ever.
 */

/** The claim columns of appeal_notifications, one per once-per-appeal email. */
export type OnceColumn = 'endedSentAt' | 'openedSentAt' | 'campaignDownSentAt';

/** A stored date when it looks like a calendar day, else null; the caller's rule re-checks it. */
export const dayOrNull = (column: SQLWrapper) =>
  sql`case when ${column} glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' then ${column} end`;

/** Nobody to write to: an erased account or a placeholder address (no creator is the caller's inner join). */
export const creatorCanBeWritten = () => [
  isNull(users.erasedAt),
  sql`${users.email} <> ''`,
  notLike(users.email, '%.invalid'),
];

/**
 * Claims the appeal's email (the column null → now, creating the row if needed), then writes it
 * under `key`. True when this call sent it; false when another run had claimed it or the outbox
 * already held it. When the write fails the claim is freed: written but refused by the provider,
 * the mail retry sends it and the next run's send is a duplicate that keeps the claim; not written,
 * the next run writes it. A failure is logged as `failure`, never thrown: one appeal does not stop the run.
 */
export async function sendOncePerAppeal(
  db: Db,
  mailer: Mailer,
  email: { appealId: string; column: OnceColumn; key: string; now: Date; failure: string },
  message: () => MailMessage | Promise<MailMessage>,
): Promise<boolean> {
  const { appealId, column, now } = email;
  try {
    if (!(await claimOnce(db, appealId, column, now))) return false;
    try {
      const result = await mailer.send({ ...(await message()), key: email.key });
      return !result.duplicate;
    } catch (err) {
      await db
        .update(appealNotifications)
        .set({ [column]: null })
        .where(eq(appealNotifications.appealId, appealId));
      throw err;
    }
  } catch (err) {
    logMailFailure(email.failure, err, { appeal_id: appealId });
    return false;
  }
}

/** Claims one of the appeal's once-per-appeal emails (null → now, creating its row if needed); true when this call won it. */
export async function claimOnce(db: Db, appealId: string, column: OnceColumn, now: Date): Promise<boolean> {
  const claimed = await db
    .insert(appealNotifications)
    .values({ appealId, [column]: now })
    .onConflictDoUpdate({
      target: appealNotifications.appealId,
      set: { [column]: now },
      setWhere: isNull(appealNotifications[column]),
    })
    .returning({ id: appealNotifications.appealId });
  return claimed.length > 0;
}
