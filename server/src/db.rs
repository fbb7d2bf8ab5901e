//! The database: a pool, the migrations, and the embedded PostgreSQL cluster used when
//! no `DATABASE_URL` is given.
//!
//! The embedded cluster is created with the installed server binaries (`initdb`,
//! `pg_ctl`, on PATH or under /usr/lib/postgresql/*/bin), listens only on a Unix
//! socket inside its own folder (mode 0700: only the server and PostgreSQL can enter
//! it, so no other local account can connect), and is stopped when the process that
//! started it exits. Any `bottlebats` command given the same data folder finds a
//! running cluster through its `postmaster.pid` and uses it.
//!
//! Where it lives: `DATA_DIR/postgres`, except as root. PostgreSQL refuses to run as
//! root, so it runs as the `postgres` system user, which cannot enter a data folder of
//! mode 0700 (nor a checkout in root's home folder): its cluster then lives in
//! `/var/lib/bottlebats/clusters/<name>-<hash of the data folder>`, and
//! `DATA_DIR/postgres.location` says where (and a data folder without that file is a
//! new one: a cluster left at its path by a deleted folder is removed). A cluster an
//! earlier version made in `DATA_DIR/postgres` is used where it is.

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Executor, PgPool};

use crate::config::Config;

/// The migrations in `migrations/`, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

const MISSING: &str =
    "PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH or under \
/usr/lib/postgresql/*/bin. Install them (Debian/Ubuntu: `apt install postgresql`) or set \
DATABASE_URL to a PostgreSQL server you run yourself.";

/// The database of a running command, and the embedded cluster it may have started.
pub struct Database {
    pub pool: PgPool,
    pub embedded: Option<EmbeddedPg>,
}

impl Database {
    /// Connects to `DATABASE_URL` or the embedded cluster (starting it if needed) and
    /// applies the migrations.
    pub async fn open(config: &Config) -> anyhow::Result<Database> {
        let (options, embedded) = match &config.database_url {
            Some(url) => (
                PgConnectOptions::from_str(url)
                    .context("DATABASE_URL is not a valid PostgreSQL URL")?,
                None,
            ),
            None => {
                let dir = config.data_dir.clone();
                let bin = config.postgres_bin.clone();
                let pg =
                    tokio::task::spawn_blocking(move || EmbeddedPg::start(&dir, bin.as_deref()))
                        .await??;
                pg.create_database("bottlebats").await?;
                (pg.options("bottlebats"), Some(pg))
            }
        };
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.log_statements(tracing::log::LevelFilter::Trace))
            .await
            .context("cannot connect to the database")?;
        MIGRATOR
            .run(&pool)
            .await
            .context("applying the database migrations failed")?;
        Ok(Database { pool, embedded })
    }

    /// Closes the pool and stops the embedded cluster if this process started it.
    pub async fn close(self) {
        // Connections still checked out by work cut short are not waited for long.
        let _ = tokio::time::timeout(Duration::from_secs(1), self.pool.close()).await;
        if let Some(pg) = self.embedded {
            let _ = tokio::task::spawn_blocking(move || pg.stop()).await;
        }
    }
}

/// A PostgreSQL cluster in the data folder.
#[derive(Debug)]
pub struct EmbeddedPg {
    dir: PathBuf,
    bin: PathBuf,
    socket_dir: PathBuf,
    port: u16,
    /// (uid, gid) of the `postgres` user when we are root.
    run_as: Option<(u32, u32)>,
    /// Whether this process started it, or took it over from one that is gone (and so
    /// stops it).
    owned: bool,
    /// The data folder it belongs to.
    data_dir: PathBuf,
}

/// The folder holding `initdb` and `pg_ctl`.
fn find_binaries() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .find(|d| d.join("pg_ctl").is_file() && d.join("initdb").is_file())
    });
    on_path.or_else(|| {
        let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| {
                let e = e.ok()?;
                let v = e.file_name().to_str()?.parse::<u32>().ok()?;
                let bin = e.path().join("bin");
                bin.join("pg_ctl").is_file().then_some((v, bin))
            })
            .collect();
        versions.sort();
        versions.pop().map(|(_, bin)| bin)
    })
}

