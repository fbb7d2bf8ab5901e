//! A remote bot on the ladder: rated games of Bottle Bats and of Vindinium played from
//! "home" (`bottlebats connect`), the bot flagged remote wherever it is shown, the same
//! program uploaded playing the same moves, and practice games.

use std::time::Duration;

use serde_json::Value;

use super::{connect, get_json, key, matches_of, site, user, Site};

/// A stored replay, as the site serves it.
fn replay(site: &Site, id: i64) -> Value {
    get_json(site, &format!("/matches/{id}/replay.json"))
}

#[test]
fn a_remote_bot_plays_rated_games_of_both_games_and_is_flagged_remote() {
    let (site, db) = site("remote-ladder", &[]);
    user(&site, "alice");
    for (game, bot) in [("bottlebats", "alice-bats"), ("vindinium", "alice-hero")] {
        let key = key(&site, "alice", bot, game);
        let mut home = connect(&site.url, &key, &["--games", "2"], &[]);
        home.wait_line(
            &format!("connected as `{bot}` ({game}, ladder)"),
            Duration::from_secs(30),
        );
        let offered = home.wait_line(", ranked, ", Duration::from_secs(60));
        assert!(
            offered.contains(&format!("{}/matches/", site.url)),
            "{offered}"
        );
        let (status, out) = home.wait_exit(Duration::from_secs(600));
        assert!(status.success(), "{out}");
        assert!(out.contains("played 2 match(es); done"), "{out}");
        // Each match's result and reply times, and the bot's stderr shown at home.
        assert!(out.contains("reply time on the site's clock"), "{out}");
        assert!(out.contains("turn 0"), "{out}");
        let played = matches_of(&db, bot);
        assert_eq!(played.len(), 2, "{played:?}");
        assert!(
            played
                .iter()
                .all(|&(_, ranked, practice, remote)| ranked && !practice && remote),
            "{played:?}"
        );
        // Rated on its game's ladder, with the same ratings as everyone.
        let board = get_json(&site, &format!("/api/leaderboard?game={game}"));
        let me = (board["leaderboard"].as_array().unwrap().iter())
            .find(|b| b["bot"] == bot)
            .unwrap_or_else(|| panic!("{bot} on the {game} leaderboard: {board}"));
        assert_eq!(me["games"], 2, "{me}");
        assert_eq!(me["remote"], true, "{me}");
        let them = board["leaderboard"].as_array().unwrap();
        assert!(them.iter().any(|b| b["remote"] == false), "{board}");
        // Its page and API say so; its matches show its seat as remote.
        let api = get_json(&site, &format!("/api/bots/{bot}"));
        assert_eq!(api["remote"], true, "{api}");
        // Its page promises no place in the hosted ladder's line: it plays when its
        // session waits, and the page says whether one does.
        let (_, page) = site.request("GET", &format!("/bots/{bot}"), &[], b"");
        assert!(page.contains("class=\"remote-state"), "{page}");
        assert!(!page.contains("Next match:"), "{page}");
        let id = played[0].0;
        let m = get_json(&site, &format!("/api/matches/{id}"));
        let seat = (m["players"].as_array().unwrap().iter())
            .find(|p| p["bot"] == bot)
            .unwrap_or_else(|| panic!("{m}"));
        assert_eq!(seat["remote"], true, "{m}");
        // Its process ran at home: no CPU time measured here to give.
        assert_eq!(seat["cpu_ms"], serde_json::Value::Null, "{m}");
        let (_, page) = site.request("GET", &format!("/matches/{id}"), &[], b"");
        assert!(page.contains("class=\"remote\""), "{page}");
        let (_, page) = site.request("GET", &format!("/bots/{bot}"), &[], b"");
        assert!(page.contains("class=\"remote\""), "{page}");
        // The replay keeps each reply's time, the network included.
        assert!(replay(&site, id).to_string().contains("\"ms\""));
    }
}

/// `value` without its reply times (`ms`, which differ from one run to the next), with
/// `from` written `to` wherever it is a whole string (a player's name).
fn moves_only(value: &Value, from: &str, to: &str) -> Value {
    match value {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| *k != "ms" && *k != "reply_ms")
                .map(|(k, v)| (k.clone(), moves_only(v, from, to)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|v| moves_only(v, from, to)).collect()),
        Value::String(s) if s == from => Value::String(to.to_string()),
        other => other.clone(),
    }
}

