-- Challenges and A/B tests: unranked matches a bot's owner asks for. Their matches
-- are the ladder's (same queue, workers, pages) with `challenge_id` set; such a match
-- never changes a rating or a record.
create table challenges (
    id bigint generated always as identity primary key,
    kind text not null check (kind in ('challenge', 'abtest')),
    owner_id bigint not null references users (id) on delete cascade,
    bot_id bigint not null references bots (id) on delete cascade,
    -- the version that plays; an A/B test's A (the version active when it was made)
    version_id bigint not null references bot_versions (id) on delete cascade,
    -- an A/B test's B
    candidate_id bigint references bot_versions (id) on delete cascade,
    games integer not null check (games between 1 and 200),
    -- the opponents as asked for ("top 3", "near 2", or names), in words
    asked text not null check (length(asked) <= 400),
    created_at timestamptz not null default now(),
    check ((kind = 'abtest') = (candidate_id is not null))
);
create index challenges_owner on challenges (owner_id, created_at desc);
create index challenges_bot on challenges (bot_id, id desc);

alter table matches
    add column challenge_id bigint references challenges (id) on delete cascade,
    -- an A/B test's scenario (its two matches differ only in the version) and which
    -- version played it
    add column scenario integer check (scenario >= 0),
    add column arm text check (arm in ('a', 'b'));
create index matches_challenge on matches (challenge_id, id) where challenge_id is not null;
-- the workers' share of time given to challenges lately (see worker.rs, `claim`)
create index matches_started on matches (started_at desc) where started_at is not null;

-- organizers may turn challenges off; their queued matches then wait
alter table ranker add column challenges boolean not null default true;

-- matchmaking's load counts ranked matches only
create or replace view bot_queue as
    select p.bot_id, count(*) as n
    from matches m join match_players p on p.match_id = m.id
    where m.status in ('queued', 'running') and m.challenge_id is null
    group by p.bot_id;
