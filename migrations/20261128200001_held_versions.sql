-- A version that crashes or times out again and again in its ranked games is held off
-- the ladder (server/src/crash_guard.rs): its previous version plays again. `held` says
-- why, in one sentence with the cause, for its owner.
alter table bot_versions drop constraint bot_versions_status_check;
alter table bot_versions add constraint bot_versions_status_check
    check (status in ('pending', 'building', 'testing', 'active', 'failed', 'retired', 'ready', 'held'));
alter table bot_versions add column held text,
    add constraint bot_versions_held_check check ((status = 'held') = (held is not null));
