//! Bots in every language contestants use start inside the sandbox and play a whole
//! game: Python 3, C, C++, Rust, Java, JavaScript (Node), shell, awk and sed. Compiled
//! languages are built outside the sandbox first, as an uploaded bot's build would.
//! A toolchain that is not installed is skipped with a message.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use bottlebats::map::Map;
use engine::process::BotSpec;
use engine::sandbox::{Limits, Sandbox, SandboxConfig};
#[path = "support/bottlebats.rs"]
mod bottlebats_match;
use bottlebats_match::run_match;
use engine::MatchConfig;

const MAP: &str = "\
4 forts:
a 0 0 p1 30
b 3 4 neutral 2
c 6 8 neutral 2
d 9 12 p2 30
3 roads:
a b
b c
c d
0 marches:
";

fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

fn found(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A folder the slot uids can read, holding the bot's files.
fn bot_dir(lang: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("lang-{lang}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in std::fs::read_dir(sources().join("lang")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    std::fs::copy(sources().join("fixture.py"), dir.join("fixture.py")).unwrap();
    dir
}

fn open_up(dir: &Path) {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    for f in std::fs::read_dir(dir).unwrap() {
        let f = f.unwrap().path();
        let mode = if f.is_dir() || std::fs::metadata(&f).unwrap().permissions().mode() & 0o100 != 0
        {
            0o755
        } else {
            0o644
        };
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

fn build(dir: &Path, program: &str, args: &[&str]) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// (language, programs it needs, how to build it, the bot's command, whether it moves)
type Case = (
    &'static str,
    &'static [&'static str],
    fn(&Path),
    &'static str,
    bool,
);

const CASES: &[Case] = &[
    (
        "python",
        &["/usr/bin/python3"],
        |_| {},
        "/usr/bin/python3 fixture.py greedy",
        true,
    ),
    (
        "c",
        &["cc"],
        |d| build(d, "cc", &["-O2", "-o", "bot-c", "bot.c"]),
        "./bot-c",
        true,
    ),
    (
        "cpp",
        &["c++"],
        |d| build(d, "c++", &["-O2", "-o", "bot-cpp", "bot.cpp"]),
        "./bot-cpp",
        true,
    ),
    (
        "rust",
        &["rustc"],
        |d| build(d, "rustc", &["-O", "-o", "bot-rs", "bot.rs"]),
        "./bot-rs",
        true,
    ),
    (
        "java",
        &["javac", "java"],
        |d| build(d, "javac", &["Bot.java"]),
        "java -cp . Bot",
        true,
    ),
    ("node", &["node"], |_| {}, "node bot.js", true),
    ("shell", &["sh"], |_| {}, "sh bot.sh", true),
    // mawk, Debian's default awk, reads its input in blocks unless told otherwise.
    (
        "awk",
        &["awk"],
        |_| {},
        "awk $(awk -W version 2>/dev/null | grep -q mawk && echo -W interactive) -f bot.awk",
        true,
    ),
    ("sed", &["sed"], |_| {}, "sed -nu -f bot.sed -", false),
];

#[test]
fn bots_in_every_language_play_a_game_in_the_sandbox() {
    // The machine's own slot pool (default lock folder): a private lock folder over
    // the same uids would let this test and a running server kill each other's bots.
    let sandbox = Arc::new(Sandbox::new(SandboxConfig::default()));
    let launcher = sandbox.launcher(Limits::game());
    let config = MatchConfig {
        max_turns: 30,
        turn_timeout: Duration::from_millis(1000),
        startup_timeout: Duration::from_millis(10_000),
        ..MatchConfig::default()
    };
    let mut played = Vec::new();
    for &(lang, needs, prepare, command, moves) in CASES {
        if let Some(missing) = needs.iter().find(|p| !found(p)) {
            println!("skipping {lang}: `{missing}` is not installed");
            continue;
        }
        let dir = bot_dir(lang);
        prepare(&dir);
        open_up(&dir);
        let specs = [
            BotSpec {
                name: "alice".into(),
                command: command.into(),
                dir: dir.clone(),
            },
            BotSpec {
                name: "bob".into(),
                command: "/usr/bin/python3 fixture.py idle".into(),
                dir,
            },
        ];
        let map = Arc::new(Map::parse(MAP).unwrap());
        let started = std::time::Instant::now();
        let r = run_match(map, &specs, &launcher, &config, &mut |_| true).unwrap();
        println!("{lang}: {:.2} s", started.elapsed().as_secs_f64());
        let alice = &r.players[0];
        let stderr: String = alice
            .stderr
            .iter()
            .map(|(_, b)| String::from_utf8_lossy(b))
            .collect();
        assert_eq!(alice.error, None, "{lang}: {stderr}");
        assert_eq!(alice.timeouts, 0, "{lang}: {stderr}");
        assert_eq!(alice.warnings, 0, "{lang}: every command was valid");
        assert!(
            alice.cpu_measured == sandbox.protections()[4].active,
            "{lang}"
        );
        let sent = r
            .replay
            .turns
            .iter()
            .any(|t| t.marches.iter().any(|m| m.2 == 0));
        assert_eq!(sent, moves, "{lang}: marches sent");
        if moves {
            assert!(
                alice.stat("forts").unwrap() > 1,
                "{lang}: took neutral forts"
            );
        }
        played.push(lang);
    }
    println!("played in the sandbox: {}", played.join(", "));
    assert!(
        played.contains(&"python") && played.contains(&"shell"),
        "the basics always run"
    );
}
