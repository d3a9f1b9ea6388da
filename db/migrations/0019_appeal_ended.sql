-- When an appeal's "it has ended" email was claimed (docs/decisions/056): once per appeal, ever,
-- even after the outbox row (kept 30 days) is purged and the appeal is reopened and ends again.
ALTER TABLE `appeal_notifications` ADD `ended_sent_at` integer;
