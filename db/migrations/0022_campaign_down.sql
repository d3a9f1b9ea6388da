-- When an appeal's "its campaign is off the site" email was claimed (docs/decisions/066). Cleared when
-- the campaign is approved again, so a later take-down is told too.
ALTER TABLE `appeal_notifications` ADD `campaign_down_sent_at` integer;
