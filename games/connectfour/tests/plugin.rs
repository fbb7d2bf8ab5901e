//! Connect Four through the game interface (games/connectfour/rules.md §8, §9): what a
//! bot reads, forfeits as removals and problems, the stored replay and its rows, the
//! log, and replays that are refused.

use connectfour::plugin::{self, ConnectFourMatch, DESCRIPTION, FORMAT};
use connectfour::EMPTY_BOARD;
use game_interface::problems::Kind;
use game_interface::{Answer, Maps, Match, Order, RunnerNotes, SetupError};

fn names() -> Vec<String> {
    vec!["ann".to_string(), "ben".to_string()]
}

fn start() -> Box<dyn Match> {
    plugin::kind().setup(EMPTY_BOARD, &names(), 42).unwrap()
}

fn line(s: &str) -> Answer {
    Answer::Lines(vec![s.to_string()])
}

/// Plays the columns of `moves` (digits) answered by the seat to move.
fn play(m: &mut dyn Match, moves: &str) {
    for c in moves.chars() {
        let seat = m.to_answer()[0];
        let report = m.step(&[(seat, line(&c.to_string()))], &RunnerNotes::default());
        assert!(report.removals.is_empty(), "{c}: {report:?}");
    }
}

fn view(m: &dyn Match, seat: usize) -> serde_json::Value {
    let bytes = m.view(seat);
    assert_eq!(bytes.last(), Some(&b'\n'), "one line");
    assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 1);
    serde_json::from_slice(&bytes).unwrap()
}

#[test]
fn the_description_is_the_one_the_rules_give() {
    let kind = plugin::kind();
    assert_eq!(kind.name(), "connectfour");
    assert_eq!(kind.title(), "Connect Four");
    let d = kind.describe();
    assert_eq!(d, &DESCRIPTION);
    assert_eq!(d.order, Order::OneAtATime);
    assert_eq!(d.maps, Maps::Board);
    assert_eq!(d.defaults.seats, (2, 2));
    assert_eq!(d.defaults.max_turns, 42);
    assert_eq!(d.defaults.turn_time.as_millis(), 1000);
    assert_eq!(d.defaults.first_reply_time.as_millis(), 10_000);
    assert_eq!(d.stats, ["discs", "forfeits"]);
    assert_eq!(d.replay_format, FORMAT);
    assert_eq!(d.smoke.opponents, ["random"]);
    assert_eq!(d.house_prefix, "c4-");
    // The rules' section on time is the one the description names.
    let rules = include_str!("../rules.md");
    assert!(
        rules.contains(&format!("## {}. Forfeits and time", &d.time_rule[2..])),
        "{}",
        d.time_rule
    );
}

#[test]
fn the_one_board_is_the_map_and_nothing_else_is() {
    let kind = plugin::kind();
    assert_eq!(kind.generate(0, 2).unwrap(), EMPTY_BOARD);
    assert_eq!(kind.generate(99, 2).unwrap(), EMPTY_BOARD, "any seed");
    assert!(kind
        .generate(0, 3)
        .unwrap_err()
        .0
        .contains("2 players, not 3"));
    let info = kind.map_info(EMPTY_BOARD).unwrap();
    assert_eq!(info.seats, 2);
    assert_eq!(info.numbers, vec![("columns", 7), ("rows", 6)]);
    let e = kind.map_info("..@1..\n").unwrap_err();
    assert!(
        matches!(&e, SetupError::Map(why) if why.contains("6 lines")),
        "{e}"
    );
    let full = EMPTY_BOARD.replacen('.', "1", 1);
    let e = kind.setup(&full, &names(), 42).err().unwrap();
    assert_eq!(
        e.to_string(),
        "invalid map: line 1 holds a disc: every Connect Four match starts on the empty board"
    );
    for players in [
        vec!["ann".to_string()],
        vec!["ann".to_string(), "ann".to_string()],
        vec!["ann".to_string(), String::new()],
        vec!["a".to_string(), "b".to_string(), "c".to_string()],
    ] {
        let e = kind.setup(EMPTY_BOARD, &players, 42).err().unwrap();
        assert!(matches!(e, SetupError::Players(_)), "{players:?}: {e}");
    }
}

