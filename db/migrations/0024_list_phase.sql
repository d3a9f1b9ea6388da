-- Where an item sorts in the lists (docs/decisions/071): 0 open for gifts, 1 still to open, 2 ended.
-- Kept by the triggers below on every insert and date change (on the London day, worked out from UTC),
-- and by the hourly run when a day passes, so a list reads its page in order from an index.
ALTER TABLE `campaigns` ADD `list_phase` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `campaigns` SET `list_phase` = CASE WHEN min(coalesce(nullif(`campaigns`.`date_to`, ''), '9999-12-31'), coalesce((SELECT nullif(`p`.`date_to`, '') FROM `campaigns` AS `p` WHERE `p`.`id` = `campaigns`.`campaign_id`), '9999-12-31')) < date('now', CASE WHEN datetime('now') >= datetime(date('now', 'start of year', '+2 months', '+24 days', 'weekday 0'), '+1 hour') AND datetime('now') < datetime(date('now', 'start of year', '+9 months', '+24 days', 'weekday 0'), '+1 hour') THEN '+1 hour' ELSE '+0 hours' END) THEN 2 WHEN max(coalesce(`campaigns`.`date_from`, ''), coalesce((SELECT nullif(`p`.`date_from`, '') FROM `campaigns` AS `p` WHERE `p`.`id` = `campaigns`.`campaign_id`), '')) > date('now', CASE WHEN datetime('now') >= datetime(date('now', 'start of year', '+2 months', '+24 days', 'weekday 0'), '+1 hour') AND datetime('now') < datetime(date('now', 'start of year', '+9 months', '+24 days', 'weekday 0'), '+1 hour') THEN '+1 hour' ELSE '+0 hours' END) THEN 1 ELSE 0 END;
--> statement-breakpoint
CREATE TRIGGER `campaigns_list_phase_insert` AFTER INSERT ON `campaigns`
BEGIN
	UPDATE `campaigns` SET `list_phase` = CASE WHEN min(coalesce(nullif(`campaigns`.`date_to`, ''), '9999-12-31'), coalesce((SELECT nullif(`p`.`date_to`, '') FROM `campaigns` AS `p` WHERE `p`.`id` = `campaigns`.`campaign_id`), '9999-12-31')) < date('now', CASE WHEN datetime('now') >= datetime(date('now', 'start of year', '+2 months', '+24 days', 'weekday 0'), '+1 hour') AND datetime('now') < datetime(date('now', 'start of year', '+9 months', '+24 days', 'weekday 0'), '+1 hour') THEN '+1 hour' ELSE '+0 hours' END) THEN 2 WHEN max(coalesce(`campaigns`.`date_from`, ''), coalesce((SELECT nullif(`p`.`date_from`, '') FROM `campaigns` AS `p` WHERE `p`.`id` = `campaigns`.`campaign_id`), '')) > date('now', CASE WHEN datetime('now') >= datetime(date('now', 'start of year', '+2 months', '+24 days', 'weekday 0'), '+1 hour') AND datetime('now') < datetime(date('now', 'start of year', '+9 months', '+24 days', 'weekday 0'), '+1 hour') THEN '+1 hour' ELSE '+0 hours' END) THEN 1 ELSE 0 END
	WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- An appeal moves with its campaign's dates too.
CREATE TRIGGER `campaigns_list_phase_update` AFTER UPDATE OF `date_from`, `date_to`, `campaign_id` ON `campaigns`
WHEN OLD.`date_from` IS NOT NEW.`date_from` OR OLD.`date_to` IS NOT NEW.`date_to` OR OLD.`campaign_id` IS NOT NEW.`campaign_id`
BEGIN
	UPDATE `campaigns` SET `list_phase` = CASE WHEN min(coalesce(nullif(`campaigns`.`date_to`, ''), '9999-12-31'), coalesce((SELECT nullif(`p`.`date_to`, '') FROM `campaigns` AS `p` WHERE `p`.`id` = `campaigns`.`campaign_id`), '9999-12-31')) < date('now', CASE WHEN datetime('now') >= datetime(date('now', 'start of year', '+2 months', '+24 days', 'weekday 0'), '+1 hour') AND datetime('now') < datetime(date('now', 'start of year', '+9 months', '+24 days', 'weekday 0'), '+1 hour') THEN '+1 hour' ELSE '+0 hours' END) THEN 2 WHEN max(coalesce(`campaigns`.`date_from`, ''), coalesce((SELECT nullif(`p`.`date_from`, '') FROM `campaigns` AS `p` WHERE `p`.`id` = `campaigns`.`campaign_id`), '')) > date('now', CASE WHEN datetime('now') >= datetime(date('now', 'start of year', '+2 months', '+24 days', 'weekday 0'), '+1 hour') AND datetime('now') < datetime(date('now', 'start of year', '+9 months', '+24 days', 'weekday 0'), '+1 hour') THEN '+1 hour' ELSE '+0 hours' END) THEN 1 ELSE 0 END
	WHERE `id` = NEW.`id` OR `campaign_id` = NEW.`id`;
END;
--> statement-breakpoint
DROP INDEX `campaigns_children_order_idx`;
--> statement-breakpoint
CREATE INDEX `campaigns_children_order_idx` ON `campaigns` (`campaign_id`,`status`,`kind`,`list_phase`,`created_at` desc,`id`);
--> statement-breakpoint
DROP INDEX `campaigns_status_order_idx`;
--> statement-breakpoint
CREATE INDEX `campaigns_status_order_idx` ON `campaigns` (`status`,`list_phase`,`created_at` desc,`id`);
