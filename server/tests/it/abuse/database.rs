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
