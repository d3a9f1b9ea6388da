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
