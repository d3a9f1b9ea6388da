ALTER TABLE `donations` ADD `refunds_as_of` integer DEFAULT 0 NOT NULL;
