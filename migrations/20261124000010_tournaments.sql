-- Tournaments: a fixed set of bots, their versions frozen when it is made, playing a
-- schedule fixed by a seed on the ladder's workers, before ranked and challenge
-- matches. Their matches never change a rating or a record.
create table tournaments (
    id bigint generated always as identity primary key,
    name text not null check (length(name) between 1 and 100),
    format text not null check (format in ('round-robin', 'groups', 'swiss')),
    players_per_game integer not null check (players_per_game between 2 and 8),
    -- groups: the number of games; swiss: the number of rounds
    games integer check (games between 1 and 5000),
    rounds integer check (rounds between 1 and 50),
    seed bigint not null,
    -- the participants as asked ("top 8", "all active bots", or names), in words
    asked text not null check (length(asked) <= 400),
    status text not null default 'running'
        check (status in ('running', 'finished', 'cancelled')),
    created_by bigint references users (id) on delete set null,
    created_at timestamptz not null default now(),
    finished_at timestamptz
);

-- Participants in seeding order (`place`), each with the version that plays.
create table tournament_participants (
    tournament_id bigint not null references tournaments (id) on delete cascade,
    place integer not null check (place >= 0),
    bot_id bigint not null references bots (id) on delete cascade,
    version_id bigint not null references bot_versions (id) on delete cascade,
    primary key (tournament_id, place),
    unique (tournament_id, bot_id)
);

create table tournament_maps (
    tournament_id bigint not null references tournaments (id) on delete cascade,
    place integer not null check (place >= 0),
    map_id bigint not null references maps (id),
    primary key (tournament_id, place)
);

alter table matches
    add column tournament_id bigint references tournaments (id) on delete cascade,
    add column round integer check (round >= 0),
    -- a ladder match: neither a challenge's nor a tournament's; only these rate
    add column ranked boolean generated always as
        (challenge_id is null and tournament_id is null) stored;
create index matches_tournament on matches (tournament_id, id) where tournament_id is not null;

create or replace view bot_queue as
    select p.bot_id, count(*) as n
    from matches m join match_players p on p.match_id = m.id
    where m.status in ('queued', 'running') and m.ranked
    group by p.bot_id;
