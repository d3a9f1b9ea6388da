import type { Db } from '../../../db/client';
import type { AppConfig } from '../../lib/types';
import { createMailer } from '../mail/mailer';
import { retryUnsentMail } from '../mail/retry';
import { flushFundraiserNotifications } from '../notifications/fundraiser';
import { createPaymentProvider } from '../payments';
import { runHousekeeping } from './run';

/**
 * One run of the Cron Trigger's job, for the worker's scheduled() and `npm run housekeeping` alike:
 * housekeeping, then the fundraiser emails that waited for their hour on appeals no later gift reached.
 * `origin` is the site the receipts of Direct Debits settled on this run link to.
 */
export async function runScheduledWork(run: {
  db: Db;
  config: AppConfig;
  bucket: R2Bucket | null;
  origin: string;
  now: Date;
}) {
  const { db, config, now } = run;
  const counts = await runHousekeeping({
    db,
    bucket: run.bucket,
    payments: createPaymentProvider(config),
    mail: { db, config, origin: run.origin },
    now,
  });
  const fundraiserEmails = await flushFundraiserNotifications(db, createMailer(db, config), {
    origin: config.publicOrigin,
    now,
  });
  const mail = await retryUnsentMail(db, config, { now });
  return { ...counts, fundraiser_emails_sent: fundraiserEmails.sent, ...mail };
}

/**
 * The second Cron Trigger (wrangler.toml): every five minutes, only the mail retry, so a receipt
 * the provider refused in a burst arrives within minutes rather than at the next hourly run.
 */
export const MAIL_RETRY_CRON = '*/5 * * * *';

export function runMailRetry(run: { db: Db; config: AppConfig; now: Date }) {
  return retryUnsentMail(run.db, run.config, { now: run.now });
}
