-- Receipts sent together in one request to the provider (docs/decisions/057): the rows of one batch share its
-- Idempotency-Key, so the scheduled retry sends the same batch again under the same key, never one by one.
ALTER TABLE `outbox` ADD `batch_key` text;
--> statement-breakpoint
CREATE INDEX `outbox_batch_idx` ON `outbox` (`batch_key`) WHERE `batch_key` is not null and `sent_at` is null;
