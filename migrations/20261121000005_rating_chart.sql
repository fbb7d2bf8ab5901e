-- A bot's page draws its rating history in time order: read it from this index alone,
-- in order, instead of fetching every row of the bot and sorting them
-- (bench/pages.sh: a bot with 450 games).
create index rating_history_chart on rating_history (bot_id, at, match_id) include (mu, sigma);