/// §8
#[test]
fn a_bot_reads_the_board_top_row_first_and_which_player_it_is() {
    let mut m = start();
    assert_eq!(
        String::from_utf8(m.view(0)).unwrap(),
        "{\"board\":[\".......\",\".......\",\".......\",\".......\",\".......\",\".......\"],\"you\":1,\"turn\":0}\n"
    );
    play(&mut *m, "33");
    play(&mut *m, "4");
    assert_eq!(m.to_answer(), [1]);
    let v = view(&*m, 1);
    assert_eq!(
        v["board"],
        serde_json::json!([".......", ".......", ".......", ".......", "...2...", "...11.."])
    );
    assert_eq!(v["you"], 2);
    assert_eq!(v["turn"], 3);
    assert_eq!(view(&*m, 0)["you"], 1);
}

#[test]
fn a_whole_game_is_its_rows_its_replay_and_its_log() {
    let kind = plugin::kind();
    let mut m = start();
    let mut live = m.rows_since(0);
    assert_eq!(live, ["{\"start\":true}"]);
    let head = m.replay_head();
    assert_eq!(
        head,
        "{\"format\":\"connectfour-replay\",\"version\":1,\"players\":[\"ann\",\"ben\"],\"max_turns\":42}"
    );
    play(&mut *m, "001122");
    live.extend(m.rows_since(live.len()));
    play(&mut *m, "3");
    live.extend(m.rows_since(live.len()));
    assert!(m.is_over());
    assert!(m.to_answer().is_empty());
    assert_eq!(m.turn(), 7);
    assert_eq!(live.len(), 8, "a row a move and the start");
    assert_eq!(live[1], "{\"seat\":0,\"col\":0}");
    assert_eq!(live[7], "{\"seat\":0,\"col\":3}");
    assert_eq!(m.outcome().ranks, [1, 2]);
    assert_eq!(m.outcome().winner(), Some(0));
    assert_eq!(
        m.stats(),
        vec![
            vec![("discs", 4), ("forfeits", 0)],
            vec![("discs", 3), ("forfeits", 0)]
        ]
    );
    assert_eq!(m.warnings(), [0, 0]);
    assert!(m.problems(0).is_empty() && m.problems(1).is_empty());
    let stored = m.replay_json();
    assert_eq!(
        stored,
        "{\"format\":\"connectfour-replay\",\"version\":1,\"players\":[\"ann\",\"ben\"],\
         \"max_turns\":42,\"moves\":\"0011223\",\"result\":{\"end\":\"four\",\"ranks\":[1,2],\
         \"discs\":[4,3],\"forfeits\":[0,0]}}"
    );
    let stream = kind.stored_stream(&stored).unwrap();
    assert_eq!(stream.head, head);
    assert_eq!(stream.rows, live);
    assert_eq!(
        stream.result,
        "{\"end\":\"four\",\"ranks\":[1,2],\"discs\":[4,3],\"forfeits\":[0,0]}"
    );
    let mut log = Vec::new();
    kind.write_log(&stored, &mut log).unwrap();
    let log = String::from_utf8(log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(
        lines[0],
        "Connect Four: ann (1) against ben (2), 42 moves at most"
    );
    assert_eq!(lines[2], "move 0: the empty board");
    assert_eq!(
        &lines[3..9],
        [".......", ".......", ".......", ".......", ".......", "......."]
    );
    assert_eq!(lines[10], "move 1: ann drops a disc in column 0");
    assert_eq!(lines[11 + 5], "1......");
    let last = lines.len() - 1;
    assert_eq!(lines[last], "result: ann wins with four in a row");
    assert_eq!(lines[last - 1], "");
    assert_eq!(lines[last - 8], "move 7: ann drops a disc in column 3");
    assert_eq!(
        &lines[last - 3..last - 1],
        ["222....", "1111..."],
        "the last board"
    );
    assert_eq!(log.matches("move ").count(), 8, "every board");
    assert_eq!(plugin::log(&stored).unwrap(), log);
}

/// §6
#[test]
fn a_crash_and_a_timeout_forfeit_with_their_reasons() {
    let kind = plugin::kind();
    // (the answer, the runner's notes, the forfeit's reason, a timeout problem)
    let cases = [
        (line("7"), false, "`7` is not a column (0 to 6)"),
        (
            Answer::Lines(vec![]),
            false,
            "an empty line is not a column (0 to 6)",
        ),
        (line("0"), false, "column 0 is full"),
        (
            Answer::Crashed("exited with status 1".into()),
            false,
            "crashed: exited with status 1",
        ),
        (
            Answer::NoReply,
            true,
            "no reply within the move's time limit",
        ),
    ];
    for (answer, timeout, reason) in cases {
        let mut m = start();
        play(&mut *m, "000000");
        assert_eq!(m.to_answer(), [0]);
        let notes = RunnerNotes {
            timeouts: if timeout { vec![0] } else { vec![] },
            ..RunnerNotes::default()
        };
        let report = m.step(&[(0, answer)], &notes);
        let removal = format!("{reason}: forfeits the game");
        assert_eq!(report.removals, [(0, removal.clone())], "{reason}");
        assert!(report.warnings.is_empty());
        assert!(m.is_over(), "{reason}");
        assert!(m.to_answer().is_empty());
        assert_eq!(m.turn(), 7, "a forfeit is a move");
        assert_eq!(m.outcome().ranks, [2, 1], "{reason}: ben wins");
        assert_eq!(m.stats()[0], vec![("discs", 3), ("forfeits", 1)]);
        assert_eq!(m.stats()[1], vec![("discs", 3), ("forfeits", 0)]);
        let problems = m.problems(0);
        let kinds: Vec<(Kind, &str, u32)> = (problems.iter())
            .map(|p| (p.kind, p.text.as_str(), p.first_turn))
            .collect();
        let mut want = vec![(Kind::Removed, removal.as_str(), 6)];
        if timeout {
            want.insert(
                0,
                (Kind::Timeout, "no reply within the move's time limit", 6),
            );
        }
        assert_eq!(kinds, want, "{reason}: the problem of the reply to turn 6");
        assert!(m.problems(1).is_empty());
        let stored = m.replay_json();
        let v: serde_json::Value = serde_json::from_str(&stored).unwrap();
        assert_eq!(v["moves"], "000000");
        assert_eq!(v["forfeit"]["reason"], reason);
        assert_eq!(v["forfeit"]["timeout"], timeout);
        assert_eq!(v["result"]["end"], "forfeit");
        assert_eq!(v["result"]["forfeits"], serde_json::json!([1, 0]));
        let stream = kind.stored_stream(&stored).unwrap();
        assert_eq!(stream.rows, m.rows_since(0), "{reason}");
        let last = stream.rows.last().unwrap();
        assert!(last.starts_with("{\"seat\":0,\"forfeit\":"), "{last}");
        assert_eq!(last.contains("\"timeout\":true"), timeout);
        let log = plugin::log(&stored).unwrap();
        assert!(
            log.contains(&format!("move 7: ann forfeits the game: {reason}\n")),
            "{log}"
        );
        assert!(log.ends_with("result: ben wins: ann forfeited\n"), "{log}");
        // Over: nothing more is played.
        let before = m.replay_json();
        assert_eq!(m.step(&[(1, line("1"))], &notes), Default::default());
        assert_eq!(m.replay_json(), before);
    }
}

#[test]
fn limits_are_problems_of_their_seat_and_kept_in_the_replay() {
    let kind = plugin::kind();
    let mut m = start();
    let notes = RunnerNotes {
        limits: vec![(1, "memory limit (512 MiB) reached".into())],
        ..RunnerNotes::default()
    };
    m.step(&[(0, line("3"))], &notes);
    m.note_late_limit(0, "too many processes".into());
    play(&mut *m, "4");
    let p1 = m.problems(1);
    assert_eq!(p1.len(), 1);
    assert_eq!((p1[0].kind, p1[0].first_turn), (Kind::Limit, 0));
    let p0 = m.problems(0);
    assert_eq!(
        (p0[0].kind, p0[0].text.as_str()),
        (Kind::Limit, "too many processes")
    );
    let stored = m.replay_json();
    assert!(
        stored.contains(
            "\"limits\":[[1,1,\"memory limit (512 MiB) reached\"],[1,0,\"too many processes\"]]"
        ),
        "{stored}"
    );
    assert_eq!(kind.stored_stream(&stored).unwrap().rows, m.rows_since(0));
    assert_eq!(
        m.rows_since(1)[0],
        "{\"seat\":0,\"col\":3,\"limits\":[[1,\"memory limit (512 MiB) reached\"],[0,\"too many processes\"]]}"
    );
}

#[test]
fn a_random_reply_is_a_column_that_is_not_full() {
    let kind = plugin::kind();
    let mut m = start();
    play(&mut *m, "000000111111222222");
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let reply = kind.sample_reply(&*m, 0, seed);
        assert_eq!(reply.len(), 1);
        seen.insert(reply[0].clone());
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["3", "4", "5", "6"],
        "every column not full, and only those"
    );
    assert_eq!(kind.sample_reply(&*m, 0, 5), kind.sample_reply(&*m, 0, 5));
}

