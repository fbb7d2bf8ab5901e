//! A remote bot's key: what `bottlebats connect` presents. Made as random as an API
//! token (`crate::tokens`), shown once, stored as its sha256; a bot has one live key at
//! most, and making a new one revokes the old. Revoking ends the bot's session at once:
//! in this process through the hub, in others through a notification they listen to
//! (`hub::Hub::listen`).

use sqlx::PgPool;

use crate::ids::{BotId, UserId};
use crate::tokens::{random_token, token_hash};

/// Every key starts so: a key pasted where an API token goes (or the reverse) is told
/// apart at once.
pub const PREFIX: &str = "bbr_";

/// The channel revocations are announced on, with the bot's id.
pub const CHANNEL: &str = "bottlebats_remote_keys";

/// A new key for `bot`, revoking the one it had.
pub async fn issue(tx: &mut sqlx::PgConnection, bot: BotId) -> sqlx::Result<String> {
    let key = format!("{PREFIX}{}", random_token());
    sqlx::query!(
        "update remote_keys set revoked_at = now() where bot_id = $1 and revoked_at is null",
        bot as BotId
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "insert into remote_keys (bot_id, key_hash) values ($1, $2)",
        bot as BotId,
        token_hash(&key)
    )
    .execute(&mut *tx)
    .await?;
    announce(tx, bot).await?;
    Ok(key)
}

/// A new key for `bot`, in a transaction of its own.
pub async fn renew(db: &PgPool, bot: BotId) -> sqlx::Result<String> {
    let mut tx = db.begin().await?;
    let key = issue(&mut tx, bot).await?;
    tx.commit().await?;
    Ok(key)
}

/// Revokes `bot`'s key: it has none until a new one is made. True when it had one.
pub async fn revoke(db: &PgPool, bot: BotId) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query!(
        "update remote_keys set revoked_at = now() where bot_id = $1 and revoked_at is null",
        bot as BotId
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    announce(&mut tx, bot).await?;
    tx.commit().await?;
    Ok(n > 0)
}

/// Tells every server that `bot`'s key changed (sent when the transaction commits).
async fn announce(tx: &mut sqlx::PgConnection, bot: BotId) -> sqlx::Result<()> {
    sqlx::query!("select pg_notify($1, $2::bigint::text)", CHANNEL, bot.0)
        .execute(tx)
        .await?;
    Ok(())
}

/// The remote bot a key opens, as a session needs it.
#[derive(Clone, Debug)]
pub struct KeyedBot {
    pub id: BotId,
    pub name: String,
    pub owner: UserId,
    pub game: String,
    /// Why an organizer took it out of the ladder, if one did.
    pub disabled: Option<String>,
    /// Why it is paused (no-shows), if it is.
    pub paused: Option<String>,
}

/// The bot of a live key, noting its use; `None` for a key that is not one.
pub async fn bot_of(db: &PgPool, key: &str) -> sqlx::Result<Option<KeyedBot>> {
    if !key.starts_with(PREFIX) || key.len() > 200 {
        return Ok(None);
    }
    let row = sqlx::query!(
        r#"update remote_keys k set last_used_at = now() from bots b
           where k.key_hash = $1 and k.revoked_at is null and b.id = k.bot_id and b.remote
           returning b.id as "id: BotId", b.name, b.owner_id as "owner: UserId", b.game,
               case when b.disabled then coalesce(b.disabled_reason, 'disabled') end
                   as "disabled?: String",
               b.remote_paused"#,
        token_hash(key)
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| KeyedBot {
        id: r.id,
        name: r.name,
        owner: r.owner,
        game: r.game,
        disabled: r.disabled,
        paused: r.remote_paused,
    }))
}

/// Whether `bot` has a live key.
pub async fn has_key(db: &PgPool, bot: BotId) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists (select 1 from remote_keys where bot_id = $1 and revoked_at is null)
           as "live!""#,
        bot as BotId
    )
    .fetch_one(db)
    .await
}
