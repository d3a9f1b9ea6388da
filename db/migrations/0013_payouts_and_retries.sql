ALTER TABLE `payouts` ADD `failure_code` text;--> statement-breakpoint
ALTER TABLE `monthly_gifts` ADD `retry_at` integer;--> statement-breakpoint
ALTER TABLE `monthly_gifts` ADD `retry_as_of` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `payout_lines_source_idx` ON `payout_lines` (`source_id`);
