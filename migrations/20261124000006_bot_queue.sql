-- The matches queued or running for each bot, in one place: matchmaking counts them
-- into a bot's load (least loaded first), and the leaderboard of the second carries
-- them so that bot pages say where a bot stands in that line. Read from the few
-- queued and running matches (a partial index), never from a bot's seats.
create view bot_queue as
    select p.bot_id, count(*) as n
    from matches m join match_players p on p.match_id = m.id
    where m.status in ('queued', 'running')
    group by p.bot_id;
