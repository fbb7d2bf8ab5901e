-- The ladder: maps, ratings, the match queue and its results, workers.

create table maps (
    id bigint generated always as identity primary key,
    name text not null unique check (name ~ '^[A-Za-z0-9_.-]{1,64}$'),
    -- the map in the text format of the rules
    text text not null,
    seats integer not null check (seats between 2 and 16),
    forts integer not null check (forts > 0),
    enabled boolean not null default true,
    created_at timestamptz not null default now()
);

-- Ratings live on the bot (Weng-Lin mu and sigma); a new version keeps mu and resets
-- sigma. The leaderboard sorts by mu - 3 * sigma.
alter table bots
    add column mu double precision not null default 25.0,
    add column sigma double precision not null default 8.333333333333334 check (sigma > 0),
    add column games integer not null default 0,
    add column wins integer not null default 0,
    add column losses integer not null default 0,
    add column draws integer not null default 0,
    -- games played by the active version: new versions are scheduled first
    add column version_games integer not null default 0,
    add column last_game_at timestamptz,
    -- an organizer can take a bot out of the ladder
    add column disabled boolean not null default false;

create table matches (
    id bigint generated always as identity primary key,
    status text not null default 'queued' check (status in ('queued', 'running', 'finished', 'void')),
    void_reason text check ((status = 'void') = (void_reason is not null)),
    map_id bigint not null references maps (id),
    -- the worker holding it and until when; renewed while it plays
    lease_owner text,
    lease_until timestamptz,
    attempts integer not null default 0,
    created_at timestamptz not null default now(),
    started_at timestamptz,
    finished_at timestamptz,
    turns integer,
    -- seat of the winner; null for a draw
    winner_seat integer,
    -- gzip of the JSON replay
    replay bytea,
    check ((status = 'finished') = (finished_at is not null and replay is not null))
);
create index matches_queue on matches (id) where status in ('queued', 'running');
create index matches_finished on matches (finished_at desc, id desc) where status = 'finished';

create table match_players (
    match_id bigint not null references matches (id) on delete cascade,
    seat integer not null check (seat >= 0),
    bot_id bigint not null references bots (id) on delete cascade,
    version_id bigint not null references bot_versions (id) on delete cascade,
    -- filled when the match is finished
    rank integer check (rank >= 1),
    outcome text check (outcome in ('win', 'loss', 'draw')),
    forts integer,
    soldiers bigint,
    warnings integer,
    timeouts integer,
    error text,
    cpu_ms bigint,
    -- gzip of the bot's stderr: shown to the bot's owner only
    stderr bytea,
    mu_before double precision,
    sigma_before double precision,
    mu_after double precision,
    sigma_after double precision,
    primary key (match_id, seat),
    unique (match_id, bot_id)
);
create index match_players_bot on match_players (bot_id, match_id desc);

-- Every rating change, for the rating chart of a bot.
create table rating_history (
    bot_id bigint not null references bots (id) on delete cascade,
    match_id bigint not null references matches (id) on delete cascade,
    mu double precision not null,
    sigma double precision not null,
    at timestamptz not null default now(),
    primary key (bot_id, match_id)
);

-- Workers say they are alive; the admin page shows when each was last heard of.
create table workers (
    name text primary key,
    started_at timestamptz not null default now(),
    heartbeat_at timestamptz not null default now(),
    match_id bigint references matches (id) on delete set null
);

-- One row: whether the ranker schedules and plays matches.
create table ranker (
    id boolean primary key default true check (id),
    paused boolean not null default false
);
insert into ranker default values;
