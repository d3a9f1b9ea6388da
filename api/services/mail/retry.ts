import { and, asc, eq, gt, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { outbox } from '../../../db/schema';
import type { AppConfig } from '../../lib/config';
import { errorSummary, logLine } from '../../middlewares/logger';
import { createMailer, MailProviderBusy, type OutboxMessage, resendBatch } from './mailer';

const MINUTE = 60 * 1000;

/**
 * The scheduled retry of emails the provider did not take (docs/decisions/057). A receipt's row is
 * written with the gift and sent after the answer; when the provider refuses it (Resend allows a few
 * requests a second per team, a telethon sends twenty receipts a second) or is down, the row stays
 * unsent and this sends it later, at the provider's pace.
 */
export const MAIL_RETRY = {
  /** Younger rows may still be on their way from the request that wrote them. */
  afterMs: 2 * MINUTE,
  /** An email this old is news to nobody: left unsent, and logged once when given up. */
  giveUpAfterMs: 3 * 24 * 60 * MINUTE,
  /** Sends tried per row, the webhook's own first one not counted. */
  maxAttempts: 6,
  /** A claimed row is left to its run for this long, so overlapping runs never send it twice. */
  claimMs: 10 * MINUTE,
  /** Rows sent per run at the most: with `perSecond`, a run spends at most ~2 minutes. */
  perRun: 240,
  /** Resend's default is 2-5 requests a second per team; the rest of the site sends too. */
  perSecond: 2,
} as const;

export type MailRetryCounts = { mail_retried: number; mail_retry_failed: number; mail_retry_deferred: boolean };

type RetryOptions = {
  now: Date;
  /** Waits between sends (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
  perRun?: number;
  /** The mailer's clock, for the provider's Retry-After pause (tests move it). */
  clock?: () => number;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends the keyed messages (receipts, notices, confirmations) still unsent after MAIL_RETRY.afterMs,
 * oldest first. Each row is claimed by a conditional update before it is sent; a 429 ends the run
 * (the next one continues). Sign-in codes carry no key and are never sent again: their rows hold
 * no code, and the visitor asks for a new one. Without a provider (development) there is nothing to retry.
 */
export async function retryUnsentMail(db: Db, config: AppConfig, options: RetryOptions): Promise<MailRetryCounts> {
  const counts: MailRetryCounts = { mail_retried: 0, mail_retry_failed: 0, mail_retry_deferred: false };
  if (!config.mailApiKey) return counts;
  const { now } = options;
  const sleep = options.sleep ?? defaultSleep;
  const mailer = createMailer(db, config, { fetch: options.fetch, clock: options.clock });
  const due = await db
    .select({ id: outbox.id, attempts: outbox.attempts, batchKey: outbox.batchKey })
    .from(outbox)
    .where(
      and(
        isNull(outbox.sentAt),
        sql`${outbox.key} is not null`,
        gt(outbox.createdAt, new Date(now.getTime() - MAIL_RETRY.giveUpAfterMs)),
        lte(outbox.createdAt, new Date(now.getTime() - MAIL_RETRY.afterMs)),
        lt(outbox.attempts, MAIL_RETRY.maxAttempts),
        or(isNull(outbox.lastAttemptAt), lt(outbox.lastAttemptAt, new Date(now.getTime() - MAIL_RETRY.claimMs))),
      ),
    )
    .orderBy(asc(outbox.createdAt))
    .limit(options.perRun ?? MAIL_RETRY.perRun);
  const batchesDone = new Set<string>();
  for (const [i, row] of due.entries()) {
    if (row.batchKey && batchesDone.has(row.batchKey)) continue;
    if (i > 0) await sleep(1000 / MAIL_RETRY.perSecond);
    // A row sent in a batch whose answer was lost goes again with its whole batch, under its key.
    if (row.batchKey) batchesDone.add(row.batchKey);
    const claimed = await claim(db, row.batchKey ? eq(outbox.batchKey, row.batchKey) : eq(outbox.id, row.id), now);
    if (claimed.length === 0) continue;
    const ids = claimed.map((c) => c.id);
    try {
      if (row.batchKey) await resendBatch(db, config, row.batchKey, claimed, options);
      else await mailer.transmit(row.id, claimed[0].message);
      counts.mail_retried += claimed.length;
    } catch (error) {
      if (error instanceof MailProviderBusy) {
        // Give the attempt back: a busy provider says nothing about the message.
        await db
          .update(outbox)
          .set({ attempts: sql`${outbox.attempts} - 1`, lastAttemptAt: null })
          .where(inArray(outbox.id, ids));
        counts.mail_retry_deferred = true;
        break;
      }
      counts.mail_retry_failed += claimed.length;
      if (row.attempts + 1 >= MAIL_RETRY.maxAttempts) {
        logLine('error', 'email given up after its retries', {
          outbox_id: row.id,
          ...(row.batchKey ? { batch_key: row.batchKey, messages: ids.length } : {}),
          attempts: row.attempts + 1,
          error: errorSummary(error),
        });
      }
    }
  }
  return counts;
}

/**
 * Takes the rows `which` names for this run (one attempt more each) in one statement: a single row,
 * or every unsent row of one batch, which are only ever claimed together. Empty when another run
 * has them or they were sent meanwhile.
 */
async function claim(db: Db, which: SQL, now: Date): Promise<OutboxMessage[]> {
  const rows = await db
    .update(outbox)
    .set({ attempts: sql`${outbox.attempts} + 1`, lastAttemptAt: now })
    .where(
      and(
        which,
        isNull(outbox.sentAt),
        or(isNull(outbox.lastAttemptAt), lt(outbox.lastAttemptAt, new Date(now.getTime() - MAIL_RETRY.claimMs))),
      ),
    )
    .returning({
      id: outbox.id,
      to: outbox.to,
      subject: outbox.subject,
      text: outbox.text,
      html: outbox.html,
      key: outbox.key,
    });
  return rows.map(({ id, key, ...message }) => ({ id, message: { ...message, key: key ?? undefined } }));
}
