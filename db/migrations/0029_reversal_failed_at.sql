-- When a refund that had succeeded failed at the provider (docs/decisions/076): the accounts journal
-- keeps the refund on the day it succeeded and posts its return on this day, so a day already
-- exported never changes. Earlier failures take the row's last change as their day.
ALTER TABLE `donation_reversals` ADD `failed_at` integer;--> statement-breakpoint
UPDATE `donation_reversals` SET `failed_at` = `updated_at` WHERE `status` IN ('failed', 'cancelled') AND `succeeded_at` IS NOT NULL;
