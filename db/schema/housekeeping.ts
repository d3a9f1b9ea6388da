import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Stored images (R2 keys) that no record used when housekeeping last looked, with the first time it
 * saw them unused. An image is deleted once it has been unused for 7 days; a key that is used again
 * leaves this table.
 */
export const unusedImages = sqliteTable('unused_images', {
  key: text('key').primaryKey(),
  firstSeenAt: integer('first_seen_at', { mode: 'timestamp_ms' }).notNull(),
});
