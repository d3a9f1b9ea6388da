DROP INDEX `donations_campaign_idx`;--> statement-breakpoint
DROP INDEX `donations_appeal_idx`;--> statement-breakpoint
CREATE INDEX `donations_campaign_totals_idx` ON `donations` (`campaign_id`,`status`,`amount`,`refunded_amount`);--> statement-breakpoint
CREATE INDEX `donations_appeal_totals_idx` ON `donations` (`appeal_id`,`status`,`amount`,`refunded_amount`);