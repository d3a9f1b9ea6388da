ALTER TABLE `gift_aid_declarations` ADD `title` text;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `first_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `last_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `house` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `address` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `method` text DEFAULT 'online' NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `organization_id` text;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `covers_past` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `covers_future` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `declared_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `cancelled_at` integer;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `replaced_by` text;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `recorded_by` text;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `needs_review` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `gift_aid_declarations_review_idx` ON `gift_aid_declarations` (`needs_review`);--> statement-breakpoint
UPDATE `gift_aid_declarations` SET
	`declared_at` = `created_at`,
	`first_name` = CASE WHEN instr(trim(`full_name`), ' ') > 0 THEN substr(trim(`full_name`), 1, instr(trim(`full_name`), ' ') - 1) ELSE trim(`full_name`) END,
	`last_name` = CASE WHEN instr(trim(`full_name`), ' ') > 0 THEN trim(substr(trim(`full_name`), instr(trim(`full_name`), ' ') + 1)) ELSE '' END,
	`house` = CASE
		WHEN trim(`home_address`) GLOB '[0-9]*' THEN rtrim(substr(trim(`home_address`), 1, instr(trim(`home_address`) || ' ', ' ') - 1), ',')
		WHEN instr(`home_address`, ',') > 0 THEN trim(substr(`home_address`, 1, instr(`home_address`, ',') - 1))
		ELSE '' END,
	`address` = CASE
		WHEN trim(`home_address`) GLOB '[0-9]*' THEN trim(substr(trim(`home_address`), instr(trim(`home_address`) || ' ', ' ') + 1), ' ,')
		WHEN instr(`home_address`, ',') > 0 THEN trim(substr(`home_address`, instr(`home_address`, ',') + 1), ' ,')
		ELSE trim(`home_address`) END
WHERE `first_name` = '' AND `last_name` = '';--> statement-breakpoint
UPDATE `gift_aid_declarations` SET `needs_review` = 1
WHERE `needs_review` = 0 AND (
	`first_name` = '' OR `last_name` = '' OR instr(`last_name`, ' ') > 0 OR length(`first_name`) > 35 OR length(`last_name`) > 35
	OR lower(rtrim(`first_name`, '.')) IN ('mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'rev', 'sir', 'lady', 'lord')
	OR `house` = '' OR NOT (trim(`home_address`) GLOB '[0-9]*') OR length(`house`) > 40
);--> statement-breakpoint
CREATE INDEX `donations_gift_aid_idx` ON `donations` (`gift_aid`,`status`,`date`);--> statement-breakpoint
CREATE TABLE `gift_aid_claims` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`charity_reference` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`hmrc_reference` text,
	`aggregated` integer DEFAULT false NOT NULL,
	`date_from` text,
	`date_to` text,
	`earliest_date` integer NOT NULL,
	`latest_date` integer NOT NULL,
	`row_count` integer NOT NULL,
	`gift_count` integer NOT NULL,
	`total_pence` integer NOT NULL,
	`gift_aid_pence` integer NOT NULL,
	`adjustment_pence` integer DEFAULT 0 NOT NULL,
	`accounting_period_end` integer NOT NULL,
	`retain_until` integer NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`submitted_at` integer,
	`paid_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gift_aid_claims_org_idx` ON `gift_aid_claims` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `gift_aid_claim_rows` (
	`claim_id` text NOT NULL,
	`line` integer NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`house` text DEFAULT '' NOT NULL,
	`postcode` text DEFAULT '' NOT NULL,
	`aggregated` text DEFAULT '' NOT NULL,
	`sponsored` integer DEFAULT false NOT NULL,
	`donation_date` integer NOT NULL,
	`amount_pence` integer NOT NULL,
	PRIMARY KEY(`claim_id`, `line`),
	FOREIGN KEY (`claim_id`) REFERENCES `gift_aid_claims`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `gift_aid_claimed_gifts` (
	`donation_id` text PRIMARY KEY NOT NULL,
	`claim_id` text NOT NULL,
	`line` integer NOT NULL,
	`amount_pence` integer NOT NULL,
	`declaration_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`claim_id`) REFERENCES `gift_aid_claims`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`declaration_id`) REFERENCES `gift_aid_declarations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gift_aid_claimed_gifts_claim_idx` ON `gift_aid_claimed_gifts` (`claim_id`);--> statement-breakpoint
CREATE TABLE `gift_aid_adjustments` (
	`id` text PRIMARY KEY NOT NULL,
	`donation_id` text NOT NULL,
	`claim_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`gift_aid_pence` integer NOT NULL,
	`reason` text DEFAULT 'refund' NOT NULL,
	`settled_claim_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`claim_id`) REFERENCES `gift_aid_claims`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gift_aid_adjustments_org_idx` ON `gift_aid_adjustments` (`organization_id`,`settled_claim_id`);--> statement-breakpoint
CREATE INDEX `gift_aid_adjustments_donation_idx` ON `gift_aid_adjustments` (`donation_id`);
