//! The embedded database, tried from another local account.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn the_embedded_database_starts_from_a_closed_folder_and_takes_no_other_account() {
    if !is_root() {
        println!("skipping: needs root, to start from root's closed folder and to try another uid");
        return;
    }
    // A checkout in a folder only root may enter, like /root.
    let home = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-home");
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    let data = home.join("checkout/data");
    let pg = server::db::EmbeddedPg::start(&data, None).unwrap_or_else(|e| panic!("{e:#}"));
    let opts = pg.options("postgres");
    let socket = opts
        .get_socket()
        .unwrap()
        .join(format!(".s.PGSQL.{}", opts.get_port()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use sqlx::ConnectOptions;
        let mut conn = opts.connect().await.expect("the server connects");
        let one: i32 = sqlx::query_scalar("select 1")
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(one, 1);
    });
    // Another local account: neither the socket nor a TCP port lets it in.
    let script = format!(
        "import socket\n\
         s = socket.socket(socket.AF_UNIX)\n\
         try:\n    s.connect({socket:?}); print('socket: connected')\n\
         except OSError as e: print('socket:', type(e).__name__)\n\
         t = socket.socket()\n\
         try:\n    t.connect(('127.0.0.1', {port})); print('tcp: connected')\n\
         except OSError as e: print('tcp:', type(e).__name__)\n",
        socket = socket.display().to_string(),
        port = opts.get_port(),
    );
    let out = std::process::Command::new("/usr/bin/python3")
        .arg("-c")
        .arg(script)
        .uid(65534)
        .gid(65534)
        .current_dir("/")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    pg.stop_now();
    assert!(
        said.contains("socket: PermissionError"),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("tcp: ConnectionRefusedError"), "{said}");
    let note = std::fs::read_to_string(data.join("postgres.location")).unwrap();
    assert!(note.contains(server::db::CLUSTERS), "{note}");
}

/// A server killed outright leaves its cluster running: the next start takes it over
/// and stops it at its own clean exit. A data folder deleted to start over takes its
/// cluster (kept elsewhere when we are root) with it, at the next start of any site.
#[test]
fn a_killed_servers_cluster_is_taken_over_and_a_deleted_folders_cluster_removed() {
    if !is_root() {
        println!("skipping: needs root, whose clusters live under the clusters folder");
        return;
    }
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-clusters");
    let _ = std::fs::remove_dir_all(&base);
    let (old, new) = (base.join("old-site/data"), base.join("new-site/data"));
    let first = server::db::EmbeddedPg::start(&old, None).unwrap_or_else(|e| panic!("{e:#}"));
    let cluster = server::db::EmbeddedPg::folder_of(&old).unwrap();
    // Killed with -9: it never stops its cluster, and its pid is no process's now.
    std::mem::forget(first);
    std::fs::write(old.join("postgres.owner"), "999999999 5\n").unwrap();
    let again = server::db::EmbeddedPg::start(&old, None).unwrap_or_else(|e| panic!("{e:#}"));
    assert!(
        cluster.join("postmaster.pid").exists(),
        "still running, reused"
    );
    again.stop();
    assert!(
        !cluster.join("postmaster.pid").exists(),
        "taken over, so stopped at the clean exit"
    );
    // The organizer deletes the data folder to start over; another site starts.
    std::fs::remove_dir_all(base.join("old-site")).unwrap();
    assert!(cluster.exists());
    let other = server::db::EmbeddedPg::start(&new, None).unwrap_or_else(|e| panic!("{e:#}"));
    other.stop();
    assert!(!cluster.exists(), "the deleted folder's cluster is gone");
    let mine = server::db::EmbeddedPg::folder_of(&new).unwrap();
    assert!(mine.exists());
    std::fs::remove_dir_all(&base).unwrap();
    let _ = std::fs::remove_dir_all(&mine);
}

/// The newest folder of PostgreSQL's server binaries on this machine.
fn server_binaries() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| {
            let e = e.ok()?;
            let v = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            (bin.join("pg_ctl").is_file() && bin.join("pg_dump").is_file()).then_some((v, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, b)| b)
}

/// `initdb` and `pg_ctl` reached through links in a folder that holds nothing else
/// (as `/usr/local/bin` may): the backup finds `pg_dump` on its own, beside the
/// server binaries the links lead to, instead of failing with "No such file or
/// directory".
#[test]
fn a_backup_finds_pg_dump_when_initdb_is_a_link_into_another_folder() {
    let Some(real) = server_binaries() else {
        println!("skipping: no /usr/lib/postgresql/*/bin with the server and client tools");
        return;
    };
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abuse-pg-links");
    let _ = std::fs::remove_dir_all(&base);
    let links = base.join("links");
    std::fs::create_dir_all(&links).unwrap();
    for tool in ["initdb", "pg_ctl", "postgres"] {
        std::os::unix::fs::symlink(real.join(tool), links.join(tool)).unwrap();
    }
    let file = base.join("site.dump");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bottlebats"))
        .args(["admin", "backup"])
        .arg(&file)
        .arg("--data-dir")
        .arg(base.join("data"))
        .env_remove("DATABASE_URL")
        .env_remove("BOTTLEBATS_POSTGRES_BIN")
        .env("PATH", &links)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::metadata(&file).unwrap().len() > 0);
}
