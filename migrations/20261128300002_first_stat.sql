-- A seat's first statistic as a number (Vindinium's gold, Bottle Bats' forts), which
-- every list of games shows beside each player (`games::first_stat`): one definition,
-- read by the match lists, a challenge's games and a tournament's.
alter table match_players add column first_stat bigint generated always as (
    case when jsonb_typeof(stats -> 0 -> 1) = 'number' then (stats -> 0 ->> 1)::numeric::bigint end
) stored;
