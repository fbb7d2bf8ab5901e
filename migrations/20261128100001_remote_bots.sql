-- Remote bots (docs/remote.md): a bot whose process runs on its owner's machine and
-- plays through a connection to the site. It has no upload and no build; its one
-- version (language 'remote') stands for "whatever its owner runs".

alter table bots
    add column remote boolean not null default false,
    -- matches offered in a row that its session did not accept in time
    add column remote_no_shows integer not null default 0 check (remote_no_shows >= 0),
    -- set after too many no-shows: its sessions are refused, and its page says why,
    -- until its owner resumes it
    add column remote_paused text check (length(remote_paused) <= 300);

-- A remote bot's keys: only the sha256 is kept (the key is shown once). At most one
-- key of a bot is live; a new one revokes the old.
create table remote_keys (
    id bigint generated always as identity primary key,
    bot_id bigint not null references bots (id) on delete cascade,
    key_hash bytea not null unique check (length(key_hash) = 32),
    created_at timestamptz not null default now(),
    revoked_at timestamptz,
    last_used_at timestamptz
);
create unique index remote_keys_live on remote_keys (bot_id) where revoked_at is null;

-- The sessions connected now, one per bot at most, whichever server holds them (the
-- holder renews `seen_at`; a row not renewed for a minute is a dead server's).
create table remote_sessions (
    bot_id bigint primary key references bots (id) on delete cascade,
    session uuid not null,
    holder text not null,
    mode text not null check (mode in ('ladder', 'practice')),
    connected_at timestamptz not null default now(),
    seen_at timestamptz not null default now()
);

-- A match with a remote bot's seat is played only by the server holding that bot's
-- session (never claimed by a worker), and a practice game rates nobody.
alter table matches
    add column remote boolean not null default false,
    add column practice boolean not null default false;
drop view bot_queue;
alter table matches drop column ranked;
alter table matches
    -- a ladder match: neither a challenge's, a tournament's nor a practice game; only
    -- these rate
    add column ranked boolean generated always as
        (challenge_id is null and tournament_id is null and not practice) stored;
create view bot_queue as
    select p.bot_id, count(*) as n
    from matches m join match_players p on p.match_id = m.id
    where m.status in ('queued', 'running') and m.ranked
    group by p.bot_id;

-- Each seat's reply times in a match, on the server's clock for a remote bot (its
-- network included) and as the runner measured them for a hosted one:
-- {"moves", "median_ms", "p90_ms", "max_ms"}, for the match page.
alter table match_players add column reply_ms jsonb;

-- Whichever code seats a remote bot (the ladder's, a tournament's), its match is
-- marked remote by the database.
create function match_remote() returns trigger language plpgsql as $$
begin
    update matches m set remote = true
    where m.id in (select a.match_id from added a join bots b on b.id = a.bot_id where b.remote)
      and not m.remote;
    return null;
end $$;
create trigger match_remote after insert on match_players
    referencing new table as added for each statement execute function match_remote();

-- What remote bots may do on this site, and whether they may enter tournaments (the
-- `remote` and `remote_tournaments` settings, written at each start).
alter table ranker
    add column remote text not null default 'ladder' check (remote in ('off', 'practice', 'ladder')),
    add column remote_tournaments boolean not null default false;
