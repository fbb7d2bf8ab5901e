//! House bots: the strategies shipped in `bots/house/`, registered at start under the
//! `house` account so that a fresh server has a working ladder, and the opponent of
//! every smoke test. A release that changes a house bot uploads it as a new version.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use runner::process::BotSpec;
use sha2::{Digest, Sha256};
use sqlx::PgPool;

/// The account that owns the house bots. It has no usable password.
pub const ACCOUNT: &str = "house";

/// (name, what it does, source of `bot.py`)
pub const BOTS: &[(&str, &str, &str)] = &[
    (
        "idle",
        "holds its forts and never moves",
        include_str!("../../bots/house/idle/bot.py"),
    ),
    (
        "random",
        "random legal moves",
        include_str!("../../bots/house/random/bot.py"),
    ),
    (
        "greedy",
        "expands greedily toward the weakest neighbours",
        include_str!("../../bots/house/greedy/bot.py"),
    ),
    (
        "strong",
        "defends its frontier, times its attacks, reads marches on the road",
        include_str!("../../bots/house/strong/bot.py"),
    ),
];

/// The house bot smoke tests play against.
pub const SMOKE_OPPONENT: &str = "random";

/// Writes a house bot into `dir/NAME/bot.py` (readable by the sandbox's uids) and
/// returns how to run it.
pub fn install(dir: &Path, name: &str) -> std::io::Result<BotSpec> {
    let (_, _, source) = BOTS
        .iter()
        .find(|b| b.0 == name)
        .ok_or_else(|| std::io::Error::other(format!("no house bot `{name}`")))?;
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755))?;
    let file = folder.join("bot.py");
    std::fs::write(&file, source)?;
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644))?;
    Ok(BotSpec {
        name: format!("house-{name}"),
        command: "/usr/bin/python3 bot.py".into(),
        dir: folder,
    })
}

/// Makes sure the house account and its bots exist, uploading a house bot whose
/// shipped source differs from its latest version.
pub async fn register(db: &PgPool) -> anyhow::Result<()> {
    // "!" is no argon2 hash, so nobody can log in as the house.
    let house: i64 = sqlx::query_scalar(
        "insert into users (name, password_hash) values ($1, '!') \
         on conflict ((lower(name))) do update set name = users.name returning id",
    )
    .bind(ACCOUNT)
    .fetch_one(db)
    .await?;
    for (name, _, source) in BOTS {
        let owner: Option<i64> =
            sqlx::query_scalar("select owner_id from bots where lower(name) = lower($1)")
                .bind(name)
                .fetch_optional(db)
                .await?;
        let bot_id: i64 = match owner {
            Some(o) if o != house => {
                tracing::warn!("a contestant's bot is called `{name}`; the house bot of that name is not registered");
                continue;
            }
            Some(_) => {
                sqlx::query_scalar("select id from bots where lower(name) = lower($1)")
                    .bind(name)
                    .fetch_one(db)
                    .await?
            }
            None => {
                sqlx::query_scalar("insert into bots (owner_id, name) values ($1, $2) returning id")
                    .bind(house)
                    .bind(name)
                    .fetch_one(db)
                    .await?
            }
        };
        let sha = Sha256::digest(source.as_bytes()).to_vec();
        let latest: Option<Vec<u8>> = sqlx::query_scalar(
            "select archive_sha256 from bot_versions where bot_id = $1 order by number desc limit 1",
        )
        .bind(bot_id)
        .fetch_optional(db)
        .await?;
        if latest.as_deref() == Some(&sha[..]) {
            continue;
        }
        sqlx::query(
            "insert into bot_versions (bot_id, number, language, entry, archive, archive_name, archive_sha256) \
             select $1, coalesce(max(number), 0) + 1, 'python', 'bot.py', $2, 'bot.py', $3 \
             from bot_versions where bot_id = $1",
        )
        .bind(bot_id)
        .bind(source.as_bytes())
        .bind(sha)
        .execute(db)
        .await?;
        tracing::info!("house bot `{name}` uploaded");
    }
    Ok(())
}
