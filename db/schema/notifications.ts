import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { campaignRef } from './campaigns';
import { createdAt } from './columns';
import { donations } from './donations';
import { userRef } from './users';

/** What a fundraiser is told about their appeal's gifts, and what they asked to be told. */

/** A fundraiser's email switches (My Info); no row means both on. */
export const notificationPreferences = sqliteTable('notification_preferences', {
  userId: userRef('user_id', { onDelete: 'cascade' }).primaryKey(),
  appealGifts: integer('appeal_gifts', { mode: 'boolean' }).notNull().default(true),
  appealMilestones: integer('appeal_milestones', { mode: 'boolean' }).notNull().default(true),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .$defaultFn(() => new Date()),
});

/**
 * Per appeal: when the last "new gifts" email went (at most one an hour), which milestones were sent,
 * and when the "your appeal has ended" summary was claimed (once per appeal, ever: decision 056).
 */
export const appealNotifications = sqliteTable('appeal_notifications', {
  appealId: campaignRef('appeal_id', { onDelete: 'cascade' }).primaryKey(),
  lastSentAt: integer('last_sent_at', { mode: 'timestamp_ms' }),
  halfSentAt: integer('half_sent_at', { mode: 'timestamp_ms' }),
  fullSentAt: integer('full_sent_at', { mode: 'timestamp_ms' }),
  endedSentAt: integer('ended_sent_at', { mode: 'timestamp_ms' }),
  /** When the "your appeal is open for gifts" email was claimed (once per appeal, ever: decision 062). */
  openedSentAt: integer('opened_sent_at', { mode: 'timestamp_ms' }),
  /** When "your appeal's campaign is off the site" was claimed; cleared when the campaign is approved again (decision 066). */
  campaignDownSentAt: integer('campaign_down_sent_at', { mode: 'timestamp_ms' }),
});

/** Gifts to an appeal not yet told to its fundraiser; the next email (after the hour) sends them together. */
export const fundraiserPendingGifts = sqliteTable(
  'fundraiser_pending_gifts',
  {
    donationId: text('donation_id')
      .primaryKey()
      .references(() => donations.id, { onDelete: 'cascade' }),
    appealId: campaignRef('appeal_id', { onDelete: 'cascade' }).notNull(),
    amount: integer('amount').notNull(),
    createdAt: createdAt(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('fundraiser_pending_gifts_appeal_idx').on(t.appealId, t.sentAt)],
);
