-- A tin or bucket collection banked as one line of a batch (decision 081): its total, no donor of
-- its own (the organization's collections donor), counted whole for the Small Donations Scheme.
ALTER TABLE `donations` ADD `collection` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `collections_donor_id` text;--> statement-breakpoint
CREATE INDEX `organizations_collections_donor_idx` ON `organizations` (`collections_donor_id`);
