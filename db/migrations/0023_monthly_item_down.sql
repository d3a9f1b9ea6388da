-- When a monthly gift's donor was told that the appeal or campaign it supports left the site
-- (docs/decisions/070). Cleared when that is back on the site, so a later take-down is told too.
ALTER TABLE `monthly_gifts` ADD `item_down_told_at` integer;--> statement-breakpoint
CREATE INDEX `monthly_gifts_item_down_idx` ON `monthly_gifts` (`item_down_told_at`);--> statement-breakpoint
CREATE INDEX `campaigns_status_updated_idx` ON `campaigns` (`status`,`updated_at`);
