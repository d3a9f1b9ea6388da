-- Public pages name a donor by their account only where they chose to be named (docs/decisions/077).
-- Anyone can type an email into the donation box, and the office enters cash and cheques: neither
-- is the account's owner choosing "Give anonymously" or not. So a gift records whether it came from
-- its owner's own checkout (signed in as the donor, or the checkout that created the account), and
-- donor_totals counts those gifts; Top Donors shows the account's name only when that count is above
-- 0. The triggers are those of 0004_speed with the count added (and `own_checkout` among the
-- columns that move it).
ALTER TABLE `donations` ADD `own_checkout` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- The gifts whose checkout row says so.
UPDATE `donations` SET `own_checkout` = 1
WHERE `id` IN (SELECT `donation_id` FROM `checkout_details` WHERE `consent_to_account` = 1);--> statement-breakpoint
-- From before every own checkout kept a row: the gift that made its donor's account (the account
-- made within the minute before it), and demo-mode gifts with no row (the demo seed's donors).
UPDATE `donations` SET `own_checkout` = 1
WHERE `own_checkout` = 0 AND `id` IN (
	SELECT f.`id` FROM `users` u JOIN `donations` f ON f.`id` = (
		SELECT d.`id` FROM `donations` d WHERE d.`donor_id` = u.`id` AND d.`source` IN ('card', 'demo') ORDER BY d.`created_at`, d.`rowid` LIMIT 1
	)
	WHERE f.`created_at` - u.`created_at` BETWEEN 0 AND 60000
);--> statement-breakpoint
UPDATE `donations` SET `own_checkout` = 1
WHERE `own_checkout` = 0 AND `source` = 'demo' AND `id` NOT IN (SELECT `donation_id` FROM `checkout_details`);--> statement-breakpoint
-- A monthly gift's renewals follow its first payment.
UPDATE `donations` SET `own_checkout` = 1
WHERE `own_checkout` = 0 AND `subscription_id` IN (
	SELECT `subscription_id` FROM `donations` WHERE `own_checkout` = 1 AND `subscription_id` IS NOT NULL
);--> statement-breakpoint
ALTER TABLE `donor_totals` ADD `own_gift_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- One pass over the gifts (a correlated count per totals row read the gifts once per row).
UPDATE `donor_totals` SET `own_gift_count` = o.`n` FROM (
	SELECT `target`, `donor_id`, count(*) AS `n` FROM (
		SELECT `campaign_id` AS `target`, `donor_id` FROM `donations` WHERE `status` = 'succeeded' AND `own_checkout` = 1
		UNION ALL
		SELECT `appeal_id`, `donor_id` FROM `donations` WHERE `appeal_id` IS NOT NULL AND `status` = 'succeeded' AND `own_checkout` = 1
	) GROUP BY `target`, `donor_id`
) AS o
WHERE `donor_totals`.`target_id` = o.`target` AND `donor_totals`.`donor_id` = o.`donor_id`;--> statement-breakpoint
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
		`own_gift_count` = `own_gift_count` + (NEW.`status` = 'succeeded' AND NEW.`own_checkout` = 1)
	WHERE `donor_id` = NEW.`donor_id` AND `target_id` IN (NEW.`campaign_id`, NEW.`appeal_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `donations_totals_update` AFTER UPDATE OF `status`, `amount`, `refunded_amount`, `gift_aid`, `campaign_id`, `appeal_id`, `donor_id`, `own_checkout` ON `donations`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`amount` IS NOT NEW.`amount` OR OLD.`refunded_amount` IS NOT NEW.`refunded_amount` OR OLD.`gift_aid` IS NOT NEW.`gift_aid` OR OLD.`campaign_id` IS NOT NEW.`campaign_id` OR OLD.`appeal_id` IS NOT NEW.`appeal_id` OR OLD.`donor_id` IS NOT NEW.`donor_id` OR OLD.`own_checkout` IS NOT NEW.`own_checkout`
BEGIN
	UPDATE `campaign_totals` SET
		`raised_pence` = `raised_pence` - (OLD.`amount` - OLD.`refunded_amount`),
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded'),
		`gift_aid_pence` = `gift_aid_pence` - (CASE WHEN OLD.`gift_aid` THEN (OLD.`amount` - OLD.`refunded_amount`) * 25 / 100 ELSE 0 END)
	WHERE OLD.`status` IN ('succeeded', 'refunded') AND `campaign_id` IN (OLD.`campaign_id`, OLD.`appeal_id`);
	UPDATE `donor_totals` SET
		`raised_pence` = `raised_pence` - (OLD.`amount` - OLD.`refunded_amount`),
		`gift_count` = `gift_count` - (OLD.`status` = 'succeeded'),
		`own_gift_count` = `own_gift_count` - (OLD.`status` = 'succeeded' AND OLD.`own_checkout` = 1)
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
		`own_gift_count` = `own_gift_count` + (NEW.`status` = 'succeeded' AND NEW.`own_checkout` = 1)
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
		`own_gift_count` = `own_gift_count` - (OLD.`status` = 'succeeded' AND OLD.`own_checkout` = 1)
	WHERE `donor_id` = OLD.`donor_id` AND `target_id` IN (OLD.`campaign_id`, OLD.`appeal_id`);
END;