/// uid and gid of a system user.
fn user_ids(name: &str) -> Option<(u32, u32)> {
    let cname = std::ffi::CString::new(name).ok()?;
    // SAFETY: getpwnam returns a pointer into static storage or null; read at once.
    unsafe {
        let pw = libc::getpwnam(cname.as_ptr());
        (!pw.is_null()).then(|| ((*pw).pw_uid, (*pw).pw_gid))
    }
}

/// Where root's embedded clusters live, one folder per data folder.
pub const CLUSTERS: &str = "/var/lib/bottlebats/clusters";

/// The port in the socket's name (`.s.PGSQL.5432`); nothing listens on TCP.
const PORT: u16 = 5432;

/// The folder of the cluster of `data_dir` (canonical), and whether it is in the data
/// folder.
fn cluster_dir(data_dir: &Path, root: bool) -> (PathBuf, bool) {
    let here = data_dir.join("postgres");
    if !root || here.join("PG_VERSION").exists() {
        return (here, true);
    }
    use sha2::Digest;
    let hash = hex::encode(sha2::Sha256::digest(
        data_dir.as_os_str().as_encoded_bytes(),
    ));
    let name: String = data_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(32)
        .collect();
    (
        Path::new(CLUSTERS).join(format!("{name}-{}", &hash[..16])),
        false,
    )
}

/// Creates the data folder if it does not exist, readable by the server alone: it
/// holds contestants' builds. An existing folder keeps its mode.
pub fn create_data_dir(dir: &Path) -> anyhow::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("cannot create the data folder {}", dir.display()))
}

/// Sets the mode of a folder.
fn set_mode(dir: &Path, mode: u32) -> anyhow::Result<()> {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode))
        .with_context(|| format!("cannot set the mode of {}", dir.display()))
}

/// The folder of PostgreSQL's server binaries: `bin` if it holds them, else the ones
/// found on this machine.
fn server_binaries(bin: Option<&Path>) -> anyhow::Result<PathBuf> {
    match bin {
        Some(b) if b.join("pg_ctl").is_file() && b.join("initdb").is_file() => Ok(b.to_path_buf()),
        Some(b) => bail!(
            "{} holds no PostgreSQL server binaries (initdb, pg_ctl). {MISSING}",
            b.display()
        ),
        None => find_binaries().ok_or_else(|| anyhow!(MISSING)),
    }
}

/// The ids of the `postgres` user when we are root (PostgreSQL refuses to run as
/// root); `None` otherwise, to run it as ourselves.
fn postgres_user() -> anyhow::Result<Option<(u32, u32)>> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    user_ids("postgres").map(Some).ok_or_else(|| {
        anyhow!("running as root, the embedded database must run as the `postgres` system user, which does not exist; install the postgresql package or set DATABASE_URL")
    })
}

impl EmbeddedPg {
    /// The folder of the embedded cluster of `data_dir` (an existing folder), where
    /// its socket is too.
    pub fn folder_of(data_dir: &Path) -> std::io::Result<PathBuf> {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        Ok(cluster_dir(&data_dir.canonicalize()?, root).0)
    }

    /// Uses the cluster of `data_dir` if it is running, else creates (once) and starts
    /// it, with the binaries in `bin` or else the ones found on this machine.
    pub fn start(data_dir: &Path, bin: Option<&Path>) -> anyhow::Result<EmbeddedPg> {
        let bin = server_binaries(bin)?;
        let run_as = postgres_user()?;
        create_data_dir(data_dir)?;
        let data_dir = data_dir.canonicalize()?;
        let (dir, in_data) = cluster_dir(&data_dir, run_as.is_some());
        let mut pg = EmbeddedPg {
            socket_dir: dir.clone(),
            dir,
            bin,
            port: PORT,
            run_as,
            owned: false,
            data_dir: data_dir.clone(),
        };
        if !in_data {
            pg.remove_clusters_of_deleted_folders();
        }
        let location = data_dir.join("postgres.location");
        if !in_data && !location.exists() && pg.dir.exists() {
            pg.remove_orphan(&data_dir)?;
        }
        if let Some((port, socket_dir)) = pg.running() {
            pg.port = port;
            pg.socket_dir = socket_dir;
            if crate::clusters::orphaned(&data_dir) {
                // Its owner was killed before it could stop it: ours to stop now.
                pg.owned = true;
                crate::clusters::claim(&data_dir);
                tracing::warn!(
                    port,
                    "taking over the embedded PostgreSQL in {}, left running by a process that is gone",
                    pg.dir.display()
                );
            } else {
                tracing::info!(
                    port,
                    "using the embedded PostgreSQL already running in {}",
                    pg.dir.display()
                );
            }
            return Ok(pg);
        }
        if let Some(owner) = run_as {
            pg.prepare_folder(owner, &data_dir, in_data, &location)?;
        }
        if !pg.dir.join("PG_VERSION").exists() {
            pg.initdb()?;
        }
        pg.launch()?;
        pg.owned = true;
        crate::clusters::claim(&data_dir);
        tracing::info!(
            port = pg.port,
            "started the embedded PostgreSQL in {}",
            pg.dir.display()
        );
        Ok(pg)
    }

