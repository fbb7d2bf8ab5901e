//! Tournaments played by real bots: what the API, the exports and the page say, that
//! their games come before the ladder's and never move a rating, and that a game whose
//! worker lost it counts once.

use serde_json::{json, Value};

use super::site;
use crate::challenges::{api_json, ladder_state};
use crate::common;

const HOUSE: [&str; 4] = ["idle", "random", "greedy", "strong"];

#[tokio::test]
async fn a_round_robin_plays_every_pair_on_every_map_before_the_ladder_and_rates_nobody() {
    let (mut c, b, token) = site("round-robin").await;
    // Ranked matches waiting already: the tournament's still go first.
    let made = server::ranker::schedule(&c.state.db, 4, &Default::default())
        .await
        .unwrap();
    assert!(made > 0);
    let before = ladder_state(&c).await;
    let ask = json!({"name": "Final", "participants": HOUSE, "format": "round-robin",
                     "maps": ["ring-2p", "duel-2p"], "seed": 5});
    let r = api_json(&mut c, "/api/tournaments", &token, &ask).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    assert_eq!(r.json()["url"], format!("/tournaments/{id}"));
    // 4 bots: 12 ordered pairs, on 2 maps.
    assert_eq!(r.json()["queued"], 24);

    let w = common::worker(&b, "finalist", 60);
    for _ in 0..24 {
        let m = w.claim().await.unwrap().expect("a match to play");
        assert!(
            m.tournament.is_some(),
            "a ranked match went before the tournament's"
        );
        assert!(!m.ranked);
        let result = w.play(&m).await.unwrap().unwrap();
        assert!(w.record(&m, &result).await.unwrap());
        if let Some(t) = m.tournament {
            server::tournaments::advance(&c.state.db, t).await.unwrap();
        }
    }
    assert_eq!(
        ladder_state(&c).await,
        before,
        "tournament games moved the ladder"
    );

    let v = c.get(&format!("/api/tournaments/{id}")).await.json();
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(
        (v["done"].as_u64(), v["total"].as_u64()),
        (Some(24), Some(24))
    );
    every_ordered_pair_played_once_on_each_map(&v);
    the_standings_add_up(&v);
    the_exports_and_pages_say_the_same(&mut c, id, &v).await;
}

