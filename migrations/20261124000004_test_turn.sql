-- How far a version's 50-turn test game is while it plays, so that its page shows
-- "turn N of 50" rather than a spinner alone. Written every few turns by the builder.
alter table bot_versions add column test_turn integer check (test_turn >= 0);