    /// Removes the clusters under [`CLUSTERS`] whose data folder was deleted (or now
    /// names another cluster): nothing else would ever remove them.
    fn remove_clusters_of_deleted_folders(&self) {
        for (dir, folder) in crate::clusters::orphans(Path::new(CLUSTERS)) {
            if dir == self.dir {
                continue;
            }
            tracing::warn!(
                "removing {}, the database of {}, a data folder deleted since",
                dir.display(),
                folder.display()
            );
            let other = EmbeddedPg {
                dir: dir.clone(),
                bin: self.bin.clone(),
                socket_dir: dir.clone(),
                port: PORT,
                run_as: self.run_as,
                owned: false,
                data_dir: folder,
            };
            if other.running().is_some() {
                other.stop_now();
            }
            match std::fs::remove_dir_all(&dir) {
                Ok(()) => crate::clusters::forget(&dir),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => crate::clusters::forget(&dir),
                Err(e) => tracing::warn!("cannot remove {}: {e}", dir.display()),
            }
        }
    }

    /// Removes the cluster of an earlier data folder at this path, deleted since: a new
    /// data folder starts with a new database, as it would in the folder.
    fn remove_orphan(&self, data_dir: &Path) -> anyhow::Result<()> {
        tracing::warn!(
            "removing {}, the database of a deleted data folder at {}",
            self.dir.display(),
            data_dir.display()
        );
        if self.running().is_some() {
            self.stop_now();
        }
        std::fs::remove_dir_all(&self.dir)
            .with_context(|| format!("cannot remove {}", self.dir.display()))
    }

    /// Makes the cluster's folder the postgres user's own, and notes in the data folder
    /// where it is (or, for a cluster an earlier version made in the data folder, lets
    /// the postgres user walk to it).
    fn prepare_folder(
        &self,
        (uid, gid): (u32, u32),
        data_dir: &Path,
        in_data: bool,
        location: &Path,
    ) -> anyhow::Result<()> {
        if in_data {
            // Walk to it, not list.
            set_mode(data_dir, 0o711)?;
        } else {
            std::fs::create_dir_all(CLUSTERS)
                .with_context(|| format!("cannot create {CLUSTERS}"))?;
            std::fs::write(
                location,
                format!(
                    "The embedded PostgreSQL cluster of this data folder is in\n{}\n",
                    self.dir.display()
                ),
            )?;
            crate::clusters::note_folder(&self.dir, data_dir)
                .with_context(|| format!("cannot write beside {}", self.dir.display()))?;
        }
        std::fs::create_dir_all(&self.dir)?;
        std::os::unix::fs::chown(&self.dir, Some(uid), Some(gid))?;
        set_mode(&self.dir, 0o700)
    }

