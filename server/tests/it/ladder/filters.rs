//! Every filter of the match list, alone and combined, lists exactly its matches,
//! newest first, across pages.

use super::ladder;
use crate::common::Client;

use axum::http::StatusCode;
use sqlx::PgPool;

/// Every page of `/api/matches` with `query`, followed through its cursors.
async fn all_pages(c: &mut Client, query: &str) -> Vec<i64> {
    let mut ids = Vec::new();
    let mut cursor = None;
    loop {
        let sep = if query.is_empty() { "" } else { "&" };
        let path = match cursor {
            Some(cur) => format!("/api/matches?{query}{sep}cursor={cur}"),
            None => format!("/api/matches?{query}"),
        };
        let r = c.get(&path).await;
        assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.body);
        let v: serde_json::Value = serde_json::from_str(&r.body).unwrap();
        ids.extend(
            v["matches"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["id"].as_i64().unwrap()),
        );
        match v["next_cursor"].as_i64() {
            Some(next) => cursor = Some(next),
            None => return ids,
        }
    }
}

#[tokio::test]
async fn every_filter_lists_exactly_its_matches_newest_first_across_pages() {
    let (mut c, _) = ladder("filters", 4).await;
    let db = c.state.db.clone();
    copies_of_every_match_over_pages_of_minutes_and_maps(&db).await;
    let house = server::house::ACCOUNT;
    // (bot, user, map, whether the list is longer than a page)
    for (bot, user, map, long) in [
        (None, None, None, true),
        (Some("chatty"), None, None, true),
        (Some("random"), None, None, false),
        (None, Some("alice"), None, true),
        // The house's bots share an owner and meet each other: once per match.
        (None, Some(house), None, true),
        (None, None, Some("duel-2p"), true),
        (Some("chatty"), None, Some("duel-2p"), false),
        (None, Some("alice"), Some("ring-2p"), false),
        (Some("random"), Some("alice"), None, false),
        (Some("nobody"), None, None, false),
    ] {
        let expected = finished_matches_of(&db, bot, user, map).await;
        let query: Vec<String> = [("bot", bot), ("user", user), ("map", map)]
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| format!("{k}={v}")))
            .collect();
        let query = query.join("&");
        let listed = all_pages(&mut c, &query).await;
        assert_eq!(listed, expected, "?{query}");
        assert!(
            !long || expected.len() > 50,
            "?{query} spans pages: {}",
            expected.len()
        );
    }
}

/// Copies of each finished match with its seats, some moved to another map, their
/// finish times spread back over minutes with ties (the id decides among equals), so
/// that every filter spans several pages: 60 copies, because the ladder may have given
/// alice's bot a single match.
async fn copies_of_every_match_over_pages_of_minutes_and_maps(db: &PgPool) {
    let played: Vec<i64> =
        sqlx::query_scalar("select id from matches where status = 'finished' order by id")
            .fetch_all(db)
            .await
            .unwrap();
    for g in 0..60i32 {
        for &orig in &played {
            let copy: i64 = sqlx::query_scalar(
                "insert into matches (status, map_id, turns, started_at, finished_at, replay, attempts) \
                 select 'finished', case when $2 % 3 = 0 then (select id from maps where name = 'duel-2p') else map_id end, \
                     turns, started_at, finished_at - ($2 % 7) * interval '1 minute', replay, 1 \
                 from matches where id = $1 returning id",
            )
            .bind(orig)
            .bind(g)
            .fetch_one(db)
            .await
            .unwrap();
            sqlx::query(
                "insert into match_players (match_id, seat, bot_id, version_id, rank, outcome, finished_at) \
                 select $1, p.seat, p.bot_id, p.version_id, p.rank, p.outcome, m.finished_at \
                 from match_players p, matches m where p.match_id = $2 and m.id = $1",
            )
            .bind(copy)
            .bind(orig)
            .execute(db)
            .await
            .unwrap();
        }
    }
}

/// The finished matches with bot `bot`, of user `user`, on map `map` (each when
/// given), newest first, straight from the database.
async fn finished_matches_of(
    db: &PgPool,
    bot: Option<&str>,
    user: Option<&str>,
    map: Option<&str>,
) -> Vec<i64> {
    sqlx::query_scalar(
        "select m.id from matches m join maps on maps.id = m.map_id where m.status = 'finished' \
           and ($1::text is null or exists (select 1 from match_players p join bots b on b.id = p.bot_id \
               where p.match_id = m.id and b.name = $1)) \
           and ($2::text is null or exists (select 1 from match_players p join bots b on b.id = p.bot_id \
               join users u on u.id = b.owner_id where p.match_id = m.id and u.name = $2)) \
           and ($3::text is null or maps.name = $3) \
         order by m.finished_at desc, m.id desc",
    )
    .bind(bot)
    .bind(user)
    .bind(map)
    .fetch_all(db)
    .await
    .unwrap()
}
