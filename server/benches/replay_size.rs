//! `cargo bench -p server --bench replay_size`: how big a game's replay is, gzipped, in
//! the compact format (v2) against the 2016 classic log and the v1 replay of the same
//! game: on every shipped map and generated maps of 2 to 8 players, a game of random
//! players (the busiest: about a third of their forts send soldiers every turn) and one
//! of greedy players (the house bot's way); and a game of two idle bots. Prints a table
//! (docs/measurements.md's).

use bottlebats::map::Map;
use bottlebats::replay::Replay;
use bottlebats::scripted::{recorded, Style};

fn gz(bytes: &[u8]) -> usize {
    server::compress::gzip(bytes).len()
}

fn maps() -> Vec<(String, Map)> {
    let mut out: Vec<(String, Map)> = (server::games::content("bottlebats").unwrap().maps())
        .into_iter()
        .map(|(name, text)| (name.to_string(), Map::parse(&text).unwrap()))
        .collect();
    // The 2016 contest's maps of two seats or more, where the repository sits beside
    // them (they are not ours to ship).
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/maps-2016");
    match std::fs::read_dir(&shared) {
        Ok(dir) => {
            let mut found: Vec<(String, Map)> = dir
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let text = std::fs::read_to_string(e.path()).ok()?;
                    // `example.input` shows the format on 6 forts and says itself
                    // "do not use with the arbiter": not a game anyone played.
                    if text.contains("do not use with the arbiter") {
                        return None;
                    }
                    let map = Map::parse(&text).ok().filter(|m| m.seats.len() >= 2)?;
                    Some((format!("2016 {}", e.file_name().to_string_lossy()), map))
                })
                .collect();
            found.sort_by(|a, b| a.0.cmp(&b.0));
            out.extend(found);
        }
        Err(_) => eprintln!("{} is absent: the 2016 maps are left out", shared.display()),
    }
    for players in 2..=8 {
        let opts = bottlebats::generate::GenerateOptions {
            players,
            seed: 100 + players as u64,
            forts: None,
        };
        out.push((
            format!("generated {players}p"),
            bottlebats::generate::generate(&opts).unwrap(),
        ));
    }
    out
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("replay sizes: run with `cargo bench -p server --bench replay_size`");
        return;
    }
    println!("| game | players | turns | classic log, gz | v1, gz | v2, gz | classic / v2 |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let (mut classic_all, mut v1_all, mut v2_all) = (0, 0, 0);
    let mut worst = f64::INFINITY;
    let mut games: Vec<(String, Replay)> = Vec::new();
    for (name, map) in maps() {
        games.push((
            format!("{name}, random"),
            recorded(map.clone(), Style::Random(1), 500),
        ));
        games.push((format!("{name}, greedy"), recorded(map, Style::Greedy, 500)));
    }
    let duel = maps().into_iter().find(|(n, _)| n == "duel-2p").unwrap().1;
    games.push((
        "duel-2p, two idle bots".into(),
        recorded(duel, Style::Idle, 500),
    ));
    for (name, replay) in &games {
        let mut log = Vec::new();
        replay.write_classic_log(&mut log).unwrap();
        let classic = gz(&log);
        let v1 = gz(replay.to_json().as_bytes());
        let v2 = gz(bottlebats::replay_v2::encode(replay).to_json().as_bytes());
        let ratio = classic as f64 / v2 as f64;
        println!(
            "| {name} | {} | {} | {classic} | {v1} | {v2} | {ratio:.1}× |",
            replay.players.len(),
            replay.turns.len() - 1
        );
        classic_all += classic;
        v1_all += v1;
        v2_all += v2;
        worst = worst.min(ratio);
    }
    println!(
        "| all {} games | | | {classic_all} | {v1_all} | {v2_all} | {:.1}× (least {worst:.1}×) |",
        games.len(),
        classic_all as f64 / v2_all as f64
    );
    timings(&games);
}

/// The worker's cost of a replay (made and gzipped, as `record` stores it) and a
/// reader's (every turn rebuilt), on the game with the biggest v1 replay: median of 9.
fn timings(games: &[(String, Replay)]) {
    let (name, replay) = games
        .iter()
        .max_by_key(|(_, r)| r.turns.iter().map(|t| t.marches.len()).sum::<usize>())
        .unwrap();
    let median = |f: &dyn Fn()| {
        let mut ms: Vec<f64> = (0..9)
            .map(|_| {
                let start = std::time::Instant::now();
                f();
                start.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        ms[4]
    };
    let v1 = median(&|| {
        gz(replay.to_json().as_bytes());
    });
    let v2 = median(&|| {
        gz(bottlebats::replay_v2::encode(replay).to_json().as_bytes());
    });
    let compact = bottlebats::replay_v2::encode(replay);
    let read = median(&|| {
        bottlebats::replay_v2::decode(&compact).unwrap();
    });
    println!(
        "\n{name}, {} turns: v1 made and gzipped in {v1:.1} ms; v2 encoded, made and \
         gzipped in {v2:.1} ms; every board rebuilt from v2 in {read:.1} ms",
        replay.turns.len() - 1
    );
}
