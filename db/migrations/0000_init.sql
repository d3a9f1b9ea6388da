CREATE TABLE `campaigns` (
	`id` text PRIMARY KEY NOT NULL,
	`campaign_id` text,
	`organization_id` text,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`story` text DEFAULT '' NOT NULL,
	`video` text,
	`date_from` text,
	`date_to` text,
	`goal` integer NOT NULL,
	`images` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'approved' NOT NULL,
	`created_by` text,
	`template_cause_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `campaigns_list_idx` ON `campaigns` (`campaign_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `campaigns_status_idx` ON `campaigns` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `campaigns_org_idx` ON `campaigns` (`organization_id`);--> statement-breakpoint
CREATE INDEX `campaigns_created_by_idx` ON `campaigns` (`created_by`);--> statement-breakpoint
CREATE TABLE `template_causes` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`story` text NOT NULL,
	`image` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `donations` (
	`id` text PRIMARY KEY NOT NULL,
	`amount` integer NOT NULL,
	`donor_id` text NOT NULL,
	`campaign_id` text NOT NULL,
	`appeal_id` text,
	`date` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`type` text DEFAULT 'once' NOT NULL,
	`gift_aid` integer DEFAULT false NOT NULL,
	`gift_aid_declaration_id` text,
	`payment_intent_id` text,
	`invoice_id` text,
	`subscription_id` text,
	`refunded_amount` integer DEFAULT 0 NOT NULL,
	`failure_message` text,
	`source` text DEFAULT 'card' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`donor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`appeal_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`gift_aid_declaration_id`) REFERENCES `gift_aid_declarations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donations_payment_intent_unique` ON `donations` (`payment_intent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `donations_invoice_unique` ON `donations` (`invoice_id`);--> statement-breakpoint
CREATE INDEX `donations_subscription_idx` ON `donations` (`subscription_id`);--> statement-breakpoint
CREATE INDEX `donations_campaign_idx` ON `donations` (`campaign_id`,`status`);--> statement-breakpoint
CREATE INDEX `donations_appeal_idx` ON `donations` (`appeal_id`,`status`);--> statement-breakpoint
CREATE INDEX `donations_donor_idx` ON `donations` (`donor_id`,`date`);--> statement-breakpoint
CREATE INDEX `donations_date_idx` ON `donations` (`date`);--> statement-breakpoint
CREATE TABLE `gift_aid_declarations` (
	`id` text PRIMARY KEY NOT NULL,
	`donor_id` text NOT NULL,
	`full_name` text NOT NULL,
	`home_address` text NOT NULL,
	`postcode` text NOT NULL,
	`declaration_text` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`donor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gift_aid_declarations_donor_idx` ON `gift_aid_declarations` (`donor_id`);--> statement-breakpoint
CREATE TABLE `prices` (
	`id` text PRIMARY KEY NOT NULL,
	`unit_amount` integer NOT NULL,
	`currency` text DEFAULT 'gbp' NOT NULL,
	`interval` text DEFAULT 'month' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `prices_amount_idx` ON `prices` (`active`,`unit_amount`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`image` text,
	`email` text,
	`phone` text,
	`charity_number` text,
	`address` text,
	`city` text,
	`province` text,
	`postal_code` text,
	`country` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `organizations_name_idx` ON `organizations` (`name`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`sent_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbox_to_idx` ON `outbox` (`to`,`created_at`);--> statement-breakpoint
CREATE TABLE `login_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_codes_email_idx` ON `login_codes` (`email`,`created_at`);--> statement-breakpoint
CREATE TABLE `organization_admins` (
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `user_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `organization_admins_user_idx` ON `organization_admins` (`user_id`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_unique` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`type` text DEFAULT 'donor' NOT NULL,
	`avatar` text,
	`phone` text,
	`address` text,
	`city` text,
	`province` text,
	`postal_code` text,
	`country` text,
	`stripe_customer_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_type_idx` ON `users` (`type`);--> statement-breakpoint
CREATE INDEX `users_name_idx` ON `users` (`first_name`,`last_name`);