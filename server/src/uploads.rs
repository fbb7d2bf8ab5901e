//! Taking an upload: it is checked completely (unpacked into a scratch folder with the
//! archive caps, its language found) before anything is stored; then the version (and,
//! for a new bot, the bot) is stored in one transaction that holds its owner's row, so
//! that the cap on waiting versions and the next version number see no other upload
//! in between. The build itself happens later, in the builder.

use sha2::{Digest, Sha256};
use sqlx::PgPool;

use crate::accounts::User;
use crate::archive;
use crate::ids::{BotId, UserId};
use crate::languages::{Languages, CUSTOM};
use crate::ranker::rating;

/// The fields of an upload form.
#[derive(Debug, Default)]
pub struct Upload {
    /// The new bot's name (ignored for a new version of a bot).
    pub name: String,
    /// A language key, `auto` (or empty) to detect it, or `custom`.
    pub language: String,
    /// The new bot's game (`crate::games`), empty for the default game; a new
    /// version's bot keeps its own.
    pub game: String,
    pub compile: String,
    pub run: String,
    pub file_name: String,
    pub file: Vec<u8>,
    /// Built and tested, but the active version keeps playing until its owner makes
    /// this one active.
    pub candidate: bool,
}

/// Why an upload is not taken, in words for its owner.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The upload itself: fix it and send it again.
    Invalid(String),
    /// Someone else's bot.
    NotYours,
    /// Too many versions of this owner are waiting to be built.
    TooManyWaiting(String),
    /// The submission deadline has passed (`crate::contest`), or the bot's game is
    /// closed on this site.
    Closed(String),
}

impl Refusal {
    pub fn message(&self) -> String {
        match self {
            Refusal::Invalid(m) | Refusal::TooManyWaiting(m) | Refusal::Closed(m) => m.clone(),
            Refusal::NotYours => "Only its owner can upload versions of this bot.".into(),
        }
    }
}

/// What one owner may have: versions waiting to be built, and bots.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    pub waiting: u32,
    pub bots: u32,
}

/// A stored version.
#[derive(Debug)]
pub struct Stored {
    pub bot: String,
    pub number: i32,
}

/// What a bot's name may be.
pub fn check_bot_name(name: &str) -> Result<(), String> {
    if (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        Ok(())
    } else if name.chars().count() > 32 {
        Err(format!(
            "That name has {} characters; a bot name is 1 to 32 letters, digits, `-` or `_`.",
            name.chars().count()
        ))
    } else {
        Err("A bot name is 1 to 32 letters, digits, `-` or `_`.".to_string())
    }
}

/// The form's own checks: a file, commands of one line.
fn check_form(up: &Upload) -> Result<(), String> {
    if up.file.is_empty() {
        return Err(if up.file_name.is_empty() {
            "Choose a file to upload.".into()
        } else {
            format!("`{}` is empty.", up.file_name)
        });
    }
    for (what, cmd) in [("build", &up.compile), ("run", &up.run)] {
        if cmd.len() > 1000 || cmd.contains('\n') {
            return Err(format!(
                "The {what} command must be one line of at most 1000 characters."
            ));
        }
    }
    Ok(())
}

