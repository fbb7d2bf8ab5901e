-- A new bot's rating is the ranker's to say (`ranker/rating.rs`: `MU` and `SIGMA`), and
-- every insert into bots gives it: the columns keep no second copy of those numbers.
alter table bots
    alter column mu drop default,
    alter column sigma drop default;
