import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { campaignRef } from './campaigns';
import { createdAt } from './columns';
import { donations } from './donations';
import { userRef } from './users';

/**
 * The donor's choices in the donation box, one row per checkout that made one: a message of
 * support (max 280 characters), "Give anonymously" (also hides the name on top donors) and
 * "hide my amount". Kept beside donations so the payment recording path stays untouched.
 */
export const supportMessages = sqliteTable(
  'support_messages',
  {
    donationId: text('donation_id')
      .primaryKey()
      .references(() => donations.id, { onDelete: 'cascade' }),
    campaignId: campaignRef('campaign_id').notNull(),
    appealId: campaignRef('appeal_id'),
    message: text('message'),
    anonymous: integer('anonymous', { mode: 'boolean' }).notNull().default(false),
    hideAmount: integer('hide_amount', { mode: 'boolean' }).notNull().default(false),
    /** Set when an admin hides the message; the gift itself is unaffected. */
    hiddenAt: integer('hidden_at', { mode: 'timestamp_ms' }),
    hiddenBy: userRef('hidden_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_messages_appeal_idx').on(t.appealId, t.createdAt),
    index('support_messages_campaign_idx').on(t.campaignId, t.createdAt),
  ],
);

/** A fundraiser's email switches (My Info); no row means both on. */
export const notificationPreferences = sqliteTable('notification_preferences', {
  userId: userRef('user_id', { onDelete: 'cascade' }).primaryKey(),
  appealGifts: integer('appeal_gifts', { mode: 'boolean' }).notNull().default(true),
  appealMilestones: integer('appeal_milestones', { mode: 'boolean' }).notNull().default(true),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .$defaultFn(() => new Date()),
});

/** Per appeal: when the last "new gifts" email went (at most one an hour) and which milestones were sent. */
export const appealNotifications = sqliteTable('appeal_notifications', {
  appealId: campaignRef('appeal_id', { onDelete: 'cascade' }).primaryKey(),
  lastSentAt: integer('last_sent_at', { mode: 'timestamp_ms' }),
  halfSentAt: integer('half_sent_at', { mode: 'timestamp_ms' }),
  fullSentAt: integer('full_sent_at', { mode: 'timestamp_ms' }),
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
