//! The ladder under failure: a worker that dies mid-match, two workers on one queue,
//! the database going away, voided matches, and the organizer's pause.

use crate::common;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use server::builds::Builder;
use server::ids::MatchId;
use server::ranker::{self, matchmaking::Settings};
use server::worker::{Claimed, ClaimedSeat, Played, Worker};
use sqlx::PgPool;

/// A ladder with the four house bots built and active, on short maps.
async fn ladder(db: &PgPool, test: &str) -> Builder {
    let b = common::house_ladder(db, &format!("ranker-{test}"), "ring-2p").await;
    let active: i64 =
        sqlx::query_scalar("select count(*) from bots where active_version_id is not null")
            .fetch_one(db)
            .await
            .unwrap();
    assert_eq!(active, 4, "the house bots are built");
    sqlx::query("update maps set enabled = (name in ('ring-2p', 'triad-3p'))")
        .execute(db)
        .await
        .unwrap();
    b
}

fn worker(b: &Builder, name: &str) -> Worker {
    common::worker(b, name, 60)
}

async fn games_total(db: &PgPool) -> i64 {
    sqlx::query_scalar("select sum(games)::bigint from bots")
        .fetch_one(db)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_worker_that_dies_mid_match_is_replaced_and_the_match_counts_once() {
    let db = common::fresh_db().await;
    let b = ladder(&db, "dies").await;
    assert_eq!(
        ranker::schedule(&db, 1, &Settings::default())
            .await
            .unwrap(),
        1
    );
    let dead = worker(&b, "dead");
    let claimed = dead.claim().await.unwrap().expect("a queued match");
    let players = claimed.players.len() as i64;
    // It played, but died before recording: its lease runs out.
    let result = dead.play(&claimed).await.unwrap().unwrap();
    sqlx::query("update matches set lease_until = now() - interval '1 second'")
        .execute(&db)
        .await
        .unwrap();

    let alive = worker(&b, "alive");
    assert!(alive.run_one().await.unwrap(), "the match is taken again");
    let (status, attempts): (String, i32) = sqlx::query_as("select status, attempts from matches")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!((status.as_str(), attempts), ("finished", 2));
    assert_eq!(games_total(&db).await, players);
    // The dead worker wakes up and tries to record its game: refused.
    assert!(!dead.record(&claimed, &result).await.unwrap());
    assert_eq!(games_total(&db).await, players, "counted once");
    let history: i64 = sqlx::query_scalar("select count(*) from rating_history")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(history, players);
}

#[tokio::test]
async fn a_recorded_match_holds_every_seats_result_rating_and_record() {
    let db = common::fresh_db().await;
    let b = ladder(&db, "record").await;
    let (claimed, result) = a_three_player_match_played_and_recorded(&db, &b).await;
    let ranks: Vec<u32> = result.players.iter().map(|p| p.rank).collect();
    assert!(ranks.contains(&1) && ranks.contains(&3), "ranks {ranks:?}");
    let after = server::ranker::rating::rate(
        &[(server::ranker::rating::MU, server::ranker::rating::SIGMA); 3],
        &ranks,
    );
    for (i, player) in claimed.players.iter().enumerate() {
        let seat = Seat {
            match_id: claimed.id,
            player,
            index: i,
            result: &result,
            after: after[i],
        };
        seat.holds_its_result_and_rating(&db).await;
        seat.holds_what_only_the_database_keeps(&db).await;
        seat.its_bot_holds_its_rating_and_record(&db).await;
    }
}

/// A three-player match (so the seats' rows are told apart), played to the end (so
/// the seats' ranks and ratings differ) and recorded.
async fn a_three_player_match_played_and_recorded(db: &PgPool, b: &Builder) -> (Claimed, Played) {
    let three = Settings {
        multi_player_share: 1.0,
        ..Settings::default()
    };
    assert_eq!(ranker::schedule(db, 1, &three).await.unwrap(), 1);
    let w = common::worker(b, "record", 1000);
    let claimed = w.claim().await.unwrap().expect("a queued match");
    assert_eq!(claimed.players.len(), 3);
    let result = w.play(&claimed).await.unwrap().unwrap();
    assert!(w.record(&claimed, &result).await.unwrap());
    (claimed, result)
}

/// One seat of a recorded match, and the rating it should have after it.
struct Seat<'a> {
    match_id: MatchId,
    player: &'a ClaimedSeat,
    index: usize,
    result: &'a Played,
    after: (f64, f64),
}

