//! What the runner's benchmarks share: a tiny compiled bot, and the maps they play on.

#[path = "../../../games/bottlebats/benches/maps.rs"]
pub mod maps;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// Reads a state (three counted sections) and replies with no commands.
const C_BOT: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    char line[65536];
    for (;;) {
        for (int s = 0; s < 3; s++) {
            if (!fgets(line, sizeof line, stdin)) return 0;
            long n = strtol(line, NULL, 10);
            for (long i = 0; i < n; i++)
                if (!fgets(line, sizeof line, stdin)) return 0;
        }
        fputs("0 commands:\n", stdout);
        fflush(stdout);
    }
}
"#;

/// Compiles the idle bot into `target/tmp/NAME/idle` (a folder the sandbox's uids can
/// read) and returns the folder.
pub fn idle_bot(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let src = dir.join("idle.c");
    std::fs::write(&src, C_BOT).unwrap();
    let ok = std::process::Command::new("cc")
        .args(["-O2", "-o"])
        .arg(dir.join("idle"))
        .arg(&src)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "cc is needed to build the benchmark's bot");
    dir
}