    /// Creates the cluster: user `bottlebats`, reachable only through its socket.
    fn initdb(&self) -> anyhow::Result<()> {
        tracing::info!(
            "creating the embedded PostgreSQL cluster in {}",
            self.dir.display()
        );
        let out = self
            .command("initdb")
            .arg("-D")
            .arg(&self.dir)
            .args([
                "-U",
                "bottlebats",
                // Only the socket: its folder's mode keeps other accounts out.
                "--auth-local=trust",
                "--auth-host=reject",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-instructions",
            ])
            .output()
            .context("cannot run initdb")?;
        if !out.status.success() {
            bail!(
                "initdb failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(())
    }

    /// A command for one of the server binaries, as the right user.
    fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(self.bin.join(program));
        if let Some((uid, gid)) = self.run_as {
            cmd.uid(uid).gid(gid);
        }
        cmd.env_remove("PGDATA").env("LC_ALL", "C");
        cmd
    }

    /// Port and socket folder of the cluster if a live postmaster serves it.
    fn running(&self) -> Option<(u16, PathBuf)> {
        let text = std::fs::read_to_string(self.dir.join("postmaster.pid")).ok()?;
        let lines: Vec<&str> = text.lines().collect();
        let pid: i32 = lines.first()?.trim().parse().ok()?;
        // SAFETY: signal 0 only checks that the process exists.
        if unsafe { libc::kill(pid, 0) } != 0 {
            return None;
        }
        let port = lines.get(3)?.trim().parse().ok()?;
        let socket_dir = PathBuf::from(lines.get(4)?.trim());
        Some((port, socket_dir))
    }

    /// Connection options for a database of the cluster, over the Unix socket.
    pub fn options(&self, database: &str) -> PgConnectOptions {
        PgConnectOptions::new()
            .socket(&self.socket_dir)
            .port(self.port)
            .username("bottlebats")
            .database(database)
    }

    /// Creates a database unless it exists.
    pub async fn create_database(&self, name: &str) -> anyhow::Result<()> {
        let mut conn = self.options("postgres").connect().await?;
        let exists = sqlx::query_scalar!(
            r#"select exists (select 1 from pg_database where datname = $1) as "exists!""#,
            name
        )
        .fetch_one(&mut conn)
        .await?;
        if !exists {
            // A name we chose, checked to be a plain identifier.
            anyhow::ensure!(name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
            conn.execute(sqlx::AssertSqlSafe(format!("create database \"{name}\"")))
                .await?;
        }
        Ok(())
    }

    /// Starts the postmaster on our port and socket and waits until it answers.
    fn launch(&self) -> anyhow::Result<()> {
        let log = self.dir.join("postgres.log");
        let out = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.dir)
            .arg("-l")
            .arg(&log)
            .arg("-o")
            .arg(format!(
                "-p {} -k {} -c listen_addresses=''",
                self.port,
                self.socket_dir.display()
            ))
            .args(["-w", "-t", "60", "start"])
            .output()
            .context("cannot run pg_ctl")?;
        if !out.status.success() {
            let tail = std::fs::read_to_string(&log).unwrap_or_default();
            let last: Vec<&str> = tail.lines().rev().take(5).collect();
            bail!(
                "the embedded PostgreSQL did not start: {}\n{}",
                String::from_utf8_lossy(&out.stderr).trim(),
                last.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
        Ok(())
    }

    /// Starts the cluster again on the same port and socket after it stopped (an
    /// operator restarting the database; tests of the loops that must survive it).
    pub fn start_again(&self) -> anyhow::Result<()> {
        self.launch()
    }

    /// Stops the cluster, whoever started it.
    pub fn stop_now(&self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.dir)
            .args(["-m", "fast", "-w", "stop"])
            .output();
    }

    /// Stops the cluster if this process started it.
    pub fn stop(&self) {
        if !self.owned {
            return;
        }
        let out = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.dir)
            .args(["-m", "fast", "-w", "-t", "5", "stop"])
            .output();
        match out {
            Ok(o) if o.status.success() => {
                crate::clusters::release(&self.data_dir);
                tracing::info!("stopped the embedded PostgreSQL");
            }
            Ok(o) => tracing::warn!("pg_ctl stop: {}", String::from_utf8_lossy(&o.stderr).trim()),
            Err(e) => tracing::warn!("cannot run pg_ctl stop: {e}"),
        }
    }
}

/// The folders where a PostgreSQL client tool (`pg_dump`, `pg_restore`) is looked for,
/// in order: the `postgres_bin` setting; beside the server binaries (`server`, and the
/// folder its `initdb` is a link into: the tools of the server's own version); every
/// folder on PATH; `/usr/lib/postgresql/*/bin`, the newest first. Each folder once.
pub fn tool_folders(setting: Option<&Path>, server: Option<&Path>) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = setting.map(Path::to_path_buf).into_iter().collect();
    if let Some(server) = server {
        folders.push(server.to_path_buf());
        if let Some(real) = (server.join("initdb").canonicalize().ok())
            .and_then(|initdb| initdb.parent().map(Path::to_path_buf))
        {
            folders.push(real);
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        folders.extend(std::env::split_paths(&path));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let e = e.ok()?;
            Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin")))
        })
        .collect();
    versions.sort_by_key(|v| std::cmp::Reverse(v.0));
    folders.extend(versions.into_iter().map(|(_, bin)| bin));
    let mut seen = std::collections::HashSet::new();
    folders.retain(|f| !f.as_os_str().is_empty() && seen.insert(f.clone()));
    folders
}

