-- A template cause the charity no longer offers (docs/decisions/074). It is kept, not deleted: appeals
-- started from it still name it, and a fundraiser whose editor is open on it can still save.
-- /fund-raising offers only the causes whose retired_at is null.
ALTER TABLE `template_causes` ADD `retired_at` integer;
