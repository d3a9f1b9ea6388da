-- When an appeal's "it is open for gifts" email was claimed (docs/decisions/062): once per appeal, ever,
-- so a start date moved after the email does not send a second one.
ALTER TABLE `appeal_notifications` ADD `opened_sent_at` integer;
