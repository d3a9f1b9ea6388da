-- A tin or bucket collection banked as one line of a batch (decision 081): its total, no donor of
-- its own (the organization's collections donor), counted whole for the Small Donations Scheme.
ALTER TABLE `donations` ADD `collection` integer DEFAULT false NOT NULL;