/// `program` in the first of `folders` that has it, or an error that names it, where it
/// was looked for and the package that installs it.
pub fn find_tool(program: &str, folders: &[PathBuf]) -> anyhow::Result<PathBuf> {
    if let Some(found) = folders
        .iter()
        .map(|f| f.join(program))
        .find(|p| p.is_file())
    {
        return Ok(found);
    }
    let looked: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
    bail!(
        "`{program}` was not found (looked in {}): it comes with PostgreSQL's client tools, \
         Debian and Ubuntu's `postgresql-client` package (`apt install postgresql-client`), \
         or set `postgres_bin` to the folder that holds it",
        if looked.is_empty() {
            "no folder".to_string()
        } else {
            looked.join(", ")
        }
    )
}

/// A PostgreSQL client program (`pg_dump`, `pg_restore`) aimed at the database of
/// `config`: the embedded cluster (started for the occasion if need be; returned so
/// the caller stops it after) or `DATABASE_URL`. The program is found on its own
/// ([`tool_folders`]) before any cluster starts.
pub fn client_tool(
    config: &Config,
    program: &str,
) -> anyhow::Result<(Command, Option<EmbeddedPg>)> {
    let setting = config.postgres_bin.as_deref();
    match &config.database_url {
        Some(url) => {
            let tool = find_tool(program, &tool_folders(setting, None))?;
            let mut cmd = Command::new(tool);
            cmd.arg(format!("--dbname={url}"));
            Ok((cmd, None))
        }
        None => {
            let server = server_binaries(setting)?;
            let tool = find_tool(program, &tool_folders(setting, Some(&server)))?;
            let pg = EmbeddedPg::start(&config.data_dir, setting)?;
            let mut cmd = Command::new(tool);
            cmd.arg("--host").arg(&pg.socket_dir).args([
                "--port",
                &pg.port.to_string(),
                "--username",
                "bottlebats",
                "--dbname",
                "bottlebats",
            ]);
            Ok((cmd, Some(pg)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_tool_is_found_in_the_first_folder_that_has_it_or_named_when_missing() {
        let base = std::env::temp_dir().join(format!("bottlebats-tools-{}", std::process::id()));
        let (empty, full) = (base.join("empty"), base.join("full"));
        std::fs::create_dir_all(&empty).unwrap();
        std::fs::create_dir_all(&full).unwrap();
        std::fs::write(full.join("pg_dump"), "").unwrap();
        let folders = [empty.clone(), full.clone()];
        assert_eq!(
            find_tool("pg_dump", &folders).unwrap(),
            full.join("pg_dump")
        );
        let missing = find_tool("pg_restore", &folders).unwrap_err().to_string();
        assert!(
            missing.starts_with("`pg_restore` was not found"),
            "{missing}"
        );
        assert!(missing.contains(&empty.display().to_string()), "{missing}");
        assert!(
            missing.contains("apt install postgresql-client"),
            "{missing}"
        );
        // Beside the server binaries: the folder a link to `initdb` leads to as well.
        let links = base.join("links");
        std::fs::create_dir_all(&links).unwrap();
        std::os::unix::fs::symlink(full.join("pg_dump"), links.join("initdb")).unwrap();
        let folders = tool_folders(None, Some(&links));
        assert_eq!(folders[..2], [links.clone(), full.canonicalize().unwrap()]);
        let _ = std::fs::remove_dir_all(&base);
    }
}
