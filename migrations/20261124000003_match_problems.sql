-- Each kind of problem a bot had in a match (invalid commands, timeouts, limits, its
-- removal), with its own first turn, message and count, so that the owner's error
-- board sends them to the right turn with the right words. A JSON array of
-- {kind, text, first_turn, count}; null for matches recorded before it existed, which
-- the board shows from problem_turn and error as before.
alter table match_players add column problems jsonb;