/// The language and entry file of an unpacked upload at `root`.
fn language_of(
    languages: &Languages,
    up: &Upload,
    root: &std::path::Path,
) -> Result<(String, String), String> {
    let unusable = |e: String| format!("The upload cannot be used: {e}.");
    match up.language.as_str() {
        CUSTOM if up.run.is_empty() => Err("For \"custom\", give at least the run command.".into()),
        CUSTOM => Ok((CUSTOM.to_string(), String::new())),
        "" | "auto" if archive::kind_of(&up.file) == archive::Kind::Single => {
            let name = root
                .read_dir()
                .ok()
                .and_then(|mut d| d.next())
                .and_then(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .unwrap_or_default();
            match languages.by_extension(&name) {
                Some(l) => Ok((l.key.clone(), name)),
                None => Err(format!(
                    "No language offered here uses files like `{name}`; upload an archive with an entry file, or choose \"custom\"."
                )),
            }
        }
        "" | "auto" => languages
            .detect(root, None)
            .map_err(|e| unusable(e.to_string())),
        key => languages
            .detect(root, Some(key))
            .map_err(|e| unusable(e.to_string())),
    }
}

/// Unpacks the upload into a scratch folder (readable by the server alone, removed
/// after) and finds its language and entry file. The outer error is the platform's;
/// the inner one why the upload cannot be used.
fn check_contents(
    languages: &Languages,
    up: &Upload,
) -> std::io::Result<Result<(String, String), String>> {
    let scratch = std::env::temp_dir().join(format!(
        "bottlebats-upload-{}",
        crate::tokens::random_token()
    ));
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
        .create(&scratch)?;
    let result = archive::unpack(&up.file, &up.file_name, &scratch, archive::Caps::default())
        .map_err(|e| format!("The upload cannot be used: {e}."))
        .and_then(|root| language_of(languages, up, &root));
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(result)
}

/// Checks an upload through and stores a new version of `existing` (or a new bot
/// named in the form). The outer error is the platform's.
pub async fn accept(
    db: &PgPool,
    languages: std::sync::Arc<Languages>,
    caps: Caps,
    owner: &User,
    existing: Option<&str>,
    up: Upload,
) -> anyhow::Result<Result<Stored, Refusal>> {
    if let Some(refusal) = crate::contest::closed_now(db).await? {
        return Ok(Err(Refusal::Closed(refusal)));
    }
    let bot_name = match existing {
        Some(n) => n.to_string(),
        None => match check_bot_name(&up.name) {
            Ok(()) => up.name.clone(),
            Err(e) => return Ok(Err(Refusal::Invalid(e))),
        },
    };
    let open = crate::games::open(db).await?;
    if let Some(existing) = existing {
        let game = sqlx::query_scalar!(
            "select game from bots where lower(name) = lower($1) and owner_id = $2",
            existing,
            owner.id as UserId
        )
        .fetch_optional(db)
        .await?;
        if let Some(game) = game.filter(|g| !open.contains(g)) {
            let title = crate::games::kind(&game).map_or(game.as_str(), |k| k.title());
            return Ok(Err(Refusal::Closed(format!(
                "{title} is closed on this site: its bots take no new versions until the \
                 organizers open it again."
            ))));
        }
    }
    let game = match crate::games::chosen(Some(&up.game), &open) {
        Ok(g) => g.to_string(),
        Err(e) => return Ok(Err(Refusal::Invalid(format!("{e}.")))),
    };
    if let Err(e) = check_form(&up) {
        return Ok(Err(Refusal::Invalid(e)));
    }
    let (up, checked) = tokio::task::spawn_blocking(move || {
        let checked = check_contents(&languages, &up);
        (up, checked)
    })
    .await?;
    let (language, entry) = match checked? {
        Ok(found) => found,
        Err(e) => return Ok(Err(Refusal::Invalid(e))),
    };
    let checked = Checked {
        bot_name,
        game,
        language,
        entry,
    };
    store(db, caps, owner, existing, checked, up).await
}

/// What the checks found: the bot's name, the language and its entry file.
struct Checked {
    bot_name: String,
    /// The game of a new bot.
    game: String,
    language: String,
    entry: String,
}

/// Stores a checked upload. The owner's row is locked for the transaction, so two
/// uploads at once cannot both pass the cap on waiting versions.
async fn store(
    db: &PgPool,
    caps: Caps,
    owner: &User,
    existing: Option<&str>,
    checked: Checked,
    up: Upload,
) -> anyhow::Result<Result<Stored, Refusal>> {
    let Checked {
        bot_name,
        game,
        language,
        entry,
    } = checked;
    let mut tx = db.begin().await?;
    if let Err(refusal) = room_to_wait(&mut tx, owner, caps.waiting).await? {
        return Ok(Err(refusal));
    }
    let bot = match the_bot(&mut tx, owner, existing, (&bot_name, &game), caps.bots).await? {
        Ok(bot) => bot,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let custom = language == CUSTOM;
    let compile = custom
        .then_some(up.compile.as_str())
        .filter(|c| !c.is_empty());
    let run = custom.then_some(up.run.as_str());
    let file_name = if up.file_name.is_empty() {
        "upload"
    } else {
        up.file_name.as_str()
    };
    let number = insert_version(
        &mut *tx,
        bot,
        &NewVersion {
            language: &language,
            entry: &entry,
            compile,
            run,
            archive: &up.file,
            archive_name: file_name,
            candidate: up.candidate,
        },
    )
    .await?;
    tx.commit().await?;
    tracing::info!(bot = %bot_name, version = number, %language, owner = %owner.name, "uploaded");
    Ok(Ok(Stored {
        bot: bot_name,
        number,
    }))
}

/// Locks the owner's row and refuses when they have `cap` versions waiting already.
async fn room_to_wait(
    tx: &mut sqlx::PgConnection,
    owner: &User,
    cap: u32,
) -> sqlx::Result<Result<(), Refusal>> {
    sqlx::query!(
        "select 1 as one from users where id = $1 for update",
        owner.id as UserId
    )
    .fetch_one(&mut *tx)
    .await?;
    let waiting = sqlx::query_scalar!(
        r#"select count(*) as "count!" from bot_versions v join bots b on b.id = v.bot_id
           where b.owner_id = $1 and v.status in ('pending', 'building', 'testing')"#,
        owner.id as UserId
    )
    .fetch_one(&mut *tx)
    .await?;
    if waiting >= i64::from(cap) {
        return Ok(Err(Refusal::TooManyWaiting(format!(
            "You have {waiting} version(s) waiting to be built, the most this site takes at once ({cap}). Upload again when one of them is done."
        ))));
    }
    Ok(Ok(()))
}

/// The owner's bot `existing`, or a new bot called `name` playing `game`.
async fn the_bot(
    tx: &mut sqlx::PgConnection,
    owner: &User,
    existing: Option<&str>,
    (name, game): (&str, &str),
    most_bots: u32,
) -> sqlx::Result<Result<BotId, Refusal>> {
    if let Some(existing) = existing {
        let found = sqlx::query!(
            r#"select id as "id: BotId", remote from bots
               where lower(name) = lower($1) and owner_id = $2"#,
            existing,
            owner.id as UserId
        )
        .fetch_optional(&mut *tx)
        .await?;
        return Ok(match found {
            None => Err(Refusal::NotYours),
            Some(b) if b.remote => Err(Refusal::Invalid(format!(
                "`{existing}` is a remote bot: it runs on its owner's machine, so it takes no \
                 uploads (docs/remote.md)."
            ))),
            Some(b) => Ok(b.id),
        });
    }
    let bots = sqlx::query_scalar!(
        r#"select count(*) as "n!" from bots where owner_id = $1"#,
        owner.id as UserId
    )
    .fetch_one(&mut *tx)
    .await?;
    if bots >= i64::from(most_bots) {
        return Ok(Err(Refusal::Invalid(format!(
            "You have {bots} bots, the most one account may have here: upload a new version of one of them instead."
        ))));
    }
    match create_bot(&mut *tx, owner.id, name, game).await {
        Ok(id) => Ok(Ok(id)),
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("bots_name_key") => {
            Ok(Err(Refusal::Invalid(format!(
                "A bot called `{name}` exists already; choose another name."
            ))))
        }
        Err(e) => Err(e),
    }
}

/// Makes a bot with a new bot's rating; its name is refused by `bots_name_key` when
/// taken, whatever the case.
pub async fn create_bot(
    db: impl sqlx::PgExecutor<'_>,
    owner: UserId,
    name: &str,
    game: &str,
) -> sqlx::Result<BotId> {
    sqlx::query_scalar!(
        r#"insert into bots (owner_id, name, mu, sigma, game) values ($1, $2, $3, $4, $5)
           returning id as "id: BotId""#,
        owner as UserId,
        name,
        rating::MU,
        rating::SIGMA,
        game
    )
    .fetch_one(db)
    .await
}

/// A version as it is stored, waiting to be built.
pub struct NewVersion<'a> {
    pub language: &'a str,
    pub entry: &'a str,
    pub compile: Option<&'a str>,
    pub run: Option<&'a str>,
    pub archive: &'a [u8],
    pub archive_name: &'a str,
    pub candidate: bool,
}

/// Stores a new version of `bot` (the next number), pending; returns its number.
pub async fn insert_version(
    db: impl sqlx::PgExecutor<'_>,
    bot: BotId,
    v: &NewVersion<'_>,
) -> sqlx::Result<i32> {
    sqlx::query_scalar!(
        r#"insert into bot_versions (bot_id, number, language, entry, compile_command,
               run_command, archive, archive_name, archive_sha256, candidate)
           select $1, coalesce(max(number), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9
           from bot_versions where bot_id = $1
           returning number"#,
        bot as BotId,
        v.language,
        v.entry,
        v.compile,
        v.run,
        v.archive,
        v.archive_name,
        Sha256::digest(v.archive).to_vec(),
        v.candidate
    )
    .fetch_one(db)
    .await
}
