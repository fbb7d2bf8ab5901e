-- A participant whose bot left the ladder while its tournament ran (its owner deleted
-- the account, or an organizer disabled it) is withdrawn: why, in words for everyone
-- (an organizer's own reason is its owner's to read). It is paired no more; its games
-- played so far still count, and the standings say it was withdrawn.
alter table tournament_participants add column withdrawn text;
