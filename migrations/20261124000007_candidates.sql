-- Candidate versions: built and tested like any other, but a passing one does not
-- replace the active version; it waits, 'ready', until its owner makes it active.
alter table bot_versions add column candidate boolean not null default false;
alter table bot_versions drop constraint bot_versions_status_check;
alter table bot_versions add constraint bot_versions_status_check
    check (status in ('pending', 'building', 'testing', 'active', 'failed', 'retired', 'ready'));

-- When its owner last chose the version the bot plays: at most once a minute (each
-- change starts its rating's uncertainty over).
alter table bots add column activated_at timestamptz;
