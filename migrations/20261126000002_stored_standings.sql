-- A finished tournament's standings (the fit, its bootstrap and the cross table), made
-- once and read by every visitor after; running tournaments' are kept in memory.
alter table tournaments add column standings jsonb;