/// Uploads `bot.py` (the same file `bottlebats connect` runs) as `name`, for `game`,
/// with `user`'s API token, and waits until it plays.
fn upload_twin(site: &Site, db: &super::Db, user: &str, name: &str, game: &str) {
    let out = site.admin(&["create-token", user, "--name", name]);
    let token = out.lines().last().unwrap().trim().to_string();
    let source = std::fs::read(super::fixture()).unwrap();
    let (content_type, body) =
        crate::common::multipart(&[("name", name), ("game", game)], Some(("bot.py", &source)));
    let auth = format!("Bearer {token}");
    let headers = [
        ("Content-Type", content_type.as_str()),
        ("Authorization", auth.as_str()),
    ];
    let (status, answer) = site.request("POST", "/api/bots", &headers, &body);
    assert_eq!(status, 201, "{answer}");
    db.wait_for(
        &format!("select active_version_id is not null from bots where name = '{name}'"),
        Duration::from_secs(120),
        "the uploaded twin built and tested",
    );
}

/// Whether a replay shows a bot late, crashed or at a limit: on a busy machine a bot may
/// be late in one run and not in the other, and the two games then part.
fn troubled(replay: &Value) -> bool {
    let text = replay.to_string();
    ["timeout", "crash", "limit", "unresponsive"]
        .iter()
        .any(|w| text.contains(w))
}

/// The first move (Vindinium) or turn (Bottle Bats) where two replays part, for the
/// failure's message.
fn first_difference(a: &Value, b: &Value) -> String {
    for key in ["moves", "turns"] {
        if let (Some(x), Some(y)) = (a.get(key), b.get(key)) {
            let (x, y) = (x.to_string(), y.to_string());
            let at = x.bytes().zip(y.bytes()).take_while(|(p, q)| p == q).count();
            return format!("`{key}` parts at byte {at} of {}", x.len().max(y.len()));
        }
    }
    "elsewhere".into()
}

#[test]
fn the_same_program_uploaded_plays_the_same_moves() {
    let (site, db) = site("remote-twin", &[]);
    user(&site, "bob");
    for (game, remote, twin) in [
        ("bottlebats", "bob-home", "bob-upload"),
        ("vindinium", "bob-hero", "bob-hero-upload"),
    ] {
        let key = key(&site, "bob", remote, game);
        upload_twin(&site, &db, "bob", twin, game);
        let mut compared = false;
        for _attempt in 0..3 {
            let mut home = connect(&site.url, &key, &["--games", "1"], &[]);
            let (status, out) = home.wait_exit(Duration::from_secs(600));
            assert!(status.success(), "{out}");
            let played = matches_of(&db, remote)[0].0;
            // The same match again: the same map and seats, the uploaded bot in the
            // remote one's seat (the house bots are seeded by their own names).
            let again = db.id(&format!(
                "with m as (insert into matches (map_id) select map_id from matches where id = {played}
                            returning id),
                      p as (insert into match_players (match_id, seat, bot_id, version_id)
                            select m.id, p.seat, coalesce(t.id, p.bot_id),
                                coalesce(t.active_version_id, p.version_id)
                            from m, match_players p join bots b on b.id = p.bot_id
                            left join bots t on b.name = '{remote}' and t.name = '{twin}'
                            where p.match_id = {played})
                 select id from m"
            ));
            db.wait_for(
                &format!("select status = 'finished' from matches where id = {again}"),
                Duration::from_secs(600),
                "the uploaded bot's match played",
            );
            let remote_replay = replay(&site, played);
            let hosted_replay = replay(&site, again);
            if troubled(&remote_replay) || troubled(&hosted_replay) {
                eprintln!("{game}: a bot was late in match {played} or {again}: again");
                continue;
            }
            let (r, h) = (
                moves_only(&remote_replay, remote, twin),
                moves_only(&hosted_replay, twin, twin),
            );
            assert!(
                r == h,
                "{game}: the remote bot (match {played}) and the uploaded one (match {again}) \
                 played differently: {}\n{remote_replay}\n{hosted_replay}",
                first_difference(&r, &h)
            );
            // A whole game was played (not over at once).
            let length = (remote_replay
                .get("moves")
                .and_then(Value::as_str)
                .map(str::len))
            .or_else(|| remote_replay["turns"].as_array().map(Vec::len))
            .unwrap_or(0);
            assert!(length > 20, "{remote_replay}");
            compared = true;
            break;
        }
        assert!(compared, "{game}: every attempt had a late bot");
    }
}

