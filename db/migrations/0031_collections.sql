-- A tin or bucket collection banked as one line of a batch (decision 081): its total, under the
-- organization's collections donor, counted whole for the Small Donations Scheme. The donor marks a
-- collection: a column on donations cost every public Top Donors read 22 more rows (measured).
ALTER TABLE `organizations` ADD `collections_donor_id` text;
