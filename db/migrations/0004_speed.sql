CREATE TABLE `campaign_totals` (
	`campaign_id` text PRIMARY KEY NOT NULL,
	`raised_pence` integer DEFAULT 0 NOT NULL,
	`gift_count` integer DEFAULT 0 NOT NULL,
	`gift_aid_pence` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `donor_totals` (
	`target_id` text NOT NULL,
	`donor_id` text NOT NULL,
	`raised_pence` integer DEFAULT 0 NOT NULL,
	`gift_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`target_id`, `donor_id`),
	FOREIGN KEY (`target_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`donor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `donor_totals_rank_idx` ON `donor_totals` (`target_id`,`raised_pence`,`gift_count`);
--> statement-breakpoint
INSERT INTO `campaign_totals` (`campaign_id`, `raised_pence`, `gift_count`, `gift_aid_pence`)
SELECT `target`, sum(`net`), sum(`status` = 'succeeded'), sum(CASE WHEN `gift_aid` THEN `net` * 25 / 100 ELSE 0 END)
FROM (
	SELECT `campaign_id` AS `target`, `amount` - `refunded_amount` AS `net`, `status`, `gift_aid` FROM `donations` WHERE `status` IN ('succeeded', 'refunded')
	UNION ALL
	SELECT `appeal_id`, `amount` - `refunded_amount`, `status`, `gift_aid` FROM `donations` WHERE `appeal_id` IS NOT NULL AND `status` IN ('succeeded', 'refunded')
)
GROUP BY `target`;
--> statement-breakpoint
INSERT INTO `donor_totals` (`target_id`, `donor_id`, `raised_pence`, `gift_count`)
SELECT `target`, `donor_id`, sum(`net`), sum(`status` = 'succeeded')
FROM (
	SELECT `campaign_id` AS `target`, `donor_id`, `amount` - `refunded_amount` AS `net`, `status` FROM `donations` WHERE `status` IN ('succeeded', 'refunded')
	UNION ALL
	SELECT `appeal_id`, `donor_id`, `amount` - `refunded_amount`, `status` FROM `donations` WHERE `appeal_id` IS NOT NULL AND `status` IN ('succeeded', 'refunded')
)
GROUP BY `target`, `donor_id`;
--> statement-breakpoint
CREATE TRIGGER `donations_totals_insert` AFTER INSERT ON `donations` WHEN NEW.`status` IN ('succeeded', 'refunded')
BEGIN
	INSERT INTO `campaign_totals` (`campaign_id`) SELECT NEW.`campaign_id` WHERE NOT EXISTS (SELECT 1 FROM `campaign_totals` WHERE `campaign_id` = NEW.`campaign_id`);
	INSERT INTO `campaign_totals` (`campaign_id`) SELECT NEW.`appeal_id` WHERE NEW.`appeal_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `campaign_totals` WHERE `campaign_id` = NEW.`appeal_id`);
	INSERT INTO `donor_totals` (`target_id`, `donor_id`) SELECT NEW.`campaign_id`, NEW.`donor_id` WHERE NOT EXISTS (SELECT 1 FROM `donor_totals` WHERE `target_id` = NEW.`campaign_id` AND `donor_id` = NEW.`donor_id`);
	INSERT INTO `donor_totals` (`target_id`, `donor_id`) SELECT NEW.`appeal_id`, NEW.`donor_id` WHERE NEW.`appeal_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `donor_totals` WHERE `target_id` = NEW.`appeal_id` AND `donor_id` = NEW.`donor_id`);
	UPDATE `campaign_totals` SET
		`raised_pence` = `raised_pence` + (NEW.`amount` - NEW.`refunded_amount`),
		`gift_count` = `gift_count` + (NEW.`status` = 'succeeded'),
		`gift_aid_pence` = `gift_aid_pence` + (CASE WHEN NEW.`gift_aid` THEN (NEW.`amount` - NEW.`refunded_amount`) * 25 / 100 ELSE 0 END)
	WHERE `campaign_id` IN (NEW.`campaign_id`, NEW.`appeal_id`);
	UPDATE `donor_totals` SET
		`raised_pence` = `raised_pence` + (NEW.`amount` - NEW.`refunded_amount`),
		`gift_count` = `gift_count` + (NEW.`status` = 'succeeded')
	WHERE `donor_id` = NEW.`donor_id` AND `target_id` IN (NEW.`campaign_id`, NEW.`appeal_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `donations_totals_update` AFTER UPDATE OF `status`, `amount`, `refunded_amount`, `gift_aid`, `campaign_id`, `appeal_id`, `donor_id` ON `donations`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`amount` IS NOT NEW.`amount` OR OLD.`refunded_amount` IS NOT NEW.`refunded_amount` OR OLD.`gift_aid` IS NOT NEW.`gift_aid` OR OLD.`campaign_id` IS NOT NEW.`campaign_id` OR OLD.`appeal_id` IS NOT NEW.`appeal_id` OR OLD.`donor_id` IS NOT NEW.`donor_id`
BEGIN
	UPDATE `campaign_totals` SET
		`raised_pence` = `raised_pence` - (OLD.`amount` - OLD.`refunded_amount`),
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded'),
		`gift_aid_pence` = `gift_aid_pence` - (CASE WHEN OLD.`gift_aid` THEN (OLD.`amount` - OLD.`refunded_amount`) * 25 / 100 ELSE 0 END)
	WHERE OLD.`status` IN ('succeeded', 'refunded') AND `campaign_id` IN (OLD.`campaign_id`, OLD.`appeal_id`);
	UPDATE `donor_totals` SET
		`raised_pence` = `raised_pence` - (OLD.`amount` - OLD.`refunded_amount`),
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded')
	WHERE OLD.`status` IN ('succeeded', 'refunded') AND `donor_id` = OLD.`donor_id` AND `target_id` IN (OLD.`campaign_id`, OLD.`appeal_id`);
	INSERT INTO `campaign_totals` (`campaign_id`) SELECT NEW.`campaign_id` WHERE NEW.`status` IN ('succeeded', 'refunded') AND NOT EXISTS (SELECT 1 FROM `campaign_totals` WHERE `campaign_id` = NEW.`campaign_id`);
	INSERT INTO `campaign_totals` (`campaign_id`) SELECT NEW.`appeal_id` WHERE NEW.`status` IN ('succeeded', 'refunded') AND NEW.`appeal_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `campaign_totals` WHERE `campaign_id` = NEW.`appeal_id`);
	INSERT INTO `donor_totals` (`target_id`, `donor_id`) SELECT NEW.`campaign_id`, NEW.`donor_id` WHERE NEW.`status` IN ('succeeded', 'refunded') AND NOT EXISTS (SELECT 1 FROM `donor_totals` WHERE `target_id` = NEW.`campaign_id` AND `donor_id` = NEW.`donor_id`);
	INSERT INTO `donor_totals` (`target_id`, `donor_id`) SELECT NEW.`appeal_id`, NEW.`donor_id` WHERE NEW.`status` IN ('succeeded', 'refunded') AND NEW.`appeal_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `donor_totals` WHERE `target_id` = NEW.`appeal_id` AND `donor_id` = NEW.`donor_id`);
	UPDATE `campaign_totals` SET
		`raised_pence` = `raised_pence` + (NEW.`amount` - NEW.`refunded_amount`),
		`gift_count` = `gift_count` + (NEW.`status` = 'succeeded'),
		`gift_aid_pence` = `gift_aid_pence` + (CASE WHEN NEW.`gift_aid` THEN (NEW.`amount` - NEW.`refunded_amount`) * 25 / 100 ELSE 0 END)
	WHERE NEW.`status` IN ('succeeded', 'refunded') AND `campaign_id` IN (NEW.`campaign_id`, NEW.`appeal_id`);
	UPDATE `donor_totals` SET
		`raised_pence` = `raised_pence` + (NEW.`amount` - NEW.`refunded_amount`),
		`gift_count` = `gift_count` + (NEW.`status` = 'succeeded')
	WHERE NEW.`status` IN ('succeeded', 'refunded') AND `donor_id` = NEW.`donor_id` AND `target_id` IN (NEW.`campaign_id`, NEW.`appeal_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `donations_totals_delete` AFTER DELETE ON `donations` WHEN OLD.`status` IN ('succeeded', 'refunded')
BEGIN
	UPDATE `campaign_totals` SET
		`raised_pence` = `raised_pence` - (OLD.`amount` - OLD.`refunded_amount`),
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded'),
		`gift_aid_pence` = `gift_aid_pence` - (CASE WHEN OLD.`gift_aid` THEN (OLD.`amount` - OLD.`refunded_amount`) * 25 / 100 ELSE 0 END)
	WHERE `campaign_id` IN (OLD.`campaign_id`, OLD.`appeal_id`);
	UPDATE `donor_totals` SET
		`raised_pence` = `raised_pence` - (OLD.`amount` - OLD.`refunded_amount`),
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded')
	WHERE `donor_id` = OLD.`donor_id` AND `target_id` IN (OLD.`campaign_id`, OLD.`appeal_id`);
END;
