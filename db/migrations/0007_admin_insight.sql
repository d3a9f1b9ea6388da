CREATE TABLE `support_messages` (
	`donation_id` text PRIMARY KEY NOT NULL,
	`campaign_id` text NOT NULL,
	`appeal_id` text,
	`message` text,
	`anonymous` integer DEFAULT false NOT NULL,
	`hide_amount` integer DEFAULT false NOT NULL,
	`hidden_at` integer,
	`hidden_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`appeal_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`hidden_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `support_messages_appeal_idx` ON `support_messages` (`appeal_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `support_messages_campaign_idx` ON `support_messages` (`campaign_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `notification_preferences` (
	`user_id` text PRIMARY KEY NOT NULL,
	`appeal_gifts` integer DEFAULT true NOT NULL,
	`appeal_milestones` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `appeal_notifications` (
	`appeal_id` text PRIMARY KEY NOT NULL,
	`last_sent_at` integer,
	`half_sent_at` integer,
	`full_sent_at` integer,
	FOREIGN KEY (`appeal_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `fundraiser_pending_gifts` (
	`donation_id` text PRIMARY KEY NOT NULL,
	`appeal_id` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`appeal_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fundraiser_pending_gifts_appeal_idx` ON `fundraiser_pending_gifts` (`appeal_id`,`sent_at`);--> statement-breakpoint
CREATE INDEX `donations_insight_idx` ON `donations` (`status`,`date`,`type`,`amount`,`refunded_amount`,`campaign_id`,`donor_id`,`gift_aid`);
