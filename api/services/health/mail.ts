import { and, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { outbox } from '../../../db/schema';
import { DAY_MS, isoOrNull } from '../../../domain/dates';
import type { ServiceContext } from '../../lib/service-context';
import { MAIL_RETRY } from '../mail/retry';

/**
 * What an admin needs to know about email delivery (docs/decisions/057): receipts still on their way
 * (a busy or unreachable provider), the ones the retry gave up on (somebody should look: those donors
 * have no receipt), and how many went in the last day. Reads the unsent keyed rows through their
 * partial index, and the last day's rows.
 */
export async function mailHealth({ db, config, now }: Pick<ServiceContext, 'db' | 'config' | 'now'>) {
  const giveUpBefore = now.getTime() - MAIL_RETRY.giveUpAfterMs;
  const [unsent] = await db
    .select({
      waiting: sql<number>`sum(case when ${outbox.attempts} < ${MAIL_RETRY.maxAttempts} and ${outbox.createdAt} > ${giveUpBefore} then 1 else 0 end)`,
      oldestWaiting: sql<
        number | null
      >`min(case when ${outbox.attempts} < ${MAIL_RETRY.maxAttempts} and ${outbox.createdAt} > ${giveUpBefore} then ${outbox.createdAt} end)`,
      givenUp: sql<number>`sum(case when ${outbox.attempts} >= ${MAIL_RETRY.maxAttempts} or ${outbox.createdAt} <= ${giveUpBefore} then 1 else 0 end)`,
    })
    .from(outbox)
    .where(and(isNull(outbox.sentAt), isNotNull(outbox.key)));
  const [sent] = await db
    .select({ count: sql<number>`count(*)` })
    .from(outbox)
    .where(and(gt(outbox.createdAt, new Date(now.getTime() - DAY_MS)), isNotNull(outbox.sentAt)));
  return {
    waiting: Number(unsent?.waiting ?? 0),
    oldest_waiting_at: unsent?.oldestWaiting == null ? null : isoOrNull(Number(unsent.oldestWaiting)),
    given_up: Number(unsent?.givenUp ?? 0),
    sent_last_day: Number(sent?.count ?? 0),
    provider: Boolean(config.mailApiKey),
  };
}
