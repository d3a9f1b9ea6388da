CREATE TABLE `gasds_claims` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`tax_year` integer NOT NULL,
	`donations_pence` integer NOT NULL,
	`top_up_pence` integer NOT NULL,
	`gift_count` integer NOT NULL,
	`status` text DEFAULT 'claimed' NOT NULL,
	`hmrc_reference` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gasds_claims_org_idx` ON `gasds_claims` (`organization_id`,`tax_year`);--> statement-breakpoint
CREATE TABLE `donation_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`method` text NOT NULL,
	`banked_on` text NOT NULL,
	`reference` text,
	`expected_total` integer NOT NULL,
	`gift_count` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donation_batches_idempotency_unique` ON `donation_batches` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `donation_batches_org_idx` ON `donation_batches` (`organization_id`,`banked_on`);--> statement-breakpoint
CREATE TABLE `donation_disputes` (
	`id` text PRIMARY KEY NOT NULL,
	`donation_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`status` text NOT NULL,
	`fee_pence` integer DEFAULT 0 NOT NULL,
	`evidence_due_by` integer,
	`outcome` text,
	`last_event_at` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`closed_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donation_disputes_provider_unique` ON `donation_disputes` (`provider_id`);--> statement-breakpoint
CREATE INDEX `donation_disputes_donation_idx` ON `donation_disputes` (`donation_id`);--> statement-breakpoint
CREATE TABLE `donation_reversals` (
	`id` text PRIMARY KEY NOT NULL,
	`donation_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`note` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`provider_id` text,
	`idempotency_key` text,
	`balance_transaction_id` text,
	`fee_pence` integer,
	`payout_id` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`succeeded_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`donation_id`) REFERENCES `donations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `donation_reversals_donation_idx` ON `donation_reversals` (`donation_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `donation_reversals_provider_unique` ON `donation_reversals` (`provider_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `donation_reversals_idempotency_unique` ON `donation_reversals` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `donation_reversals_succeeded_idx` ON `donation_reversals` (`status`,`succeeded_at`);--> statement-breakpoint
CREATE TABLE `payout_lines` (
	`payout_id` text NOT NULL,
	`balance_transaction_id` text NOT NULL,
	`type` text NOT NULL,
	`source_id` text,
	`donation_id` text,
	`amount` integer NOT NULL,
	`fee` integer DEFAULT 0 NOT NULL,
	`net` integer NOT NULL,
	`available_on` integer,
	PRIMARY KEY(`payout_id`, `balance_transaction_id`),
	FOREIGN KEY (`payout_id`) REFERENCES `payouts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payout_lines_donation_idx` ON `payout_lines` (`donation_id`);--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'gbp' NOT NULL,
	`status` text NOT NULL,
	`arrival_date` integer NOT NULL,
	`failure_message` text,
	`gross_pence` integer DEFAULT 0 NOT NULL,
	`fee_pence` integer DEFAULT 0 NOT NULL,
	`refund_pence` integer DEFAULT 0 NOT NULL,
	`line_count` integer DEFAULT 0 NOT NULL,
	`last_event_at` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payouts_arrival_idx` ON `payouts` (`arrival_date`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`actor_id` text,
	`actor_email` text,
	`actor_type` text,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`organization_id` text,
	`changes` text DEFAULT '{}' NOT NULL,
	`request_id` text,
	`note` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target_type`,`target_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_org_idx` ON `audit_log` (`organization_id`,`at`);--> statement-breakpoint
ALTER TABLE `campaigns` ADD `kind` text DEFAULT 'campaign' NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `fund_restricted` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `income_code` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `sponsored_event` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `donations` ADD `method` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `batch_id` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `reference` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `fee_pence` integer;--> statement-breakpoint
ALTER TABLE `donations` ADD `net_pence` integer;--> statement-breakpoint
ALTER TABLE `donations` ADD `balance_transaction_id` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `payout_id` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `benefit_exceeds_limit` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `donations` ADD `gasds_claim_id` text;--> statement-breakpoint
ALTER TABLE `donations` ADD `receipt_sent_at` integer;--> statement-breakpoint
CREATE INDEX `donations_batch_idx` ON `donations` (`batch_id`);--> statement-breakpoint
CREATE INDEX `donations_payout_idx` ON `donations` (`payout_id`);--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `confirmation_sent_at` integer;--> statement-breakpoint
ALTER TABLE `gift_aid_declarations` ADD `overseas` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `gift_aid_claims` ADD `paid_amount_pence` integer;--> statement-breakpoint
ALTER TABLE `gift_aid_claims` ADD `paid_on` text;--> statement-breakpoint
ALTER TABLE `gift_aid_claims` ADD `payment_note` text;--> statement-breakpoint
ALTER TABLE `gift_aid_claims` ADD `rejected_at` integer;--> statement-breakpoint
ALTER TABLE `gift_aid_claims` ADD `rejection_reason` text;--> statement-breakpoint
ALTER TABLE `gift_aid_claims` ADD `voided_at` integer;--> statement-breakpoint
ALTER TABLE `gift_aid_claims` ADD `voided_by` text;--> statement-breakpoint
ALTER TABLE `gift_aid_claims` ADD `void_reason` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `accounting_year_end` text DEFAULT '04-05' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `income_code` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `fee_code` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `clearing_code` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `bank_code` text;--> statement-breakpoint
UPDATE `donations` SET `method` = 'card' WHERE `source` IN ('card', 'demo') AND `method` IS NULL;--> statement-breakpoint
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`
BEGIN
	SELECT RAISE(ABORT, 'audit_log is append-only');
END;--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log`
BEGIN
	SELECT RAISE(ABORT, 'audit_log is append-only');
END;
