ALTER TABLE `gift_aid_declarations` ADD `pending_donation_id` text;--> statement-breakpoint
CREATE INDEX `gift_aid_declarations_pending_idx` ON `gift_aid_declarations` (`pending_donation_id`);--> statement-breakpoint
CREATE TABLE `checkout_details` (
	`donation_id` text PRIMARY KEY NOT NULL,
	`first_name` text,
	`last_name` text,
	`marketing_consent` integer DEFAULT false NOT NULL,
	`consent_to_account` integer DEFAULT false NOT NULL,
	`applied_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `login_codes` ADD `requested_ip` text;