#[test]
fn replays_that_are_not_a_game_are_refused() {
    let kind = plugin::kind();
    let mut m = start();
    play(&mut *m, "0011223");
    let good = m.replay_json();
    assert!(kind.stored_stream(&good).is_ok());
    for (bad, why) in [
        (
            good.replace("0011223", "00112237"),
            "move 8: the game is over",
        ),
        (
            good.replace("0011223", "0000000"),
            "move 7: column 0 is full",
        ),
        (good.replace("0011223", "001a"), "move 4: `a` is no column"),
        (
            good.replace("0011223", "001122"),
            "the replay's result is not its game's",
        ),
        (
            good.replace("\"ranks\":[1,2]", "\"ranks\":[2,1]"),
            "the replay's result is not its game's",
        ),
        (
            good.replace("connectfour-replay", "vindinium-replay"),
            "format `vindinium-replay`",
        ),
        (
            good.replace("\"version\":1", "\"version\":2"),
            "of version 2",
        ),
        (
            good.replace("[\"ann\",\"ben\"]", "[\"ann\",\"ann\"]"),
            "distinct",
        ),
        (
            good.replace(",\"result\"", ",\"forfeit\":{\"reason\":\"x\"},\"result\""),
            "the forfeit: the game is over",
        ),
        (
            good.replace(",\"result\"", ",\"limits\":[[9,0,\"x\"]],\"result\""),
            "a limit at row 9, after the end",
        ),
        ("{}".to_string(), "not a Connect Four replay"),
        ("[1,2".to_string(), "not a Connect Four replay"),
    ] {
        let e = kind
            .stored_stream(&bad)
            .err()
            .unwrap_or_else(|| panic!("{bad}"));
        assert!(e.contains(why), "{bad}: {e}");
        assert!(kind.write_log(&bad, &mut Vec::new()).is_err());
    }
}

#[test]
fn a_match_stops_at_its_move_limit_and_of_no_moves_is_over_at_once() {
    let kind = plugin::kind();
    let mut m = kind.setup(EMPTY_BOARD, &names(), 3).unwrap();
    play(&mut *m, "012");
    assert!(m.is_over());
    assert_eq!(m.outcome().ranks, [1, 1]);
    assert!(m.replay_json().contains("\"end\":\"limit\""));
    assert!(plugin::log(&m.replay_json())
        .unwrap()
        .ends_with("result: a draw at the limit of 3 moves\n"));
    let m = kind.setup(EMPTY_BOARD, &names(), 0).unwrap();
    assert!(m.is_over());
    assert_eq!(m.rows_since(0), ["{\"start\":true}"]);
    let any = m.as_any().downcast_ref::<ConnectFourMatch>().unwrap();
    assert_eq!(any.rows().len(), 1);
}
