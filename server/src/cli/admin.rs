//! `bottlebats admin ...`: organizer commands on the same database as `serve` (the same
//! `DATABASE_URL`, or the embedded cluster of the same data folder, running or not).

use std::io::IsTerminal;

use anyhow::{bail, Context};

use crate::accounts;
use crate::config::Config;
use crate::db::Database;

/// Reads a new password twice from the terminal, or once from a pipe.
fn ask_password() -> anyhow::Result<String> {
    if !std::io::stdin().is_terminal() {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .context("cannot read the password")?;
        return Ok(line.trim_end_matches(['\r', '\n']).to_string());
    }
    let first = rpassword::prompt_password("Password: ")?;
    let again = rpassword::prompt_password("Password again: ")?;
    if first != again {
        bail!("the two passwords differ");
    }
    Ok(first)
}

pub async fn create_user(
    config: Config,
    name: String,
    admin: bool,
    password: Option<String>,
) -> anyhow::Result<()> {
    accounts::check_name(&name).map_err(anyhow::Error::msg)?;
    let password = match password {
        Some(p) => p,
        None => ask_password()?,
    };
    accounts::check_password(&password).map_err(anyhow::Error::msg)?;
    let db = Database::open(&config).await?;
    let result = accounts::create_user(&db.pool, &name, &password, admin).await;
    db.close().await;
    match result? {
        Ok(user) => {
            println!(
                "created {} `{}`",
                if user.is_admin { "organizer" } else { "user" },
                user.name
            );
            Ok(())
        }
        Err(taken) => bail!("{taken}"),
    }
}

pub async fn create_token(config: Config, name: String, label: String) -> anyhow::Result<()> {
    let db = Database::open(&config).await?;
    let result = async {
        let user = accounts::find_login(&db.pool, &name)
            .await?
            .with_context(|| format!("there is no user `{name}`"))?
            .0;
        accounts::create_token(&db.pool, user.id, &label)
            .await
            .map_err(anyhow::Error::from)
    }
    .await;
    db.close().await;
    let token = result?;
    println!("API token for `{name}` (shown once):");
    println!("{token}");
    Ok(())
}

/// Prints a new key for `user`'s remote bot `bot` of `game` (made if it does not
/// exist), for an organizer's scripts: the key alone on the last line.
pub async fn remote_key(
    config: Config,
    user: String,
    bot: String,
    game: String,
) -> anyhow::Result<()> {
    let db = Database::open(&config).await?;
    let result = async {
        let id = crate::remote::find_or_create(&db.pool, &user, &bot, &game).await?;
        crate::remote::keys::renew(&db.pool, id)
            .await
            .map_err(anyhow::Error::from)
    }
    .await;
    db.close().await;
    let key = result?;
    println!("key of the remote bot `{bot}` (shown once; the old one no longer works):");
    println!("{key}");
    Ok(())
}

/// Organizer commands on the ladder.
#[derive(Debug)]
pub enum LadderCmd {
    Status,
    /// true: pause; false: resume.
    Pause(bool),
    /// Challenges and A/B tests on or off.
    Challenges(bool),
    /// The deadline to set (`Some(None)` removes it) and whether the ladder freezes at it;
    /// shown as it is when both are `None`.
    Deadline(Option<Option<time::OffsetDateTime>>, Option<bool>),
    Requeue(crate::ids::MatchId),
    Void(crate::ids::MatchId, String),
    /// (bot, disabled)
    /// A bot out of the ladder with the reason, or back in (`None`).
    Bot(String, Option<String>),
    /// (map, enabled)
    Map(String, bool),
    /// (map, file, game)
    AddMap(String, std::path::PathBuf, String),
}

pub async fn ladder(config: Config, cmd: LadderCmd) -> anyhow::Result<()> {
    let db = Database::open(&config).await?;
    let result = run_ladder(&db.pool, cmd).await;
    db.close().await;
    result
}

/// Sets the deadline and the freeze as given, and says what they are.
async fn deadline(
    db: &sqlx::PgPool,
    when: Option<Option<time::OffsetDateTime>>,
    freeze: Option<bool>,
) -> sqlx::Result<()> {
    if let Some(when) = when {
        crate::contest::set_deadline(db, when).await?;
    }
    if let Some(freeze) = freeze {
        crate::contest::set_freeze(db, freeze).await?;
    }
    println!("{}", crate::contest::load(db).await?.describe());
    Ok(())
}

