-- The lists' search (docs/decisions/072): the title and fundraiser's name of exactly what the public
-- lists show (approved, not a general fund, an appeal only while its campaign is approved), under the
-- campaigns row's rowid. `list` says which list: "campaign", or "appeal c<its campaign's id>".
-- Kept by the triggers below, which copy each row as it is after the write, so the order they fire
-- in (migration 0017's name triggers included) does not matter.
CREATE VIRTUAL TABLE `campaign_search` USING fts5(`title`, `fundraiser`, `list`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `campaign_search` (`rowid`, `title`, `fundraiser`, `list`)
	SELECT `c`.`rowid`, `c`.`title`, trim(coalesce(`c`.`creator_first_name`, '') || ' ' || coalesce(`c`.`creator_last_name`, '')),
		CASE WHEN `c`.`campaign_id` IS NULL THEN 'campaign' ELSE 'appeal c' || replace(`c`.`campaign_id`, '-', '') END
	FROM `campaigns` AS `c` LEFT JOIN `campaigns` AS `p` ON `p`.`id` = `c`.`campaign_id`
	WHERE `c`.`status` = 'approved' AND `c`.`kind` = 'campaign'
		AND (`c`.`campaign_id` IS NULL OR `p`.`status` = 'approved');
--> statement-breakpoint
CREATE TRIGGER `campaigns_search_insert` AFTER INSERT ON `campaigns`
BEGIN
	DELETE FROM `campaign_search` WHERE `rowid` = NEW.`rowid`;
	INSERT INTO `campaign_search` (`rowid`, `title`, `fundraiser`, `list`)
	SELECT `c`.`rowid`, `c`.`title`, trim(coalesce(`c`.`creator_first_name`, '') || ' ' || coalesce(`c`.`creator_last_name`, '')),
		CASE WHEN `c`.`campaign_id` IS NULL THEN 'campaign' ELSE 'appeal c' || replace(`c`.`campaign_id`, '-', '') END
	FROM `campaigns` AS `c` LEFT JOIN `campaigns` AS `p` ON `p`.`id` = `c`.`campaign_id`
	WHERE `c`.`rowid` = NEW.`rowid` AND `c`.`status` = 'approved' AND `c`.`kind` = 'campaign'
		AND (`c`.`campaign_id` IS NULL OR `p`.`status` = 'approved');
END;
--> statement-breakpoint
CREATE TRIGGER `campaigns_search_update` AFTER UPDATE OF `title`, `creator_first_name`, `creator_last_name`, `status`, `kind`, `campaign_id` ON `campaigns`
BEGIN
	DELETE FROM `campaign_search` WHERE `rowid` = NEW.`rowid`;
	INSERT INTO `campaign_search` (`rowid`, `title`, `fundraiser`, `list`)
	SELECT `c`.`rowid`, `c`.`title`, trim(coalesce(`c`.`creator_first_name`, '') || ' ' || coalesce(`c`.`creator_last_name`, '')),
		CASE WHEN `c`.`campaign_id` IS NULL THEN 'campaign' ELSE 'appeal c' || replace(`c`.`campaign_id`, '-', '') END
	FROM `campaigns` AS `c` LEFT JOIN `campaigns` AS `p` ON `p`.`id` = `c`.`campaign_id`
	WHERE `c`.`rowid` = NEW.`rowid` AND `c`.`status` = 'approved' AND `c`.`kind` = 'campaign'
		AND (`c`.`campaign_id` IS NULL OR `p`.`status` = 'approved');
END;
--> statement-breakpoint
-- A campaign approved, set to draft or deleted takes its appeals in or out of the lists with it.
CREATE TRIGGER `campaigns_search_campaign_status` AFTER UPDATE OF `status` ON `campaigns`
WHEN NEW.`campaign_id` IS NULL AND OLD.`status` IS NOT NEW.`status`
BEGIN
	DELETE FROM `campaign_search` WHERE `rowid` IN (SELECT `rowid` FROM `campaigns` WHERE `campaign_id` = NEW.`id`);
	INSERT INTO `campaign_search` (`rowid`, `title`, `fundraiser`, `list`)
	SELECT `c`.`rowid`, `c`.`title`, trim(coalesce(`c`.`creator_first_name`, '') || ' ' || coalesce(`c`.`creator_last_name`, '')),
		CASE WHEN `c`.`campaign_id` IS NULL THEN 'campaign' ELSE 'appeal c' || replace(`c`.`campaign_id`, '-', '') END
	FROM `campaigns` AS `c` LEFT JOIN `campaigns` AS `p` ON `p`.`id` = `c`.`campaign_id`
	WHERE `c`.`campaign_id` = NEW.`id` AND `c`.`status` = 'approved' AND `c`.`kind` = 'campaign'
		AND (`c`.`campaign_id` IS NULL OR `p`.`status` = 'approved');
END;
--> statement-breakpoint
CREATE TRIGGER `campaigns_search_delete` AFTER DELETE ON `campaigns`
BEGIN
	DELETE FROM `campaign_search` WHERE `rowid` = OLD.`rowid`;
END;
