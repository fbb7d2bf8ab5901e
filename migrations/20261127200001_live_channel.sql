-- The live channel's pace (seconds a featured game is played over on /live) and delay
-- (turns held back while a game runs), as the organizer set them on /admin; null: the
-- defaults (`live::DEFAULT_SECONDS`, the config's `live_delay`).
alter table ranker
    add column live_seconds integer,
    add column live_delay integer;
