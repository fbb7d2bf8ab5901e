//! Vindinium's 2014 HTTP API (docs/remote.md, "Playing over HTTP"), played by a client
//! written the way the 2014 starter kits were (`client2014.py`: form posts, long
//! polling, following `playUrl`), against `bottlebats serve` on a free port.

use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use super::{get_json, key, site, user, Db, Site};

/// Runs the 2014-style client; the JSON lines it printed.
fn client(site: &Site, key: &str, mode: &str, opts: &[&str]) -> Vec<Value> {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/remote/client2014.py");
    let out = Command::new("/usr/bin/python3")
        .arg(script)
        .args([site.url.as_str(), key, mode])
        .args(opts)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the client failed: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn form(site: &Site, path: &str, body: &str) -> (u16, String) {
    site.request(
        "POST",
        path,
        &[("Content-Type", "application/x-www-form-urlencoded")],
        body.as_bytes(),
    )
}

/// The stored match of an answer's game id: (status, practice, ranked, remote).
fn stored(db: &Db, id: &str) -> Value {
    db.json(&format!(
        "select jsonb_build_object('status', status, 'practice', practice, 'ranked', ranked,
                'remote', remote) from matches where id = {id}"
    ))
}

#[test]
fn a_2014_client_plays_training_on_every_original_map_and_arena_games() {
    let (site, db) = site("http-api", &[]);
    user(&site, "ann");
    let key = key(&site, "ann", "ann-2014", "vindinium");

    // Refusals in the original's words and statuses, before any game.
    assert_eq!(
        form(&site, "/api/training", ""),
        (400, "Did you forget the key parameter?".into())
    );
    assert_eq!(
        form(&site, "/api/arena", "key=nope"),
        (400, "Vindinium - Key not found".into())
    );
    assert_eq!(
        form(&site, "/api/999999/abc/play", "dir=North"),
        (404, "Vindinium - Unknown game 999999".into())
    );

    // Training on each original map, `turns` rounds of four moves.
    for map in ["m1", "m2", "m3", "m4", "m5", "m6"] {
        let lines = client(&site, &key, "training", &["--turns", "5", "--map", map]);
        let start = &lines[0]["start"];
        assert_eq!(start["maxTurns"], 20, "{map}: {lines:?}");
        assert_eq!(start["hero"], 1, "the trainee is hero 1: {lines:?}");
        let end = &lines.last().unwrap()["end"];
        assert_eq!(end["finished"], true, "{map}: {lines:?}");
        assert_eq!(end["turn"], 20, "{map}: {lines:?}");
        assert_eq!(lines.last().unwrap()["moves"], 5, "{map}: {lines:?}");
        let id = end["id"].as_str().unwrap();
        assert!(
            end["playUrl"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{}/api/{id}/", site.url)),
            "{end}"
        );
        let m = stored(&db, id);
        assert_eq!(m["status"], "finished", "{map}: {m}");
        assert_eq!(m["practice"], true, "{m}");
        assert_eq!(m["remote"], true, "{m}");
        // The view address is the match page, open to anyone.
        let view = end["viewUrl"].as_str().unwrap().replace(&site.url, "");
        let (status, page) = site.request("GET", &view, &[], b"");
        assert_eq!(status, 200, "{view}");
        assert!(page.contains("ann-2014"), "{view}");
        // A move after the end.
        let play = end["playUrl"].as_str().unwrap().replace(&site.url, "");
        assert_eq!(
            form(&site, &play, "dir=North"),
            (400, "Vindinium - The game is finished".into())
        );
        let token = end["token"].as_str().unwrap();
        assert_eq!(
            form(&site, &format!("/api/{id}/{}x/play", token), "dir=North"),
            (404, "Vindinium - Wrong or expired token".into())
        );
    }

    // Its page says how it plays over HTTP, and that no stderr comes that way.
    let (_, page) = site.request("GET", "/bots/ann-2014", &[], b"");
    assert!(page.contains("No stderr comes over that API"), "{page}");

    // Without a map, a generated one; an unknown map is refused.
    let lines = client(&site, &key, "training", &["--turns", "3"]);
    assert_eq!(lines.last().unwrap()["end"]["finished"], true, "{lines:?}");
    let (status, body) = form(&site, "/api/training", &format!("key={key}&map=m9"));
    assert_eq!(status, 400, "{body}");
    assert!(body.starts_with("Vindinium - Unknown map `m9`"), "{body}");

    // Another bot for what follows: a key starts at most ten games at once, then one
    // every few seconds (the rate `bottlebats connect` meets too).
    let key = super::key(&site, "ann", "ann-b", "vindinium");
    let me = "ann-b";

    // A bad direction is a Stay with a warning, and the game goes on.
    let lines = client(
        &site,
        &key,
        "training",
        &["--turns", "3", "--map", "m1", "--bad-dir-at", "2"],
    );
    let end = &lines.last().unwrap()["end"];
    assert_eq!(end["finished"], true, "{lines:?}");
    let id = end["id"].as_str().unwrap();
    let problems = db.json(&format!(
        "select p.problems::text from match_players p join bots b on b.id = p.bot_id
         where p.match_id = {id} and b.name = '{me}'"
    ));
    assert!(problems.to_string().contains("Jump"), "{problems}");

    // Two moves at once: one is out of turn.
    let lines = client(
        &site,
        &key,
        "training",
        &["--turns", "4", "--map", "m1", "--twice-at", "2"],
    );
    let refused: Vec<&Value> = lines
        .iter()
        .filter(|l| l.get("refused").is_some())
        .collect();
    assert_eq!(refused.len(), 1, "{lines:?}");
    assert_eq!(refused[0]["refused"], 400);
    assert_eq!(
        refused[0]["body"],
        "Vindinium - Wait, you're not supposed to play now"
    );
    assert_eq!(lines.last().unwrap()["end"]["finished"], true, "{lines:?}");

    // A move later than its second: the trainee crashes and the training game ends,
    // as the original's did; its next move is told why.
    let lines = client(
        &site,
        &key,
        "training",
        &["--turns", "20", "--map", "m1", "--sleep-at", "3", "2.5"],
    );
    let refused = lines
        .iter()
        .find(|l| l.get("refused").is_some())
        .expect("a refusal");
    assert_eq!(refused["refused"], 400, "{lines:?}");
    assert_eq!(
        refused["body"], "Vindinium - Time out! You must play faster",
        "{lines:?}"
    );
    let id = lines[0]["start"]["id"].as_str().unwrap();
    db.wait_for(
        &format!("select status = 'finished' from matches where id = {id}"),
        Duration::from_secs(30),
        "the timed-out training game recorded",
    );
    let replay = get_json(&site, &format!("/matches/{id}/replay.json"));
    assert_eq!(replay["training"], true, "{replay}");
    assert_eq!(replay["result"]["status"], "all_crashed", "{replay}");
    assert!(
        replay["moves"].as_str().unwrap().len() < 20,
        "it ended at the crash"
    );

    // Arena: a rated game against hosted bots, which changes the bot's rating.
    let before = db.json(&format!("select mu from bots where name = '{me}'"));
    let lines = client(&site, &key, "arena", &[]);
    let end = &lines.last().unwrap()["end"];
    assert_eq!(end["finished"], true, "{lines:?}");
    let id = end["id"].as_str().unwrap();
    let m = stored(&db, id);
    assert_eq!(m["ranked"], true, "{m}");
    assert_eq!(m["practice"], false, "{m}");
    db.wait_for(
        &format!("select mu <> {before} from bots where name = '{me}'"),
        Duration::from_secs(30),
        "the arena game rated",
    );
    // No stderr comes over this API: none is kept (the owner's page says why), while
    // the hosted seats keep theirs.
    db.wait_for(
        &format!(
            "select bool_and((p.stderr is null) = (b.name = '{me}')) from match_players p
             join bots b on b.id = p.bot_id where p.match_id = {id}"
        ),
        Duration::from_secs(10),
        "no stderr kept of the seat played over HTTP",
    );
    let board = get_json(&site, "/api/leaderboard?game=vindinium");
    let me = (board["leaderboard"].as_array().unwrap().iter())
        .find(|b| b["bot"] == me)
        .unwrap_or_else(|| panic!("on the leaderboard: {board}"));
    assert_eq!(me["remote"], true, "{me}");

    // One game at a time per key: a second arena call while one plays is refused.
    // Then the client leaves mid-game: its hero crashes and the game goes on to its end.
    let lines = client(&site, &key, "arena", &["--again-at", "2", "--quit-at", "3"]);
    let again = lines
        .iter()
        .find(|l| l.get("again").is_some())
        .unwrap_or_else(|| panic!("a second call: {lines:?}"));
    assert_eq!(again["again"], 409, "{lines:?}");
    let body = again["body"].as_str().unwrap_or_default();
    assert!(
        body.starts_with("Vindinium - `")
            && body.contains("plays a game over the HTTP API already (since 20")
            && body.contains("UTC): one session or game at a time per bot."),
        "{lines:?}"
    );
    let id = lines[0]["start"]["id"].as_str().unwrap().to_string();
    db.wait_for(
        &format!("select status = 'finished' from matches where id = {id}"),
        Duration::from_secs(120),
        "the game of the client that left finished",
    );
    let replay = get_json(&site, &format!("/matches/{id}/replay.json"));
    assert!(replay["moves"].as_str().unwrap().contains('c'), "{replay}");
    assert_ne!(
        replay["result"]["status"], "all_crashed",
        "an arena game goes on"
    );
}

/// Two public 2014 clients, as published (games/vindinium/tests/clients, BSD): the
/// Node starter kit vindinium.org linked to, and the `vindinium-client` npm package;
/// each plays a training game and an arena game here, pointed at the site by its
/// command line. (The official Python starter, which states no licence and so is not
/// kept here, was checked by hand the same way: games/vindinium/README.md.)
#[test]
fn the_public_2014_clients_play_training_and_arena_games_unchanged() {
    let modules = std::path::Path::new("/usr/share/nodejs");
    let node = Command::new("node").arg("--version").output().is_ok();
    if !node
        || !["request", "qs", "optimist"]
            .iter()
            .all(|m| modules.join(m).exists())
    {
        eprintln!(
            "SKIPPED the_public_2014_clients_play_training_and_arena_games_unchanged: node and \
             its modules request, qs and optimist are needed \
             (apt-get install nodejs node-request node-qs node-optimist)"
        );
        return;
    }
    let (site, db) = site("http-api-clients", &[]);
    user(&site, "kim");
    let key = key(&site, "kim", "kim-2014", "vindinium");
    let clients =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/vindinium/tests/clients");
    let run = |dir: &str, path: &str, args: &[&str]| -> String {
        let out = Command::new("node")
            .args(args)
            .current_dir(clients.join(dir))
            .env("NODE_PATH", path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{dir} {args:?}: {text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let finished = |practice: bool| -> i64 {
        db.json(&format!(
            "select count(*) from matches m join match_players p on p.match_id = m.id
             join bots b on b.id = p.bot_id
             where b.name = 'kim-2014' and m.status = 'finished' and m.practice = {practice}"
        ))
        .as_i64()
        .unwrap()
    };

    // ozten/vindinium-starter-nodejs: `client.js KEY MODE N SERVER`.
    let ozten = "/usr/share/nodejs";
    let out = run(
        "ozten-nodejs",
        ozten,
        &["client.js", &key, "training", "10", &site.url],
    );
    assert!(out.contains("Game Finished: 1 / 1"), "{out}");
    let out = run(
        "ozten-nodejs",
        ozten,
        &["client.js", &key, "arena", "1", &site.url],
    );
    assert!(out.contains("Game Finished: 1 / 1"), "{out}");
    assert_eq!((finished(true), finished(false)), (1, 1));

    // stephank/vindinium-client: its README's bot, the key and address in a file.
    let config = site.data_dir.join("stephank.json");
    std::fs::write(
        &config,
        serde_json::json!({"key": key, "serverUrl": site.url}).to_string(),
    )
    .unwrap();
    let lib = format!(
        "{}:/usr/share/nodejs",
        clients.join("stephank-nodejs/lib").display()
    );
    let config = config.to_str().unwrap();
    let out = run(
        "stephank-nodejs",
        &lib,
        &["bot.js", "-t", "1", "--turns", "10", "--map", "m3", config],
    );
    assert!(
        out.contains(&format!("START - {}/matches/", site.url)),
        "{out}"
    );
    assert!(
        out.contains(&format!("Replay: {}/matches/", site.url)),
        "{out}"
    );
    assert!(
        out.contains("kim-2014: "),
        "the heroes' gold at the end: {out}"
    );
    let out = run("stephank-nodejs", &lib, &["bot.js", "-a", "1,1", config]);
    assert!(
        out.contains(&format!("Replay: {}/matches/", site.url)),
        "{out}"
    );
    assert_eq!((finished(true), finished(false)), (2, 2));
    let map = db.json(
        "select maps.name from matches m join maps on maps.id = m.map_id
         join match_players p on p.match_id = m.id join bots b on b.id = p.bot_id
         where b.name = 'kim-2014' and m.practice order by m.id desc limit 1",
    );
    assert_eq!(map, "m3", "the map asked for");
}
