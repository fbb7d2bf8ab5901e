-- A challenge may seat one opponent several times ("me against 3 × strong"): a seat,
-- not a bot, is a match's player. The ladder and tournaments still seat a bot once
-- (`ranker::insert_match` refuses anything else for them), so ratings, records and
-- pairings, which are per bot, only ever meet a bot once a match.
alter table match_players drop constraint match_players_match_id_bot_id_key;
