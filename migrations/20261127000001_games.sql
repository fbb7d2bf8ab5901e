-- Games (docs/adding-a-game.md): every map, bot, match, challenge and tournament
-- belongs to one game, by its registry name; everything stored before there was a
-- choice is Bottle Bats'. What was Bottle Bats' own in the schema becomes the game's
-- named numbers, kept in the game's order as [[name, value], ...]: a map's facts
-- (`maps.info`) and a seat's statistics (`match_players.stats`).

alter table maps
    add column game text not null default 'bottlebats' check (game ~ '^[a-z0-9_-]{1,32}$'),
    add column info jsonb not null default '[]'::jsonb;
update maps set info = jsonb_build_array(jsonb_build_array('forts', forts));
alter table maps drop column forts;

alter table bots
    add column game text not null default 'bottlebats' check (game ~ '^[a-z0-9_-]{1,32}$');

alter table match_players add column stats jsonb;
update match_players
    set stats = jsonb_build_array(jsonb_build_array('forts', forts), jsonb_build_array('soldiers', soldiers))
    where forts is not null or soldiers is not null;
alter table match_players drop column forts, drop column soldiers;

-- A match is of its map's game, a challenge or A/B test of its bot's: set by the
-- database on insert, so that no code that makes them has to know about games.
alter table matches
    add column game text not null default 'bottlebats' check (game ~ '^[a-z0-9_-]{1,32}$');
alter table challenges
    add column game text not null default 'bottlebats' check (game ~ '^[a-z0-9_-]{1,32}$');
alter table tournaments
    add column game text not null default 'bottlebats' check (game ~ '^[a-z0-9_-]{1,32}$');

create function match_game() returns trigger language plpgsql as $$
begin
    select game into new.game from maps where id = new.map_id;
    return new;
end $$;
create trigger match_game before insert on matches for each row execute function match_game();

create function challenge_game() returns trigger language plpgsql as $$
begin
    select game into new.game from bots where id = new.bot_id;
    return new;
end $$;
create trigger challenge_game before insert on challenges for each row execute function challenge_game();

-- Lists of one game's matches, newest first; the ladder of one game.
create index matches_game_finished on matches (game, finished_at desc, id desc)
    where status = 'finished';
create index bots_game on bots (game);

-- The games open on this site (the `games` setting, written at each start).
alter table ranker add column games text[] not null default '{bottlebats}'
    check (cardinality(games) between 1 and 16);