async fn run_ladder(db: &sqlx::PgPool, cmd: LadderCmd) -> anyhow::Result<()> {
    use crate::ranker;
    match cmd {
        LadderCmd::Status => print_status(&ranker::status(db).await?),
        LadderCmd::Pause(p) => {
            ranker::set_paused(db, p).await?;
            println!(
                "{}",
                if p {
                    "the ranker is paused"
                } else {
                    "the ranker runs"
                }
            );
        }
        LadderCmd::Challenges(on) => {
            ranker::set_challenges(db, on).await?;
            println!(
                "{}",
                if on {
                    "challenges and A/B tests are on"
                } else {
                    "challenges and A/B tests are off: new ones are refused, queued games wait"
                }
            );
        }
        LadderCmd::Deadline(when, freeze) => deadline(db, when, freeze).await?,
        LadderCmd::Requeue(id) => {
            if !ranker::requeue(db, id).await? {
                bail!(
                    "match {id} cannot be requeued (no such match, or it has finished and counted)"
                );
            }
            println!("match {id} is back in the queue");
        }
        LadderCmd::Void(id, reason) => {
            if !ranker::void(db, id, &reason).await? {
                bail!("match {id} cannot be voided (no such match, or it has finished or is void already)");
            }
            println!("match {id} is void");
        }
        LadderCmd::Bot(name, reason) => {
            let disabled = reason.is_some();
            if !ranker::set_bot_disabled(db, &name, reason.as_deref()).await? {
                bail!("there is no bot `{name}`");
            }
            println!(
                "bot `{name}` is {}",
                if disabled {
                    "out of the ladder"
                } else {
                    "back in the ladder"
                }
            );
        }
        LadderCmd::Map(name, enabled) => {
            if !ranker::set_map_enabled(db, &name, enabled).await? {
                bail!("there is no map `{name}`");
            }
            println!(
                "map `{name}` is {}",
                if enabled {
                    "in matchmaking"
                } else {
                    "out of matchmaking"
                }
            );
        }
        LadderCmd::AddMap(name, file, game) => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            if !ranker::add_map(db, &game, &name, &text).await? {
                bail!("a map called `{name}` exists already");
            }
            println!("map `{name}` added");
        }
    }
    Ok(())
}

fn print_status(s: &crate::ranker::Status) {
    println!(
        "ranker: {}; {} queued, {} finished, {} void",
        if s.paused { "PAUSED" } else { "running" },
        s.queued,
        s.finished,
        s.voided
    );
    println!("contest: {}", s.contest.describe());
    println!(
        "challenges: {}; {} of their games queued or running",
        if s.challenges { "on" } else { "OFF" },
        s.challenge_matches
    );
    println!("\nworkers:");
    if s.workers.is_empty() {
        println!("  none");
    }
    for w in &s.workers {
        let playing = w
            .match_id
            .map_or_else(|| "idle".to_string(), |m| format!("playing match {m}"));
        println!(
            "  {}  last heard {:.0} s ago, {playing}",
            w.name, w.seconds_ago
        );
    }
    println!("\nmatches:");
    if s.matches.is_empty() {
        println!("  none queued or running");
    }
    for m in &s.matches {
        let extra = match (&m.lease_owner, m.lease_left, &m.void_reason) {
            (_, _, Some(r)) => format!("({r})"),
            (Some(o), Some(left), _) => format!("on {o}, lease {left:.0} s left"),
            _ => String::new(),
        };
        println!(
            "  #{:<6} {:<8} {:<10} attempt {}  {}  {extra}",
            m.id,
            m.status,
            m.map,
            m.attempts,
            m.players.join(", ")
        );
    }
    println!("\nmaps:");
    for m in &s.maps {
        println!(
            "  {:<12} {:<10} {} seats, {}, {:>6} matches{}",
            m.name,
            m.game,
            m.seats,
            crate::games::numbers_text(&m.info),
            m.matches,
            if m.enabled { "" } else { "  (disabled)" }
        );
    }
    if !s.disabled.is_empty() {
        println!("\ndisabled bots: {}", s.disabled.join(", "));
    }
}

