ALTER TABLE `users` ADD `erased_at` integer;--> statement-breakpoint
ALTER TABLE `outbox` ADD `key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_key_unique` ON `outbox` (`key`);--> statement-breakpoint
CREATE TABLE `monthly_gifts` (
	`id` text PRIMARY KEY NOT NULL,
	`donor_id` text NOT NULL,
	`campaign_id` text NOT NULL,
	`appeal_id` text,
	`first_donation_id` text,
	`price_id` text,
	`amount` integer NOT NULL,
	`status` text DEFAULT 'incomplete' NOT NULL,
	`pause_resumes_at` integer,
	`next_payment_at` integer,
	`started_at` integer,
	`cancelled_at` integer,
	`cancelled_by` text,
	`gift_aid_declaration_id` text,
	`source` text DEFAULT 'card' NOT NULL,
	`last_event_at` integer DEFAULT 0 NOT NULL,
	`cancel_link_used_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`donor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`appeal_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `monthly_gifts_donor_idx` ON `monthly_gifts` (`donor_id`,`status`);--> statement-breakpoint
CREATE INDEX `monthly_gifts_campaign_idx` ON `monthly_gifts` (`campaign_id`);--> statement-breakpoint
CREATE TABLE `marketing_consents` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`email` text,
	`wording` text NOT NULL,
	`source` text NOT NULL,
	`given_at` integer NOT NULL,
	`withdrawn_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `marketing_consents_user_idx` ON `marketing_consents` (`user_id`,`given_at`);--> statement-breakpoint
CREATE INDEX `marketing_consents_given_idx` ON `marketing_consents` (`withdrawn_at`,`given_at`);--> statement-breakpoint
CREATE TABLE `erasure_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`requested_at` integer NOT NULL,
	`completed_at` integer,
	`outcome` text DEFAULT 'pending' NOT NULL,
	`detail` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `erasure_requests_user_idx` ON `erasure_requests` (`user_id`,`requested_at`);
