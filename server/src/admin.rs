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
