//! The house account and its bots on the site: the strategies each game ships
//! (`games/NAME/bots/house/`, listed by [`crate::games::house_bots`]) are registered at
//! start under the `house` account for every open game, so that a fresh server has a
//! working ladder, and are the opponents of every smoke test. A release that changes a
//! house bot uploads it as a new version.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use engine::process::BotSpec;
use sha2::{Digest, Sha256};
use sqlx::PgPool;

pub use crate::games::{house_bots as bots, HouseBot};
use crate::ids::{BotId, UserId};
use crate::uploads::{create_bot, insert_version, NewVersion};

/// The account that owns the house bots. It has no usable password.
pub const ACCOUNT: &str = "house";

/// Writes a house bot into `dir/NAME/bot.py` (readable by the sandbox's uids) and
/// returns how to run it. The file is replaced whole (written aside, then renamed), so
/// that builds writing it at once never run half of it.
pub fn install(dir: &Path, name: &str) -> std::io::Result<BotSpec> {
    let source = (bots().iter())
        .find(|b| b.name == name)
        .ok_or_else(|| std::io::Error::other(format!("no house bot `{name}`")))?
        .source;
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder)?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755))?;
    let file = folder.join("bot.py");
    let aside = folder.join(format!(".bot.py.{}", std::process::id()));
    std::fs::write(&aside, source)?;
    std::fs::set_permissions(&aside, std::fs::Permissions::from_mode(0o644))?;
    std::fs::rename(&aside, &file)?;
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
    let house = sqlx::query_scalar!(
        r#"insert into users (name, password_hash) values ($1, '!')
           on conflict ((lower(name))) do update set name = users.name
           returning id as "id: UserId""#,
        ACCOUNT
    )
    .fetch_one(db)
    .await?;
    let open = crate::games::open(db).await?;
    for HouseBot {
        game,
        name,
        source,
        former,
    } in bots()
    {
        let (game, name, source) = (*game, *name, *source);
        if !open.iter().any(|g| g == game) {
            continue;
        }
        if let Some(former) = former {
            // Registered under its former name: renamed, its rating and games kept.
            let renamed = sqlx::query!(
                "update bots set name = $1 where owner_id = $2 and game = $3
                     and lower(name) = lower($4)
                     and not exists (select 1 from bots o where lower(o.name) = lower($1))",
                name,
                house as UserId,
                game,
                former
            )
            .execute(db)
            .await?;
            if renamed.rows_affected() > 0 {
                tracing::info!("house bot `{former}` is now called `{name}`");
            }
        }
        let existing = sqlx::query!(
            r#"select id as "id: BotId", owner_id as "owner: UserId" from bots
               where lower(name) = lower($1)"#,
            name
        )
        .fetch_optional(db)
        .await?;
        let bot = match existing {
            Some(b) if b.owner != house => {
                tracing::warn!("a contestant's bot is called `{name}`; the house bot of that name is not registered");
                continue;
            }
            Some(b) => b.id,
            None => create_bot(db, house, name, game).await?,
        };
        let sha = Sha256::digest(source.as_bytes()).to_vec();
        let latest = sqlx::query_scalar!(
            "select archive_sha256 from bot_versions where bot_id = $1 order by number desc limit 1",
            bot as BotId
        )
        .fetch_optional(db)
        .await?;
        if latest.as_deref() == Some(&sha[..]) {
            continue;
        }
        let version = NewVersion {
            language: "python",
            entry: "bot.py",
            compile: None,
            run: None,
            archive: source.as_bytes(),
            archive_name: "bot.py",
            candidate: false,
        };
        insert_version(db, bot, &version).await?;
        tracing::info!("house bot `{name}` uploaded");
    }
    Ok(())
}
