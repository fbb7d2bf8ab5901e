//! `bottlebats admin tournament ...`: the organizer's tournaments from the command
//! line, the same operations as `/admin` and `POST /api/tournaments`.

use anyhow::{bail, Context};
use clap::Subcommand;

use crate::config::Config;
use crate::db::Database;
use crate::ids::TournamentId;
use crate::tournaments::{self, Ask, Format, Participants};

#[derive(Subcommand, Debug)]
pub enum TournamentCmd {
    /// Make a tournament and queue its games (its participants' versions are frozen now).
    Create {
        /// Its name, as its page shows it.
        #[arg(long)]
        name: String,
        /// round-robin (duels, every pair on every map, both seat orders), groups (games of
        /// --players), or swiss (rounds of duels between similar scores).
        #[arg(long, value_parser = ["round-robin", "groups", "swiss"])]
        format: String,
        /// `all` (every bot that plays), `top:K`, or bot names separated by commas.
        #[arg(long, default_value = "all")]
        participants: String,
        /// Map names separated by commas; every enabled map of the right size if none.
        #[arg(long, default_value = "")]
        maps: String,
        /// Players a game (groups; the fewest the game seats, at least 2, if not given).
        #[arg(long)]
        players: Option<u32>,
        /// Games (groups; about two meetings of every pair if not given).
        #[arg(long)]
        games: Option<u32>,
        /// Rounds (Swiss; log2 of the participants, plus one, if not given).
        #[arg(long)]
        rounds: Option<u32>,
        /// The schedule's seed: the same seed, the same schedule.
        #[arg(long)]
        seed: Option<u64>,
        /// The game played (an open game); the default game if not given.
        #[arg(long)]
        game: Option<String>,
    },
    /// Show a tournament's progress and standings.
    Status { id: TournamentId },
    /// Cancel a running tournament: its games not started are voided.
    Cancel { id: TournamentId },
}

/// The participants as written on the command line.
fn participants(text: &str) -> anyhow::Result<Participants> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("all") {
        return Ok(Participants::Word("all".into()));
    }
    if let Some(k) = text.strip_prefix("top:") {
        let top = k
            .trim()
            .parse()
            .with_context(|| format!("`top:{k}` needs a number"))?;
        return Ok(Participants::Top { top });
    }
    Ok(Participants::Named(
        text.split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    ))
}

fn format_of(text: &str) -> Format {
    match text {
        "groups" => Format::Groups,
        "swiss" => Format::Swiss,
        _ => Format::RoundRobin,
    }
}

pub async fn run(config: Config, cmd: TournamentCmd) -> anyhow::Result<()> {
    let db = Database::open(&config).await?;
    let result = run_on(&db.pool, cmd).await;
    db.close().await;
    result
}

async fn run_on(db: &sqlx::PgPool, cmd: TournamentCmd) -> anyhow::Result<()> {
    match cmd {
        TournamentCmd::Create {
            name,
            format,
            participants: who,
            maps,
            players,
            games,
            rounds,
            seed,
            game,
        } => {
            let ask = Ask {
                name,
                game,
                participants: participants(&who)?,
                maps: maps
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect(),
                format: format_of(&format),
                players_per_game: players,
                games,
                rounds,
                seed,
            };
            // The command line acts for the first organizer account.
            let by = sqlx::query_scalar!(
                r#"select id as "id: crate::ids::UserId" from users where is_admin order by id limit 1"#
            )
            .fetch_optional(db)
            .await?
            .context("there is no organizer account: make one with `bottlebats admin create-user NAME --admin`")?;
            match tournaments::create(db, by, &ask).await? {
                Ok(made) => println!(
                    "tournament {} made: {} games queued; follow it at /tournaments/{}",
                    made.id, made.queued, made.id
                ),
                Err(r) => bail!("{}", r.refusal.message()),
            }
        }
        TournamentCmd::Status { id } => status(db, id).await?,
        TournamentCmd::Cancel { id } => {
            if !tournaments::cancel(db, id).await? {
                bail!("tournament {id} is not running: there is nothing to cancel");
            }
            println!("tournament {id} is cancelled; its games not started are void");
        }
    }
    Ok(())
}

/// Prints a tournament's progress and standings.
async fn status(db: &sqlx::PgPool, id: TournamentId) -> anyhow::Result<()> {
    let t = tournaments::load(db, id)
        .await?
        .with_context(|| format!("there is no tournament {id}"))?;
    let mut conn = db.acquire().await?;
    let games = tournaments::read::games(&mut conn, id).await?;
    let progress = tournaments::Progress::of(&t, &games, 1);
    println!(
        "{} ({}): {}, {} of {} games done",
        t.name, t.format, t.status, progress.done, progress.total
    );
    let table = tournaments::standings_of(&t, &games);
    println!(
        "\n{:>3}  {:<24} {:>6} {:>7} {:>9}  95% interval",
        "#", "bot", "games", "points", "strength"
    );
    for (i, r) in table.rows.iter().enumerate() {
        println!(
            "{:>3}  {:<24} {:>6} {:>7} {:>+9.0}  {:+.0} to {:+.0}",
            i + 1,
            r.bot,
            r.games,
            r.points,
            r.strength,
            r.interval.0,
            r.interval.1
        );
    }
    if let (Some(p), Some(leader)) = (table.leader_strongest, table.leader) {
        println!(
            "\n{} is the strongest with probability {:.0}%",
            t.participants[leader].0,
            p * 100.0
        );
    }
    Ok(())
}
