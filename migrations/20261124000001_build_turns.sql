-- Builds are taken in turn by owner: the builder picks the waiting version whose
-- owner's last build started longest ago (never first), so one contestant's queue of
-- uploads cannot hold back everyone else's.
alter table bot_versions add column build_started_at timestamptz;