/// The CSV, the page, a pair's games and the match lists.
async fn the_exports_and_pages_say_the_same(c: &mut crate::common::Client, id: i64, v: &Value) {
    let (status, csv) = c
        .get_bytes(&format!("/tournaments/{id}/standings.csv"))
        .await;
    assert_eq!(status, 200);
    let csv = String::from_utf8(csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5, "{csv}");
    assert!(lines[0].starts_with("rank,bot,version,games,points,strength"));
    let first = v["standings"][0]["bot"].as_str().unwrap();
    assert!(lines[1].starts_with(&format!("1,{first},1,12,")), "{csv}");
    let page = c.stranger().get(&format!("/tournaments/{id}")).await;
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("Finished: 24 of 24 games"),
        "{}",
        page.body
    );
    assert!(page.body.contains("data-live-done"));
    assert!(page.body.contains("is the strongest with probability"));
    // Each player of the latest games with its forts, as the match lists show them.
    assert!(
        page.body.contains("<small class=\"first-stat\">") && page.body.contains(" forts</small>"),
        "{}",
        page.body
    );
    // A cross-table cell opens that pair's games: 4 of them, both seats, both maps.
    let pair = c
        .get(&format!("/tournaments/{id}/games?a=strong&b=idle"))
        .await;
    assert_eq!(pair.status, 200);
    assert_eq!(
        pair.body.matches("<tr><td class=\"id\">").count(),
        4,
        "{}",
        pair.body
    );
    assert!(pair.body.contains(" forts</small>"), "{}", pair.body);
    // Its matches are tagged as the tournament's, and left out of the ranked list.
    let m = v["matches"][0]["id"].as_i64().unwrap();
    let page = c.get(&format!("/matches/{m}")).await.body;
    assert!(
        page.contains(&format!("href=\"/tournaments/{id}\"")),
        "{page}"
    );
    let ranked = c.get("/api/matches?kind=ranked").await.json();
    assert!(ranked["matches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x["tournament"].is_null()));
}

fn every_ordered_pair_played_once_on_each_map(v: &Value) {
    let mut seen = std::collections::HashSet::new();
    for m in v["matches"].as_array().unwrap() {
        assert_eq!(m["status"], "finished");
        let p = &m["players"];
        let key = (p[0].to_string(), p[1].to_string(), m["map"].to_string());
        assert!(seen.insert(key.clone()), "{key:?} twice");
    }
    assert_eq!(seen.len(), 24);
}

/// Every duel hands out one point; the leader has the most; every interval holds its
/// strength; the cross table is each pair's record both ways.
fn the_standings_add_up(v: &Value) {
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let total: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert!((total - 24.0).abs() < 1e-9, "{total}");
    let points: Vec<f64> = rows.iter().map(|r| r["points"].as_f64().unwrap()).collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    for r in rows {
        let (s, lo, hi) = (
            r["strength"].as_f64().unwrap(),
            r["interval"][0].as_f64().unwrap(),
            r["interval"][1].as_f64().unwrap(),
        );
        assert!(lo <= s && s <= hi, "{r}");
        assert_eq!(r["games"], 12);
    }
    let p = v["leader_strongest"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    // Each pair met 4 times; a row's wins are the column's losses.
    let cross = v["cross"].as_array().unwrap();
    for row in cross {
        for cell in row["against"].as_array().unwrap() {
            let n = |k: &str| cell[k].as_u64().unwrap();
            assert_eq!(n("wins") + n("draws") + n("losses"), 4, "{cell}");
            let other = cross.iter().find(|r| r["bot"] == cell["bot"]).unwrap();
            let back = other["against"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["bot"] == row["bot"])
                .unwrap();
            assert_eq!(back["losses"], cell["wins"], "{row}");
        }
    }
}

/// A worker that loses its lease mid-game: another plays the game again and records
/// it; the first one's result is dropped. The game counts once in the standings.
#[tokio::test]
async fn a_tournament_game_whose_worker_lost_it_counts_once() {
    let (mut c, b, token) = site("exactly-once").await;
    let ask = json!({"name": "Duel", "participants": ["idle", "strong"],
                     "format": "round-robin", "maps": ["ring-2p"]});
    let r = api_json(&mut c, "/api/tournaments", &token, &ask).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    let slow = common::worker(&b, "slow", 60);
    let m = slow.claim().await.unwrap().unwrap();
    let late = slow.play(&m).await.unwrap().unwrap();
    // Its lease runs out before it records: another worker takes the game over.
    sqlx::query("update matches set lease_until = now() - interval '1 second' where id = $1")
        .bind(m.id.0)
        .execute(&c.state.db)
        .await
        .unwrap();
    let quick = common::worker(&b, "quick", 60);
    while quick.run_one().await.unwrap() {}
    assert!(
        !slow.record(&m, &late).await.unwrap(),
        "a lost game was recorded twice"
    );
    let v = c.get(&format!("/api/tournaments/{id}")).await.json();
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["done"], 2);
    let games: Vec<u64> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [2, 2]);
    let seats: i64 = sqlx::query_scalar(
        "select count(*) from match_players p join matches m on m.id = p.match_id
         where m.tournament_id = $1 and p.rank is not null",
    )
    .bind(id)
    .fetch_one(&c.state.db)
    .await
    .unwrap();
    assert_eq!(seats, 4);
}

/// Swiss: round after round, paired by score without a repeat while one is avoidable,
/// until the rounds asked for are played.
#[tokio::test]
async fn a_swiss_tournament_pairs_each_round_from_the_scores_so_far() {
    let (mut c, b, token) = site("swiss").await;
    let ask = json!({"name": "Swiss", "participants": "all", "format": "swiss",
                     "rounds": 3, "maps": ["ring-2p"], "seed": 11});
    let r = api_json(&mut c, "/api/tournaments", &token, &ask).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_i64().unwrap();
    // One round at a time: 2 pairs, both seat orders.
    assert_eq!(r.json()["queued"], 4);
    let w = common::worker(&b, "swiss", 60);
    while w.run_one().await.unwrap() {}
    let v = c.get(&format!("/api/tournaments/{id}")).await.json();
    assert_eq!(v["status"], "finished", "{v}");
    assert_eq!(v["total"], 12);
    let mut pairs = std::collections::HashSet::new();
    for round in 0..3 {
        let games: Vec<&Value> = v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["round"] == round)
            .collect();
        assert_eq!(games.len(), 4, "round {round}");
        for g in games {
            let mut p: Vec<String> = g["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            p.sort();
            pairs.insert(p);
        }
    }
    // 4 bots have 6 pairs: three rounds of two never repeat one.
    assert_eq!(pairs.len(), 6, "{pairs:?}");
}
