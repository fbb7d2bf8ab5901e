-- When games were last asked for under a challenge: an A/B test takes more games after
-- its first ones, and the owner's hourly allowance counts the games queued in the last
-- hour of the challenges asked for in it.
alter table challenges add column asked_at timestamptz not null default now();
update challenges set asked_at = created_at;
create index challenges_owner_asked on challenges (owner_id, asked_at desc);
-- An A/B test with the games added to it: at most `challenges::MAX_AB_TOTAL`.
alter table challenges drop constraint challenges_games_check,
    add constraint challenges_games_check check (games between 1 and 400);
