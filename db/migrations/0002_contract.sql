ALTER TABLE `organizations` ADD `legal_name` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `regulator` text DEFAULT 'ccew' NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `hmrc_reference` text;
