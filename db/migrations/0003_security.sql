CREATE TABLE `unused_images` (
	`key` text PRIMARY KEY NOT NULL,
	`first_seen_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `organizations` ADD `appeals_need_approval` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `origin` text DEFAULT 'account' NOT NULL;--> statement-breakpoint
CREATE INDEX `donations_status_created_idx` ON `donations` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `outbox_created_idx` ON `outbox` (`created_at`);--> statement-breakpoint
CREATE INDEX `login_codes_expires_idx` ON `login_codes` (`expires_at`);--> statement-breakpoint
CREATE INDEX `rate_limits_window_idx` ON `rate_limits` (`window_start`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);