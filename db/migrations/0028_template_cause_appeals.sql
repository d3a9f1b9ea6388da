-- The appeals started from each template cause, counted on the admins' screen (docs/decisions/074).
CREATE INDEX `campaigns_template_cause_idx` ON `campaigns` (`template_cause_id`,`status`);
