-- Deleting an account keeps the history its bots made: the account and its bots stay,
-- anonymised (named `deleted~ID`, a name no registration or upload can take), the bots
-- out of the ladder and their code gone; their seats in past matches, challenges and
-- tournaments are kept, so standings and replays still add up.
alter table users add column deleted_at timestamptz;
alter table users drop constraint users_name_check;
alter table users add constraint users_name_check
    check (name ~ '^[A-Za-z0-9_-]{2,32}$' or (deleted_at is not null and name ~ '^deleted~[0-9]+$'));
alter table bots drop constraint bots_name_check;
alter table bots add constraint bots_name_check
    check (name ~ '^[A-Za-z0-9_-]{1,32}$' or name ~ '^deleted~[0-9]+$');