impl Seat<'_> {
    /// The outcome the seat's rank and the match's winner make.
    fn outcome(&self) -> &'static str {
        let rank = self.result.ranks[self.index];
        match (self.result.winner().map(|s| s as i32), rank) {
            (Some(w), _) if w == self.player.seat => "win",
            (None, 1) => "draw",
            _ => "loss",
        }
    }

    async fn holds_its_result_and_rating(&self, db: &PgPool) {
        let (seat, name, after) = (&self.player.seat, &self.player.name, self.after);
        let p = &self.result.players[self.index];
        type Row = (
            i32,
            String,
            i32,
            i64,
            i32,
            i32,
            Option<String>,
            f64,
            f64,
            f64,
            f64,
        );
        let row: Row = sqlx::query_as(
            "select rank, outcome, (stats->0->>1)::int, (stats->1->>1)::bigint, warnings, timeouts, \
                 error, mu_before, mu_after, \
                 sigma_after, (select mu from rating_history h where h.bot_id = p.bot_id and h.match_id = p.match_id) \
             from match_players p where match_id = $1 and seat = $2",
        )
        .bind(self.match_id)
        .bind(seat)
        .fetch_one(db)
        .await
        .unwrap();
        let outcome = self.outcome();
        let stats = &self.result.stats[self.index];
        assert_eq!((stats[0].0, stats[1].0), ("forts", "soldiers"));
        assert_eq!(
            (row.0 as u32, row.1.as_str(), i64::from(row.2), row.3),
            (
                self.result.ranks[self.index],
                outcome,
                stats[0].1,
                stats[1].1
            ),
            "{name}'s seat"
        );
        assert_eq!(
            (row.4 as u64, row.5 as u32, &row.6),
            (p.warnings, p.timeouts, &p.error)
        );
        assert_eq!(row.7, server::ranker::rating::MU, "{name} was new");
        assert!((row.8 - after.0).abs() < 1e-9 && (row.9 - after.1).abs() < 1e-9);
        assert!((row.10 - after.0).abs() < 1e-9, "{name}'s rating history");
    }

    /// The rest of the seat: what only the database keeps.
    async fn holds_what_only_the_database_keeps(&self, db: &PgPool) {
        let (seat, name, i) = (&self.player.seat, &self.player.name, self.index);
        let p = &self.result.players[i];
        let (problem, cpu_ms, sigma_before, stderr, finished): (Option<i32>, i64, f64, bool, bool) =
            sqlx::query_as(
                "select problem_turn, cpu_ms, sigma_before, stderr is not null, finished_at is not null \
                 from match_players where match_id = $1 and seat = $2",
            )
            .bind(self.match_id)
            .bind(seat)
            .fetch_one(db)
            .await
            .unwrap();
        assert_eq!(
            problem,
            server::worker::first_turn(&self.result.problems[i]),
            "{name}'s problem turn"
        );
        assert_eq!(cpu_ms, p.time_used.as_millis() as i64);
        assert_eq!(sigma_before, server::ranker::rating::SIGMA);
        assert!(stderr && finished, "{name}'s stderr and finish time");
    }

    async fn its_bot_holds_its_rating_and_record(&self, db: &PgPool) {
        let (bot_id, name, after) = (self.player.bot, &self.player.name, self.after);
        let bot: (f64, f64, i32, i32, i32, i32) =
            sqlx::query_as("select mu, sigma, games, wins, losses, draws from bots where id = $1")
                .bind(bot_id)
                .fetch_one(db)
                .await
                .unwrap();
        let (version_games, played): (i32, bool) = sqlx::query_as(
            "select version_games, last_game_at is not null from bots where id = $1",
        )
        .bind(bot_id)
        .fetch_one(db)
        .await
        .unwrap();
        assert_eq!(
            (version_games, played),
            (1, true),
            "{name}'s version played"
        );
        assert!((bot.0 - after.0).abs() < 1e-9 && (bot.1 - after.1).abs() < 1e-9);
        let outcome = self.outcome();
        let won = i32::from(outcome == "win");
        let drew = i32::from(outcome == "draw");
        assert_eq!(
            (bot.2, bot.3, bot.4, bot.5),
            (1, won, 1 - won - drew, drew),
            "{name}'s record"
        );
    }
}

