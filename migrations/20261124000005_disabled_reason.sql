-- Why an organizer took a bot out of the ladder, shown to its owner (bot page,
-- profile, API) so that a disabled bot never looks healthy.
alter table bots add column disabled_reason text check (length(disabled_reason) <= 200);
