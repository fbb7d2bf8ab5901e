//! What a bot can read and write: none of the host's secrets, other bots' folders or
//! the runner's descriptors, and nothing outside its scratch but its own folder in a
//! build. Its folder reaches it by descriptor where the path to it is closed to the
//! slot uid. The bot tries, fails, and plays on uncharged.

use std::io::Read;
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use engine::sandbox::Limits;

use crate::arena::{arena, open_arena};
use crate::play::{config, game_limits, plant_env_secrets, play};
use crate::{DB_PASSWORD, ENV_SECRET, HOSTILE};

#[test]
fn secrets_of_the_host_other_bots_and_the_runner_cannot_be_read() {
    plant_env_secrets();
    let arena = open_arena("secrets");
    let peer_secret = arena.peer.join("secret.txt");
    let data_secret = arena.data.join("secret.txt");
    let targets =
        [&arena.peer, &peer_secret, &arena.data, &data_secret].map(|p| p.display().to_string());
    // A descriptor the runner holds without close-on-exec, as one inherited from
    // whatever started it would be (a database connection, say).
    let secret_file = std::fs::File::open(&data_secret).unwrap();
    // SAFETY: F_DUPFD (no close-on-exec) of a descriptor this test owns; the copy is
    // closed below.
    let leaky = unsafe { libc::fcntl(secret_file.as_raw_fd(), libc::F_DUPFD, 20) };
    assert!(leaky >= 20);
    let g = play(
        &arena,
        "idle",
        &format!("read {} {}", targets.join(" "), arena.root.display()),
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    let said = g.stderr(HOSTILE);
    for secret in [
        ENV_SECRET,
        DB_PASSWORD,
        "DATABASE_URL",
        "BOTTLEBATS_SECRET",
        "peer-secret",
        "data-secret",
    ] {
        assert!(!said.contains(secret), "`{secret}` leaked:\n{said}");
    }
    let probes = g.probes();
    let must_fail: Vec<String> = ["/etc/shadow", "/root", "/home"]
        .iter()
        .map(|p| format!("read {p}"))
        .chain(targets.iter().map(|t| format!("read {t}")))
        .collect();
    for what in &must_fail {
        let probe = probes.iter().find(|p| &p.0 == what);
        assert!(probe.is_some_and(|p| !p.1), "{what}: {probe:?}\n{said}");
    }
    // Of the folders around its own it sees only the path to it (made by bwrap).
    let root = format!("probe read {}: ", arena.root.display());
    let listed = said.lines().find_map(|l| l.strip_prefix(&root)).unwrap();
    assert_eq!(listed, "ok ['hostile']");
    // What it can see of processes is its own sandbox: a few pids, none of the host.
    let pids: Vec<i32> = said
        .lines()
        .find_map(|l| l.strip_prefix("visible pids "))
        .map(|l| serde_json::from_str(l).unwrap())
        .unwrap();
    assert!(pids.len() <= 3, "it sees pids {pids:?}");
    // No descriptor of the runner's reached it: a folder's would lead out of its view.
    assert!(said.contains("open fds [0, 1, 2]\n"), "{said}");
    // SAFETY: closing the descriptor made above.
    unsafe { libc::close(leaky) };
}

#[test]
fn nothing_outside_the_scratch_can_be_written() {
    let arena = arena("write");
    let g = play(
        &arena,
        "idle",
        &format!("write {} {}", arena.peer.display(), arena.data.display()),
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    let own = arena.hostile.join("owned.txt").display().to_string();
    g.assert_every_probe_failed(&[
        &format!("write {own}"),
        "write /usr/owned.txt",
        "write /usr/bin/owned",
        "write /etc/owned.txt",
        "write /owned.txt",
        "write /work/owned.txt",
        "write /dev/owned",
        "write /proc/sys/kernel/hostname",
        "mkdir in own folder",
        "chmod own folder",
        "mount",
    ]);
    let names = |dir: &Path| -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    assert_eq!(names(&arena.hostile), ["hostile.py"]);
    assert_eq!(names(&arena.peer), ["fixture.py", "secret.txt"]);
    assert_eq!(names(&arena.data), ["secret.txt"]);
    assert_eq!(
        std::fs::metadata(&arena.hostile)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777,
        0o755
    );
    for p in [
        "/usr/owned.txt",
        "/usr/bin/owned",
        "/etc/owned.txt",
        "/owned.txt",
    ] {
        assert!(!Path::new(p).exists(), "{p} was written");
    }
}

#[test]
fn a_bot_folder_behind_a_path_others_cannot_walk_is_bound_by_descriptor() {
    let arena = arena("fd_bind");
    let mode = std::fs::metadata(&arena.root).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "the arena is closed to the slot uids");
    let g = play(&arena, "idle", "env", game_limits(), &config(3));
    g.assert_hostile_not_charged(3);
}

#[test]
fn a_build_can_write_its_folder_but_still_has_no_network() {
    let arena = arena("build");
    let sandbox_limits = Limits::build();
    let g = play(&arena, "idle", "build", sandbox_limits, &config(3));
    g.assert_hostile_not_charged(3);
    g.assert_every_probe_failed(&["tcp 127.0.0.1:5432", "udp 8.8.8.8:53"]);
    let built = std::fs::read_to_string(arena.hostile.join("built.txt")).unwrap();
    assert_eq!(built, "built by hostile\n");
    assert!(arena.hostile.join("out/binary").is_file());
    let mut f = std::fs::File::open(arena.hostile.join("out/binary")).unwrap();
    let mut text = String::new();
    f.read_to_string(&mut text).unwrap();
    assert_eq!(text, "#!/bin/sh\n");
}
