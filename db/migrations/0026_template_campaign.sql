-- The campaign an appeal started from a template cause raises for, when the charity chose one
-- (docs/decisions/073): the editor selects it, so "Run for Clean Water" raises for clean water.
ALTER TABLE `template_causes` ADD `campaign_id` text REFERENCES `campaigns`(`id`);
