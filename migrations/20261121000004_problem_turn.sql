-- The first turn a bot's problems showed in a match (its removal, a timeout, a
-- warning), so that its owner's error board links straight to it in the replay.
alter table match_players add column problem_turn integer check (problem_turn >= 0);
