//! The rules crate stays pure: no processes, files, network, threads, clock, randomness
//! from the system, or `libc`. What plays real processes is the `runner` crate. This
//! test holds the invariant that `ARCHITECTURE.md` states.

use std::path::Path;

/// What no source file of the crate may name.
const FORBIDDEN: &[&str] = &[
    "std::process",
    "std::fs",
    "std::net",
    "std::thread",
    "std::env",
    "Instant",
    "SystemTime",
    "libc",
    "thread_rng",
    "OsRng",
];

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_rules_crate_does_no_io_and_depends_on_no_system_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    assert!(files.len() > 5, "found the sources");
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in FORBIDDEN {
                if code.contains(word) {
                    found.push(format!("{}:{}: {word}", f.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the engine must stay pure:\n{}",
        found.join("\n")
    );
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let deps = manifest
        .split("[dependencies]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap();
    for system in ["libc", "runner", "tokio", "sqlx", "seccompiler"] {
        assert!(!deps.contains(system), "the engine depends on {system}");
    }
}
