-- Bots and their versions. A version is an uploaded archive that is built in the
-- sandbox, smoke-tested against a house bot, and then becomes the bot's active
-- version; the versions table is also the build queue.

create table bots (
    id bigint generated always as identity primary key,
    owner_id bigint not null references users (id) on delete cascade,
    -- unique whatever the case (see bots_name_key); shown on the leaderboard
    name text not null check (name ~ '^[A-Za-z0-9_-]{1,32}$'),
    -- the version that plays; set once a version passes its smoke test
    active_version_id bigint,
    created_at timestamptz not null default now()
);
create unique index bots_name_key on bots (lower(name));
create index bots_owner_id on bots (owner_id);

create table bot_versions (
    id bigint generated always as identity primary key,
    bot_id bigint not null references bots (id) on delete cascade,
    -- 1, 2, 3, ... per bot
    number integer not null check (number > 0),
    -- a key of the languages table, or 'custom'
    language text not null,
    -- the file the language found, e.g. bot.py
    entry text not null,
    -- for 'custom': the contestant's commands, as in 2016
    compile_command text,
    run_command text,
    -- the upload as sent: a single file, a .zip or a .tar.gz
    archive bytea not null,
    archive_name text not null,
    archive_sha256 bytea not null check (length(archive_sha256) = 32),
    status text not null default 'pending'
        check (status in ('pending', 'building', 'testing', 'active', 'failed', 'retired')),
    -- why it failed, in words for its owner
    failure text check ((status = 'failed') = (failure is not null)),
    build_log text,
    -- the smoke-test game: gzip of the JSON replay, and the bot's stderr
    smoke_replay bytea,
    smoke_stderr text,
    -- a builder holds a version while it works on it; an expired lease frees it
    lease_until timestamptz,
    attempts integer not null default 0,
    created_at timestamptz not null default now(),
    finished_at timestamptz,
    unique (bot_id, number)
);
create index bot_versions_queue on bot_versions (id) where status in ('pending', 'building', 'testing');

alter table bots add constraint bots_active_version_fkey
    foreign key (active_version_id) references bot_versions (id) on delete set null;
