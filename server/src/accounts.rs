//! Accounts: names, passwords (argon2id, hashed off the async threads), sessions and
//! API tokens. Used by the web pages and by `bottlebats admin`; the web layer only
//! carries the cookies and headers.

use std::sync::OnceLock;
use std::time::Duration;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use sqlx::PgPool;

use crate::ids::UserId;
use crate::tokens::{random_token, token_hash};

/// An account, as a session or an API token identifies it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct User {
    pub id: UserId,
    pub name: String,
    pub is_admin: bool,
}

/// How long a login lasts.
pub const SESSION_DAYS: i32 = 30;

pub const NAME_RULE: &str = "2 to 32 letters, digits, `-` or `_`";
/// The longest name an account can have, in bytes.
pub const NAME_MAX: usize = 32;
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 256;

/// Why a name or password cannot be used, in words for a form.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = (2..=NAME_MAX).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else if name.chars().count() > NAME_MAX {
        Err(format!(
            "That name has {} characters; a name is {NAME_RULE}.",
            name.chars().count()
        ))
    } else {
        Err(format!("A name is {NAME_RULE}."))
    }
}

pub fn check_password(password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if n < PASSWORD_MIN {
        Err(format!(
            "A password needs at least {PASSWORD_MIN} characters."
        ))
    } else if n > PASSWORD_MAX {
        Err(format!("A password has at most {PASSWORD_MAX} characters."))
    } else {
        Ok(())
    }
}

/// Password hashing is costly on purpose (19 MiB and tens of milliseconds each): at
/// most one hash per core runs at once, so a flood of logins or registrations queues
/// instead of taking the machine's memory.
fn hashers() -> &'static tokio::sync::Semaphore {
    static HASHERS: OnceLock<tokio::sync::Semaphore> = OnceLock::new();
    HASHERS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        tokio::sync::Semaphore::new(cores)
    })
}

/// How long a request waits for its turn to hash before it is told to come back.
const HASH_WAIT: Duration = Duration::from_secs(10);

/// Every hasher stayed busy for [`HASH_WAIT`]: the request is refused, not queued on.
#[derive(Debug, thiserror::Error)]
#[error("the server is busy checking passwords; try again in a moment")]
pub struct Busy;

/// Runs argon2 work on a blocking thread once a hasher is free.
async fn hashing<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<T> {
    let _turn = tokio::time::timeout(HASH_WAIT, hashers().acquire())
        .await
        .map_err(|_| Busy)??;
    Ok(tokio::task::spawn_blocking(work).await?)
}

/// Hashes a password with argon2id.
pub async fn hash_password(password: String) -> anyhow::Result<String> {
    hashing(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing a password failed: {e}"))
    })
    .await?
}

/// A hash nobody's password matches, verified for unknown names so that they take
/// the same time as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        Argon2::default()
            .hash_password(random_token().as_bytes())
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// Checks a password against a stored hash (or the decoy); false for the decoy.
pub async fn verify_password(password: String, hash: Option<String>) -> anyhow::Result<bool> {
    hashing(move || {
        let real = hash.is_some();
        let hash = hash.unwrap_or_else(|| decoy_hash().to_string());
        let ok = PasswordHash::new(&hash)
            .map(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            })
            .unwrap_or(false);
        ok && real
    })
    .await
}

/// A new account, or `Ok(Err(message))` when the name is taken.
pub async fn create_user(
    db: &PgPool,
    name: &str,
    password: &str,
    admin: bool,
) -> anyhow::Result<Result<User, String>> {
    let hash = hash_password(password.to_string()).await?;
    let created = sqlx::query_as!(
        User,
        r#"insert into users (name, password_hash, is_admin) values ($1, $2, $3)
           returning id as "id: UserId", name, is_admin"#,
        name,
        hash,
        admin
    )
    .fetch_one(db)
    .await;
    match created {
        Ok(u) => Ok(Ok(u)),
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("users_name_key") => {
            Ok(Err(format!("The name `{name}` is taken; choose another.")))
        }
        Err(e) => Err(e.into()),
    }
}

/// The account and password hash for a name, whatever its case.
pub async fn find_login(db: &PgPool, name: &str) -> sqlx::Result<Option<(User, String)>> {
    let row = sqlx::query!(
        r#"select id as "id: UserId", name, is_admin, password_hash from users
           where lower(name) = lower($1)"#,
        name
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| {
        let user = User {
            id: r.id,
            name: r.name,
            is_admin: r.is_admin,
        };
        (user, r.password_hash)
    }))
}

/// The password hash of an account.
pub async fn password_hash(db: &PgPool, user: UserId) -> sqlx::Result<String> {
    sqlx::query_scalar!(
        "select password_hash from users where id = $1",
        user as UserId
    )
    .fetch_one(db)
    .await
}