#[tokio::test]
async fn two_workers_never_play_the_same_match() {
    let db = common::fresh_db().await;
    let b = ladder(&db, "two").await;
    ranker::schedule(&db, 6, &Settings::default())
        .await
        .unwrap();
    let (w1, w2) = (worker(&b, "one"), worker(&b, "two"));
    let drain = |w: Worker| async move {
        let mut played = 0;
        while w.run_one().await.unwrap() {
            played += 1;
        }
        played
    };
    let (a, c) = tokio::join!(drain(w1), drain(w2));
    assert_eq!(a + c, 6, "every match played once: {a} + {c}");
    let twice: i64 = sqlx::query_scalar(
        "select count(*) from (select match_id from rating_history group by match_id, bot_id having count(*) > 1) x",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(twice, 0);
    let finished: i64 = sqlx::query_scalar(
        "select count(*) from matches where status = 'finished' and attempts = 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(finished, 6, "no match was claimed by both");
}

#[tokio::test]
async fn a_voided_match_leaves_ratings_untouched() {
    let db = common::fresh_db().await;
    let b = ladder(&db, "void").await;
    ranker::schedule(&db, 2, &Settings::default())
        .await
        .unwrap();
    let before: Vec<(f64, f64, i32)> =
        sqlx::query_as("select mu, sigma, games from bots order by id")
            .fetch_all(&db)
            .await
            .unwrap();
    let ids: Vec<server::ids::MatchId> = sqlx::query_scalar("select id from matches order by id")
        .fetch_all(&db)
        .await
        .unwrap();
    assert!(ranker::void(&db, ids[0], "voided by the organizer")
        .await
        .unwrap());
    // The other is voided while a worker plays it: its result is refused.
    let w = worker(&b, "w");
    let claimed = w.claim().await.unwrap().unwrap();
    assert_eq!(claimed.id, ids[1]);
    let result = w.play(&claimed).await.unwrap().unwrap();
    assert!(ranker::void(&db, ids[1], "voided by the organizer")
        .await
        .unwrap());
    assert!(!w.record(&claimed, &result).await.unwrap());
    let after: Vec<(f64, f64, i32)> =
        sqlx::query_as("select mu, sigma, games from bots order by id")
            .fetch_all(&db)
            .await
            .unwrap();
    assert_eq!(before, after);
    assert!(!w.run_one().await.unwrap(), "voided matches are not played");
    // Requeued, it plays and counts.
    assert!(ranker::requeue(&db, ids[0]).await.unwrap());
    assert!(w.run_one().await.unwrap());
    assert!(games_total(&db).await > 0);
}

#[tokio::test]
async fn a_paused_ranker_schedules_and_plays_nothing() {
    let db = common::fresh_db().await;
    let b = ladder(&db, "pause").await;
    ranker::schedule(&db, 1, &Settings::default())
        .await
        .unwrap();
    ranker::set_paused(&db, true).await.unwrap();
    assert_eq!(
        ranker::schedule(&db, 5, &Settings::default())
            .await
            .unwrap(),
        0
    );
    assert!(!worker(&b, "w").run_one().await.unwrap());
    ranker::set_paused(&db, false).await.unwrap();
    assert!(worker(&b, "w").run_one().await.unwrap());
}

#[tokio::test]
async fn the_worker_loop_waits_out_the_database_going_away_and_continues() {
    // Its own cluster, so stopping it disturbs no other test.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ranker-db-away");
    let _ = std::fs::remove_dir_all(&dir);
    let pg = tokio::task::spawn_blocking({
        let dir = dir.clone();
        move || server::db::EmbeddedPg::start(&dir, None)
    })
    .await
    .unwrap()
    .unwrap();
    pg.create_database("bottlebats").await.unwrap();
    let db = sqlx::postgres::PgPoolOptions::new()
        .max_connections(4)
        .acquire_timeout(Duration::from_secs(2))
        .connect_with(pg.options("bottlebats"))
        .await
        .unwrap();
    server::db::MIGRATOR.run(&db).await.unwrap();
    let b = ladder(&db, "away").await;
    let w = worker(&b, "steady");
    let stop = w.stop.clone();
    let task = tokio::spawn(w.run(2, Settings::default()));
    let finished = || async {
        sqlx::query_scalar::<_, i64>("select count(*) from matches where status = 'finished'")
            .fetch_one(&db)
            .await
    };
    tokio::time::sleep(Duration::from_secs(3)).await;
    let pg = Arc::new(pg);
    let stopper = pg.clone();
    tokio::task::spawn_blocking(move || stopper.stop_now())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(!task.is_finished(), "the loop did not give up or panic");
    let starter = pg.clone();
    tokio::task::spawn_blocking(move || starter.start_again())
        .await
        .unwrap()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut before = None;
    loop {
        if let Ok(n) = finished().await {
            match before {
                None => before = Some(n),
                Some(b) if n > b => break,
                _ => {}
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "matches are played again after the database returns"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    stop.store(true, Ordering::Relaxed);
    tokio::time::timeout(Duration::from_secs(60), task)
        .await
        .unwrap()
        .unwrap();
    db.close().await;
    tokio::task::spawn_blocking(move || pg.stop_now())
        .await
        .unwrap();
}
