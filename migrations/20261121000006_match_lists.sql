-- The match lists of a bot, of an owner and of a map, newest first, read from an index
-- in their order instead of fetching every match of the bot and sorting them
-- (bench/pages.sh: a bot with 450 games took 1.5 ms of database time a page, an owner
-- with four bots 4 ms).

-- When the seat's match finished: set in the same transaction as the match's
-- finished_at, never changed after (a finished match is never voided or requeued).
alter table match_players add column finished_at timestamptz;
update match_players p set finished_at = m.finished_at
from matches m where m.id = p.match_id and m.status = 'finished';
create index match_players_finished on match_players (bot_id, finished_at desc, match_id desc)
where finished_at is not null;

create index matches_map_finished on matches (map_id, finished_at desc, id desc)
where status = 'finished';
