ALTER TABLE `payouts` ADD `failure_code` text;--> statement-breakpoint
CREATE INDEX `payout_lines_source_idx` ON `payout_lines` (`source_id`);--> statement-breakpoint
CREATE TABLE `invoice_retries` (
	`invoice_id` text PRIMARY KEY NOT NULL,
	`subscription_id` text NOT NULL,
	`retry_at` integer,
	`as_of` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `invoice_retries_subscription_idx` ON `invoice_retries` (`subscription_id`);
