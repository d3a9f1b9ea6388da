-- Lists in their display order (created_at desc, id asc) straight from an index: no sort step that reads past the page.
CREATE INDEX `campaigns_children_order_idx` ON `campaigns` (`campaign_id`,`status`,`kind`,`created_at` desc,`id`);
--> statement-breakpoint
DROP INDEX `campaigns_list_idx`;
--> statement-breakpoint
DROP INDEX `campaigns_status_idx`;
--> statement-breakpoint
CREATE INDEX `campaigns_status_order_idx` ON `campaigns` (`status`,`created_at` desc,`id`);
--> statement-breakpoint
-- How many approved appeals a campaign has, kept by the triggers below, so a public list counts its pages from a handful of rows.
ALTER TABLE `campaigns` ADD `approved_appeal_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `campaigns` SET `approved_appeal_count` = (
	SELECT count(*) FROM `campaigns` AS `appeal`
	WHERE `appeal`.`campaign_id` = `campaigns`.`id` AND `appeal`.`status` = 'approved' AND `appeal`.`kind` = 'campaign'
) WHERE `campaign_id` IS NULL;
--> statement-breakpoint
CREATE TRIGGER `campaigns_appeal_count_insert` AFTER INSERT ON `campaigns`
WHEN NEW.`campaign_id` IS NOT NULL AND NEW.`status` = 'approved' AND NEW.`kind` = 'campaign'
BEGIN
	UPDATE `campaigns` SET `approved_appeal_count` = `approved_appeal_count` + 1 WHERE `id` = NEW.`campaign_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `campaigns_appeal_count_update` AFTER UPDATE OF `campaign_id`, `status`, `kind` ON `campaigns`
WHEN OLD.`campaign_id` IS NOT NEW.`campaign_id` OR OLD.`status` IS NOT NEW.`status` OR OLD.`kind` IS NOT NEW.`kind`
BEGIN
	UPDATE `campaigns` SET `approved_appeal_count` = `approved_appeal_count` - 1
	WHERE `id` = OLD.`campaign_id` AND OLD.`status` = 'approved' AND OLD.`kind` = 'campaign';
	UPDATE `campaigns` SET `approved_appeal_count` = `approved_appeal_count` + 1
	WHERE `id` = NEW.`campaign_id` AND NEW.`status` = 'approved' AND NEW.`kind` = 'campaign';
END;
--> statement-breakpoint
CREATE TRIGGER `campaigns_appeal_count_delete` AFTER DELETE ON `campaigns`
WHEN OLD.`campaign_id` IS NOT NULL AND OLD.`status` = 'approved' AND OLD.`kind` = 'campaign'
BEGIN
	UPDATE `campaigns` SET `approved_appeal_count` = `approved_appeal_count` - 1 WHERE `id` = OLD.`campaign_id`;
END;
--> statement-breakpoint
-- The creator's name as cards show it ("By: ..."), on the row: a listed appeal reads itself and its totals, not its creator's account too.
ALTER TABLE `campaigns` ADD `creator_first_name` text;
--> statement-breakpoint
ALTER TABLE `campaigns` ADD `creator_last_name` text;
--> statement-breakpoint
UPDATE `campaigns` SET
	`creator_first_name` = (SELECT `first_name` FROM `users` WHERE `users`.`id` = `campaigns`.`created_by`),
	`creator_last_name` = (SELECT `last_name` FROM `users` WHERE `users`.`id` = `campaigns`.`created_by`)
WHERE `created_by` IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `campaigns_creator_name_insert` AFTER INSERT ON `campaigns` WHEN NEW.`created_by` IS NOT NULL
BEGIN
	UPDATE `campaigns` SET
		`creator_first_name` = (SELECT `first_name` FROM `users` WHERE `users`.`id` = NEW.`created_by`),
		`creator_last_name` = (SELECT `last_name` FROM `users` WHERE `users`.`id` = NEW.`created_by`)
	WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `campaigns_creator_name_update` AFTER UPDATE OF `created_by` ON `campaigns` WHEN OLD.`created_by` IS NOT NEW.`created_by`
BEGIN
	UPDATE `campaigns` SET
		`creator_first_name` = (SELECT `first_name` FROM `users` WHERE `users`.`id` = NEW.`created_by`),
		`creator_last_name` = (SELECT `last_name` FROM `users` WHERE `users`.`id` = NEW.`created_by`)
	WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_name_to_campaigns` AFTER UPDATE OF `first_name`, `last_name` ON `users`
WHEN OLD.`first_name` IS NOT NEW.`first_name` OR OLD.`last_name` IS NOT NEW.`last_name`
BEGIN
	UPDATE `campaigns` SET `creator_first_name` = NEW.`first_name`, `creator_last_name` = NEW.`last_name` WHERE `created_by` = NEW.`id`;
END;
