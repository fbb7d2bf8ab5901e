-- The contest's end: a submission deadline (none: submissions stay open), and whether
-- the ladder stops playing ranked matches once it has passed.
alter table ranker
    add column deadline timestamptz,
    add column freeze_at_deadline boolean not null default false;
