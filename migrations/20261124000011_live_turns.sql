-- Live matches: the worker playing a match writes its compact replay's head and rows
-- here as the turns are played (engine::replay_v2::Encoder), for any server to stream;
-- they are dropped once the match is recorded (its stored replay has them all).
create table live_matches (
    match_id bigint primary key references matches (id) on delete cascade,
    -- the compact replay without its turns and result (JSON)
    head text not null,
    started_at timestamptz not null default now()
);

create table live_turns (
    match_id bigint not null references live_matches (match_id) on delete cascade,
    turn integer not null check (turn >= 0),
    -- the turn's row of the compact replay (JSON)
    row text not null,
    primary key (match_id, turn)
);