/// Runs a PostgreSQL client tool on the database and explains a failure.
fn run_tool(config: &Config, program: &str, args: &[&std::ffi::OsStr]) -> anyhow::Result<()> {
    let (mut cmd, embedded) = crate::db::client_tool(config, program)?;
    let out = cmd
        .args(args)
        .output()
        .with_context(|| format!("cannot run {program}"));
    if let Some(pg) = embedded {
        pg.stop();
    }
    let out = out?;
    if !out.status.success() {
        bail!(
            "{program} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(())
}

/// `bottlebats admin backup FILE`: the whole competition (accounts, bots and their
/// archives, matches and replays, ratings) in one file (pg_dump's custom format).
pub async fn backup(config: Config, file: std::path::PathBuf) -> anyhow::Result<()> {
    // The migrations run first, so a backup always has the current schema.
    Database::open(&config).await?.close().await;
    let f = file.clone();
    tokio::task::spawn_blocking(move || {
        run_tool(
            &config,
            "pg_dump",
            &[
                "--format=custom".as_ref(),
                "--no-owner".as_ref(),
                "--file".as_ref(),
                f.as_os_str(),
            ],
        )
    })
    .await??;
    let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    println!("backed up to {} ({} KiB)", file.display(), size / 1024);
    Ok(())
}

/// What a database holds, as a restore over it says it replaces.
#[derive(Debug, Default)]
struct Holdings {
    accounts: i64,
    bots: i64,
    matches: i64,
    tournaments: i64,
}

impl Holdings {
    /// What `pool` holds; nothing for a database without the site's tables yet.
    async fn of(pool: &sqlx::PgPool) -> sqlx::Result<Holdings> {
        let made: bool =
            sqlx::query_scalar!(r#"select to_regclass('public.users') is not null as "made!""#)
                .fetch_one(pool)
                .await?;
        if !made {
            return Ok(Holdings::default());
        }
        let n = sqlx::query!(
            r#"select (select count(*) from users where name <> $1) as "accounts!",
                   (select count(*) from bots b join users u on u.id = b.owner_id
                    where u.name <> $1) as "bots!",
                   (select count(*) from matches where status = 'finished') as "matches!",
                   (select count(*) from tournaments) as "tournaments!""#,
            crate::house::ACCOUNT
        )
        .fetch_one(pool)
        .await?;
        Ok(Holdings {
            accounts: n.accounts,
            bots: n.bots,
            matches: n.matches,
            tournaments: n.tournaments,
        })
    }

    /// Whether a competition is there (the house bots and maps a start registers are not
    /// one).
    fn any(&self) -> bool {
        self.accounts + self.bots + self.matches + self.tournaments > 0
    }
}

impl std::fmt::Display for Holdings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} accounts, {} bots (besides the house bots), {} finished matches and {} tournaments",
            self.accounts, self.bots, self.matches, self.tournaments
        )
    }
}

/// Asks on the terminal (or reads from a pipe) whether to go on: only `yes` does.
fn confirmed(question: &str) -> anyhow::Result<bool> {
    use std::io::Write;
    print!("{question} Type `yes` to go on: ");
    std::io::stdout().flush()?;
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .context("cannot read the answer")?;
    if !std::io::stdin().is_terminal() {
        println!();
    }
    Ok(line.trim() == "yes")
}

/// `bottlebats admin restore FILE [--yes]`: replaces the database's contents with a
/// backup. Stop `serve` and the workers first. A fresh data folder's database is made
/// first; a database that holds a competition is named with what it holds, and is
/// replaced only once confirmed (`yes` on the terminal, or `--yes`).
pub async fn restore(config: Config, file: std::path::PathBuf, yes: bool) -> anyhow::Result<()> {
    if !file.is_file() {
        bail!("there is no backup file {}", file.display());
    }
    // The embedded cluster of a fresh data folder has no database yet: it is made,
    // empty (the backup brings its tables; the migrations follow it).
    let (options, embedded, place) = match &config.database_url {
        Some(url) => (
            <sqlx::postgres::PgConnectOptions as std::str::FromStr>::from_str(url)
                .context("DATABASE_URL is not a valid PostgreSQL URL")?,
            None,
            "the database of DATABASE_URL".to_string(),
        ),
        None => {
            let (dir, bin) = (config.data_dir.clone(), config.postgres_bin.clone());
            let pg = tokio::task::spawn_blocking(move || {
                crate::db::EmbeddedPg::start(&dir, bin.as_deref())
            })
            .await??;
            pg.create_database("bottlebats").await?;
            let place = format!(
                "the database of the data folder {}",
                config.data_dir.display()
            );
            (pg.options("bottlebats"), Some(pg), place)
        }
    };
    let result = async {
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .context("cannot connect to the database")?;
        let held = Holdings::of(&pool).await;
        pool.close().await;
        // A database of an older release may not have every table counted: it holds
        // something all the same.
        let held = held.map_or_else(
            |e| format!("a competition ({e})"),
            |h| {
                if h.any() {
                    h.to_string()
                } else {
                    String::new()
                }
            },
        );
        if !held.is_empty() {
            println!("This replaces {place}, which holds {held}.");
            if !yes && !confirmed("Everything in it will be gone.")? {
                bail!("nothing was restored: answer `yes`, or pass --yes, to replace it");
            }
        }
        let f = file.clone();
        let c = config.clone();
        tokio::task::spawn_blocking(move || {
            run_tool(
                &c,
                "pg_restore",
                &[
                    "--clean".as_ref(),
                    "--if-exists".as_ref(),
                    "--no-owner".as_ref(),
                    "--single-transaction".as_ref(),
                    f.as_os_str(),
                ],
            )
        })
        .await??;
        // A backup from an older release gets this release's migrations.
        let db = Database::open(&config).await?;
        // The workers alive when the backup was made are not alive now: listed, they
        // would look silent forever. Workers running on this database report again at
        // once.
        let cleared = sqlx::query!("delete from workers").execute(&db.pool).await;
        db.close().await;
        cleared?;
        println!("restored {}", file.display());
        Ok(())
    }
    .await;
    if let Some(pg) = embedded {
        let _ = tokio::task::spawn_blocking(move || pg.stop()).await;
    }
    result
}
