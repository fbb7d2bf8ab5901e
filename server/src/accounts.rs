//! Accounts: names, passwords (argon2id, hashed off the async threads), sessions and
//! API tokens. Used by the web pages and by `bottlebats admin`.

use std::sync::OnceLock;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use sqlx::PgPool;

use crate::web::session::{random_token, token_hash, User, SESSION_DAYS};

pub const NAME_RULE: &str = "2 to 32 letters, digits, `-` or `_`";
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 256;

/// Why a name or password cannot be used, in words for a form.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = (2..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
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

/// Hashes a password with argon2id on a blocking thread.
pub async fn hash_password(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
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

/// Checks a password against a stored hash (or the decoy) on a blocking thread.
pub async fn verify_password(password: String, hash: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
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
    .unwrap_or(false)
}

/// A new account, or `Ok(Err(message))` when the name is taken.
pub async fn create_user(
    db: &PgPool,
    name: &str,
    password: &str,
    admin: bool,
) -> anyhow::Result<Result<User, String>> {
    let hash = hash_password(password.to_string()).await?;
    let created = sqlx::query_as::<_, User>(
        "insert into users (name, password_hash, is_admin) values ($1, $2, $3) returning id, name, is_admin",
    )
    .bind(name)
    .bind(hash)
    .bind(admin)
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
    let row: Option<(i64, String, bool, String)> = sqlx::query_as(
        "select id, name, is_admin, password_hash from users where lower(name) = lower($1)",
    )
    .bind(name)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(id, name, is_admin, hash)| (User { id, name, is_admin }, hash)))
}

/// Opens a session and returns the cookie value.
pub async fn create_session(db: &PgPool, user_id: i64) -> sqlx::Result<String> {
    let token = random_token();
    sqlx::query(
        "insert into sessions (token_hash, user_id, expires_at) values ($1, $2, now() + make_interval(days => $3))",
    )
    .bind(token_hash(&token))
    .bind(user_id)
    .bind(SESSION_DAYS as i32)
    .execute(db)
    .await?;
    // Old sessions are cleaned up as new ones open.
    sqlx::query("delete from sessions where expires_at < now()")
        .execute(db)
        .await?;
    Ok(token)
}

pub async fn end_session(db: &PgPool, token: &str) -> sqlx::Result<()> {
    sqlx::query("delete from sessions where token_hash = $1")
        .bind(token_hash(token))
        .execute(db)
        .await?;
    Ok(())
}

/// Prefix of every API token, so a leaked one is recognisable.
pub const TOKEN_PREFIX: &str = "bbt_";

/// Makes an API token; returns its text, shown once.
pub async fn create_token(db: &PgPool, user_id: i64, name: &str) -> sqlx::Result<String> {
    let token = format!("{TOKEN_PREFIX}{}", random_token());
    sqlx::query("insert into api_tokens (user_id, name, token_hash) values ($1, $2, $3)")
        .bind(user_id)
        .bind(name)
        .bind(token_hash(&token))
        .execute(db)
        .await?;
    Ok(token)
}

/// The account of an API token, noting its use.
pub async fn token_user(db: &PgPool, token: &str) -> sqlx::Result<Option<User>> {
    sqlx::query_as::<_, User>(
        "update api_tokens t set last_used_at = now() from users u \
         where t.token_hash = $1 and u.id = t.user_id returning u.id, u.name, u.is_admin",
    )
    .bind(token_hash(token))
    .fetch_optional(db)
    .await
}