#[test]
fn practice_games_are_unrated_and_against_house_bots_only() {
    let (site, db) = site("remote-practice", &["--remote", "practice"]);
    user(&site, "carol");
    user(&site, "dave");
    let key = key(&site, "carol", "carol-practice", "bottlebats");
    // Another contestant's hosted bot is on the ladder: practice never meets it.
    upload_twin(&site, &db, "dave", "dave-hosted", "bottlebats");
    // On a site that allows practice only, asking for the ladder is refused and says
    // why.
    let mut ladder = connect(&site.url, &key, &[], &[]);
    let (status, out) = ladder.wait_exit(Duration::from_secs(30));
    assert!(!status.success(), "{out}");
    assert!(
        out.contains("practice games only: connect with --practice"),
        "{out}"
    );
    let mut home = connect(&site.url, &key, &["--practice", "--games", "3"], &[]);
    home.wait_line("(bottlebats, practice)", Duration::from_secs(30));
    let (status, out) = home.wait_exit(Duration::from_secs(600));
    assert!(status.success(), "{out}");
    assert_eq!(out.matches(", practice, ").count(), 3, "{out}");
    let played = matches_of(&db, "carol-practice");
    assert_eq!(played.len(), 3, "{played:?}");
    assert!(
        played
            .iter()
            .all(|&(_, ranked, practice, _)| !ranked && practice),
        "{played:?}"
    );
    let opponents = db.json(
        "select jsonb_agg(distinct u.name) from match_players p
         join bots b on b.id = p.bot_id join users u on u.id = b.owner_id
         join match_players me on me.match_id = p.match_id
         join bots mine on mine.id = me.bot_id and mine.name = 'carol-practice'
         where p.bot_id <> mine.id",
    );
    assert_eq!(opponents, serde_json::json!(["house"]));
    // Without --games it goes on until Ctrl-C, which stops it cleanly.
    let mut endless = connect(&site.url, &key, &["--practice"], &[]);
    endless.wait_line(" turns", Duration::from_secs(300));
    endless.interrupt();
    let (status, out) = endless.wait_exit(Duration::from_secs(30));
    assert!(status.success(), "{out}");
    assert!(out.contains("interrupted after"), "{out}");
    // Unrated: no game on its record, its rating untouched.
    let api = get_json(&site, "/api/bots/carol-practice");
    assert_eq!(api["games"], 0, "{api}");
    let (_, list) = site.request("GET", "/matches?bot=carol-practice", &[], b"");
    let all = matches_of(&db, "carol-practice").len();
    assert_eq!(
        list.matches("class=\"tag unranked\"").count(),
        all,
        "{list}"
    );
    let m = get_json(&site, &format!("/api/matches/{}", played[0].0));
    assert_eq!(
        (m["ranked"].clone(), m["practice"].clone()),
        (false.into(), true.into()),
        "{m}"
    );
}

#[test]
fn a_remote_bot_plays_its_tournament_games_when_its_session_waits() {
    let (site, db) = site("remote-tournament", &["--remote-tournaments", "true"]);
    user(&site, "lena");
    site.admin(&[
        "create-user",
        "olga",
        "--admin",
        "--password",
        "organizer password",
    ]);
    let key = key(&site, "lena", "lena-home", "bottlebats");
    site.admin(&[
        "tournament",
        "create",
        "--name",
        "Cup",
        "--format",
        "round-robin",
        "--participants",
        "lena-home,random,greedy",
        "--maps",
        "ring-2p",
    ]);
    let waiting = "select count(*) from matches m join match_players p on p.match_id = m.id
                   join bots b on b.id = p.bot_id
                   where b.name = 'lena-home' and m.tournament_id is not null";
    // Its games wait for its session: no worker takes them.
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(
        db.json(&format!("{waiting} and m.status = 'queued'")),
        4,
        "two opponents, both seat orders"
    );
    let mut home = connect(&site.url, &key, &["--games", "4"], &[]);
    let (status, out) = home.wait_exit(Duration::from_secs(600));
    assert!(status.success(), "{out}");
    // Its own waiting games come before the ladder's.
    assert_eq!(
        db.json(&format!("{waiting} and m.status = 'finished'")),
        4,
        "{out}"
    );
    assert!(
        matches_of(&db, "lena-home")
            .iter()
            .all(|&(_, ranked, _, remote)| !ranked && remote),
        "{out}"
    );
}