/// Opens a session and returns the cookie value.
pub async fn create_session(db: &PgPool, user: UserId) -> sqlx::Result<String> {
    let token = random_token();
    sqlx::query!(
        "insert into sessions (token_hash, user_id, expires_at) \
         values ($1, $2, now() + make_interval(days => $3))",
        token_hash(&token),
        user as UserId,
        SESSION_DAYS
    )
    .execute(db)
    .await?;
    // Old sessions are cleaned up as new ones open.
    sqlx::query!("delete from sessions where expires_at < now()")
        .execute(db)
        .await?;
    Ok(token)
}

/// The account of a session cookie, if the session is valid.
pub async fn session_user(db: &PgPool, token: &str) -> sqlx::Result<Option<User>> {
    sqlx::query_as!(
        User,
        r#"select u.id as "id: UserId", u.name, u.is_admin
           from sessions s join users u on u.id = s.user_id
           where s.token_hash = $1 and s.expires_at > now()"#,
        token_hash(token)
    )
    .fetch_optional(db)
    .await
}

/// Sets a new password hash and ends every other session of the account (a thief
/// logged in elsewhere is logged out); returns how many ended.
pub async fn change_password(
    db: &PgPool,
    user: UserId,
    hash: &str,
    keep_session: &str,
) -> sqlx::Result<u64> {
    let mut tx = db.begin().await?;
    sqlx::query!(
        "update users set password_hash = $1 where id = $2",
        hash,
        user as UserId
    )
    .execute(&mut *tx)
    .await?;
    let ended = sqlx::query!(
        "delete from sessions where user_id = $1 and token_hash <> $2",
        user as UserId,
        token_hash(keep_session)
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(ended)
}

pub async fn end_session(db: &PgPool, token: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "delete from sessions where token_hash = $1",
        token_hash(token)
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Prefix of every API token, so a leaked one is recognisable.
pub const TOKEN_PREFIX: &str = "bbt_";

/// Makes an API token; returns its text, shown once.
pub async fn create_token(db: &PgPool, user: UserId, name: &str) -> sqlx::Result<String> {
    let token = format!("{TOKEN_PREFIX}{}", random_token());
    sqlx::query!(
        "insert into api_tokens (user_id, name, token_hash) values ($1, $2, $3)",
        user as UserId,
        name,
        token_hash(&token)
    )
    .execute(db)
    .await?;
    Ok(token)
}

/// The account of an API token, noting its use.
pub async fn token_user(db: &PgPool, token: &str) -> sqlx::Result<Option<User>> {
    sqlx::query_as!(
        User,
        r#"update api_tokens t set last_used_at = now() from users u
           where t.token_hash = $1 and u.id = t.user_id
           returning u.id as "id: UserId", u.name, u.is_admin"#,
        token_hash(token)
    )
    .fetch_optional(db)
    .await
}

/// Why a deleted account's bots are out of the ladder.
pub const DELETED_REASON: &str = "its owner deleted the account";

/// Deletes an account while keeping the history its bots made (one without bots
/// goes whole): the account and its
/// bots are renamed `deleted~ID` (a name no one can register or upload under), its
/// sessions and tokens go, its bots leave the ladder with their code wiped, and the
/// queued matches they were in are voided. Their seats in past matches, challenges
/// and tournaments stay, so every standings table, replay and record still adds up.
pub async fn delete_account(db: &PgPool, user: UserId) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    // An account that never had a bot made no history: it goes whole.
    let gone = sqlx::query!(
        "delete from users where id = $1 and not exists (select 1 from bots where owner_id = $1)",
        user as UserId
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if gone == 1 {
        return tx.commit().await;
    }
    sqlx::query!(
        "update users set name = 'deleted~' || id, password_hash = '', is_admin = false,
             deleted_at = now()
         where id = $1",
        user as UserId
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!("delete from sessions where user_id = $1", user as UserId)
        .execute(&mut *tx)
        .await?;
    sqlx::query!("delete from api_tokens where user_id = $1", user as UserId)
        .execute(&mut *tx)
        .await?;
    let bots = sqlx::query_scalar!(
        r#"update bots set name = 'deleted~' || id, disabled = true, disabled_reason = $2
           where owner_id = $1 returning id as "id: crate::ids::BotId""#,
        user as UserId,
        DELETED_REASON
    )
    .fetch_all(&mut *tx)
    .await?;
    // Out of the tournaments running too: no later round pairs them.
    crate::tournaments::withdraw(&mut tx, &bots, crate::tournaments::WITHDRAWN_DELETED).await?;
    // The code and what it printed while building: the owner's, gone with the account.
    sqlx::query!(
        "update bot_versions v set archive = '', build_log = null, smoke_stderr = null
         from bots b where b.id = v.bot_id and b.owner_id = $1",
        user as UserId
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "update matches m set status = 'void', void_reason = 'a player''s account was deleted'
         where m.status = 'queued' and exists (select 1 from match_players p
             join bots b on b.id = p.bot_id where p.match_id = m.id and b.owner_id = $1)",
        user as UserId
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}
