import type { Db } from '../../../db/client';
import type { AppConfig } from '../../lib/types';
import { createMailer, type Mailer } from '../mail/mailer';
import { retryUnsentMail } from '../mail/retry';
import { emailCampaignBackAppeals, emailCampaignDownAppeals } from '../notifications/appeal-campaign-down';
import { emailEndedAppeals } from '../notifications/appeal-ended';
import { emailOpenedAppeals } from '../notifications/appeal-opened';
import { emailEndedCampaigns } from '../notifications/campaign-ended';
import { emailOpenedCampaigns } from '../notifications/campaign-opened';
import { flushFundraiserNotifications } from '../notifications/fundraiser';
import { emailMonthlyDonorsItemDown } from '../notifications/monthly-item-down';
import { createPaymentProvider } from '../payments';
import { runHousekeeping } from './run';

/**
 * One run of the Cron Trigger's job, for the worker's scheduled() and `npm run housekeeping` alike:
 * housekeeping, then the fundraiser emails that waited for their hour on appeals no later gift reached,
 * then the "your appeal has ended" emails of appeals whose last giving day has passed (decision 056)
 * and the campaigns' own (069), the "your appeal is open for gifts" emails of appeals whose start
 * date has come (062) and the campaigns' own (067), and the "off the site with its campaign" emails
 * of appeals whose campaign was taken down (066).
 * `origin` is the site the receipts of Direct Debits settled on this run, and the ended emails, link to.
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
  const mailer = createMailer(db, config);
  const fundraiserEmails = await flushFundraiserNotifications(db, mailer, { origin: config.publicOrigin, now });
  // Links need an absolute origin: run.origin is PUBLIC_ORIGIN, or the local server's.
  const ended = await emailEndedAppeals(db, mailer, { origin: run.origin, now });
  const campaignsEnded = await emailEndedCampaigns(db, mailer, { origin: run.origin, now });
  const opened = await emailOpenedAppeals(db, mailer, { origin: run.origin, now });
  const campaignsOpened = await emailOpenedCampaigns(db, mailer, { origin: run.origin, now });
  const campaignDown = await emailCampaignDown(db, mailer, config, run.origin, now);
  const mail = await retryUnsentMail(db, config, { now });
  return {
    ...counts,
    fundraiser_emails_sent: fundraiserEmails.sent,
    appeals_ended_emails: ended.sent,
    campaigns_ended_emails: campaignsEnded.sent,
    appeals_opened_emails: opened.sent,
    campaigns_opened_emails: campaignsOpened.sent,
    ...campaignDown,
    ...mail,
  };
}

/**
 * The "off the site with its campaign" and "back on the site" emails (decision 066), and the monthly
 * donors' "no longer on the site" (070), in both runs: fundraisers and donors learn within minutes.
 * Back first: a campaign approved again releases its claims.
 */
async function emailCampaignDown(db: Db, mailer: Mailer, config: AppConfig, origin: string, now: Date) {
  const options = { origin, now, supportEmail: config.supportEmail };
  const back = await emailCampaignBackAppeals(db, mailer, options);
  const down = await emailCampaignDownAppeals(db, mailer, options);
  // The donors of monthly gifts to what went (decision 070).
  const monthly = await emailMonthlyDonorsItemDown({ db, mailer, config, origin, now });
  return {
    appeals_campaign_down_emails: down.sent,
    appeals_campaign_back_emails: back.sent,
    monthly_item_down_emails: monthly.sent,
    monthly_item_back_emails: monthly.back,
  };
}

/**
 * The second Cron Trigger (wrangler.toml): every five minutes, the mail retry, so a receipt the
 * provider refused in a burst arrives within minutes rather than at the next hourly run, and the
 * emails of a campaign taken down (one indexed look when there are none).
 */
export const MAIL_RETRY_CRON = '*/5 * * * *';

export async function runMailRetry(run: { db: Db; config: AppConfig; now: Date }) {
  const campaignDown = await emailCampaignDown(
    run.db,
    createMailer(run.db, run.config),
    run.config,
    run.config.publicOrigin ?? 'http://localhost:4321',
    run.now,
  );
  return { ...campaignDown, ...(await retryUnsentMail(run.db, run.config, { now: run.now })) };
}
