//! The odd states every bot must survive.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// States a bot must survive: no fort at all, `?`/`end` sections with blank and comment
/// lines, a board where it owns nothing, then a normal state. `me` is the player.
const ODD_STATES: &str = "\
0 forts:
0 roads:
0 marches:
# a comment

? forts:
a 0 0 me 10
b 3 4 neutral 3

c 6 8 other 30
end
? roads:
a b
b c
end
? marches:
c b other 30 4
end
2 forts:
b 3 4 other 2
c 6 8 other 30
1 roads:
b c
0 marches:
3 forts:
a 0 0 me 50
b 3 4 other 2
c 6 8 me 7
2 roads:
a b
b c
2 marches:
b a other 1 5
c b me 3 2
";

/// Feeds [`ODD_STATES`] to a bot run as `command me` in `dir`: it must answer each of
/// the four states with a well-formed reply, send only from forts it owns, and exit
/// when its input ends.
pub fn assert_survives_odd_states(dir: &Path, command: &str) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec {command} me"))
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(ODD_STATES.as_bytes())
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("`{command}` did not exit at the end of its input");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "`{command}` failed: {stderr}");
    let mut lines = stdout.lines();
    // Forts `me` owns in each of the four states.
    let owned: [&[&str]; 4] = [&[], &["a"], &[], &["a", "c"]];
    for (state, owned) in owned.iter().enumerate() {
        let header = lines
            .next()
            .unwrap_or_else(|| panic!("`{command}` answered {state} of 4 states:\n{stdout}"));
        let f: Vec<&str> = header.split_whitespace().collect();
        assert!(
            f.len() == 2 && f[1].ends_with(':'),
            "`{command}`: bad header `{header}`"
        );
        let count: usize = f[0].parse().unwrap();
        for _ in 0..count {
            let line = lines.next().unwrap_or("");
            let c: Vec<&str> = line.split_whitespace().collect();
            assert!(
                c.len() == 3 && owned.contains(&c[0]) && c[2].parse::<u64>().is_ok(),
                "`{command}`, state {state}: bad command `{line}`"
            );
        }
    }
    assert_eq!(lines.next(), None, "`{command}` said more:\n{stdout}");
}
