-- Emails the provider refused (a 429 in a telethon's burst, an outage) are sent again by a scheduled retry.
ALTER TABLE `outbox` ADD `attempts` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `outbox` ADD `last_attempt_at` integer;
--> statement-breakpoint
-- Only the keyed messages still unsent: the retry's look-up never reads the sent ones.
CREATE INDEX `outbox_unsent_idx` ON `outbox` (`created_at`) WHERE `sent_at` is null and `key` is not null;
