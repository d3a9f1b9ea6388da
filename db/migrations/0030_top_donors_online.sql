-- Top Donors names only donors who chose to be named (docs/decisions/077). A gift the office
-- entered (cash, a cheque, a typed gift: source manual or batch) never offered "Give anonymously",
-- so the donor_totals row counts the gifts given through the donation box (card, or demo mode) as
-- well, and the leaderboard names a donor only when that count is above 0. The triggers are those
-- of 0004_speed, with that count added (and `source` among the columns that move it).
ALTER TABLE `donor_totals` ADD `online_gift_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `donor_totals` SET `online_gift_count` = (
	SELECT count(*) FROM `donations` d
	WHERE d.`donor_id` = `donor_totals`.`donor_id` AND (d.`campaign_id` = `donor_totals`.`target_id` OR d.`appeal_id` = `donor_totals`.`target_id`)
		AND d.`status` = 'succeeded' AND d.`source` IN ('card', 'demo')
);--> statement-breakpoint
DROP TRIGGER `donations_totals_insert`;--> statement-breakpoint
DROP TRIGGER `donations_totals_update`;--> statement-breakpoint
DROP TRIGGER `donations_totals_delete`;--> statement-breakpoint
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
		`gift_count` = `gift_count` + (NEW.`status` = 'succeeded'),
		`online_gift_count` = `online_gift_count` + (NEW.`status` = 'succeeded' AND NEW.`source` IN ('card', 'demo'))
	WHERE `donor_id` = NEW.`donor_id` AND `target_id` IN (NEW.`campaign_id`, NEW.`appeal_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `donations_totals_update` AFTER UPDATE OF `status`, `amount`, `refunded_amount`, `gift_aid`, `campaign_id`, `appeal_id`, `donor_id`, `source` ON `donations`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`amount` IS NOT NEW.`amount` OR OLD.`refunded_amount` IS NOT NEW.`refunded_amount` OR OLD.`gift_aid` IS NOT NEW.`gift_aid` OR OLD.`campaign_id` IS NOT NEW.`campaign_id` OR OLD.`appeal_id` IS NOT NEW.`appeal_id` OR OLD.`donor_id` IS NOT NEW.`donor_id` OR OLD.`source` IS NOT NEW.`source`
BEGIN
	UPDATE `campaign_totals` SET
		`raised_pence` = `raised_pence` - (OLD.`amount` - OLD.`refunded_amount`),
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded'),
		`gift_aid_pence` = `gift_aid_pence` - (CASE WHEN OLD.`gift_aid` THEN (OLD.`amount` - OLD.`refunded_amount`) * 25 / 100 ELSE 0 END)
	WHERE OLD.`status` IN ('succeeded', 'refunded') AND `campaign_id` IN (OLD.`campaign_id`, OLD.`appeal_id`);
	UPDATE `donor_totals` SET
		`raised_pence` = `raised_pence` - (OLD.`amount` - OLD.`refunded_amount`),
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded'),
		`online_gift_count` = `online_gift_count` - (OLD.`status` = 'succeeded' AND OLD.`source` IN ('card', 'demo'))
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
		`gift_count` = `gift_count` + (NEW.`status` = 'succeeded'),
		`online_gift_count` = `online_gift_count` + (NEW.`status` = 'succeeded' AND NEW.`source` IN ('card', 'demo'))
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
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded'),
		`online_gift_count` = `online_gift_count` - (OLD.`status` = 'succeeded' AND OLD.`source` IN ('card', 'demo'))
	WHERE `donor_id` = OLD.`donor_id` AND `target_id` IN (OLD.`campaign_id`, OLD.`appeal_id`);
END;
