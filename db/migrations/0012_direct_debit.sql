ALTER TABLE `donations` ADD `payment_method` text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE `donations` ADD `bank_last4` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `mandate_id` text;--> statement-breakpoint
ALTER TABLE `monthly_gifts` ADD `payment_method` text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE `monthly_gifts` ADD `bank_last4` text;--> statement-breakpoint
ALTER TABLE `monthly_gifts` ADD `mandate_id` text;--> statement-breakpoint
CREATE INDEX `monthly_gifts_mandate_idx` ON `monthly_gifts` (`mandate_id`);--> statement-breakpoint
CREATE INDEX `donations_status_method_idx` ON `donations` (`status`,`payment_method`);--> statement-breakpoint
CREATE TABLE `direct_debit_mandates` (
	`id` text PRIMARY KEY NOT NULL,
	`reference` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`donor_id` text,
	`bank_last4` text,
	`status_as_of` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
