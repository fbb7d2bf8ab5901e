//! A bot that never played a ranked game, in its owner's hands: made a bot of another
//! game (`POST /bots/{name}/game`, its newest version tested again in that game), or
//! deleted (`POST /bots/{name}/delete`, its slot freed) while it has played no match at
//! all. A version whose test game failed because it speaks another game's protocol says
//! so, and points here ("This looks like a Vindinium bot…", `crate::builds`).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

use super::page::{render_bot_typed, BotTyped};
use crate::ids::{BotId, UserId, VersionId};
use crate::web::error::{AppError, AppResult};
use crate::web::session::{LoggedIn, Visitor};
use crate::web::AppState;

/// What the bot page offers its owner: the open games it may become a bot of, and
/// whether it may be deleted.
#[derive(Debug, Default)]
pub struct Offer {
    /// (name, title) of the other open games, when it never played a ranked game.
    pub games: Vec<(String, &'static str)>,
    /// It played no match at all.
    pub deletable: bool,
}

/// The facts that decide: its owner and game, whether it is remote, plays on the ladder,
/// played a ranked match, played any.
struct Facts {
    id: BotId,
    owner: UserId,
    game: String,
    remote: bool,
    active: bool,
    ranked: bool,
    any: bool,
}

async fn facts(db: impl sqlx::PgExecutor<'_>, name: &str) -> sqlx::Result<Option<Facts>> {
    let r = sqlx::query!(
        r#"select b.id as "id: BotId", b.owner_id as "owner: UserId", b.game, b.remote,
               b.active_version_id is not null as "active!",
               exists (select 1 from match_players p join matches m on m.id = p.match_id
                       where p.bot_id = b.id and m.ranked) as "ranked!",
               exists (select 1 from match_players p where p.bot_id = b.id) as "any!"
           from bots b where lower(b.name) = lower($1)"#,
        name
    )
    .fetch_optional(db)
    .await?;
    Ok(r.map(|r| Facts {
        id: r.id,
        owner: r.owner,
        game: r.game,
        remote: r.remote,
        active: r.active,
        ranked: r.ranked,
        any: r.any,
    }))
}

/// What the page of `name` offers its owner.
pub async fn offer(state: &AppState, name: &str) -> AppResult<Offer> {
    let Some(f) = facts(&state.db, name).await? else {
        return Ok(Offer::default());
    };
    let mut offer = Offer {
        games: Vec::new(),
        deletable: !f.any,
    };
    if f.remote || f.active || f.ranked {
        return Ok(offer);
    }
    for game in state.open_games.get(&state.db).await?.iter() {
        if *game != f.game {
            if let Ok(kind) = crate::games::kind(game) {
                offer.games.push((game.clone(), kind.title()));
            }
        }
    }
    Ok(offer)
}

#[derive(Deserialize)]
pub struct GameForm {
    game: String,
}

/// `POST /bots/{name}/game`: the bot becomes a bot of `game`, and its newest version
/// is built and tested again in it.
pub async fn change_game(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(name): Path<String>,
    Form(form): Form<GameForm>,
) -> AppResult<Response> {
    let mut tx = state.db.begin().await?;
    let f = facts(&mut *tx, &name).await?.ok_or(AppError::NotFound)?;
    if f.owner != who.user.id {
        return Err(AppError::Forbidden(
            "Only its owner can change the game of this bot.".into(),
        ));
    }
    let open = state.open_games.get(&state.db).await?;
    let game: String = form.game.chars().take(32).collect();
    let refusal = if !open.contains(&game) || crate::games::kind(&game).is_err() {
        Some(format!("`{game}` is no game open on this site."))
    } else if f.remote || f.active || f.ranked {
        Some(
            "Only a bot that never played a ranked game can change its game: make a new bot for the other game."
                .to_string(),
        )
    } else {
        None
    };
    if let Some(why) = refusal {
        drop(tx);
        return refused(&state, &who, &name, why).await;
    }
    if game == f.game {
        return Ok(Redirect::to(&format!("/bots/{name}")).into_response());
    }
    sqlx::query!(
        "update bots set game = $2 where id = $1",
        f.id as BotId,
        game
    )
    .execute(&mut *tx)
    .await?;
    // Its newest version, failed in the other game, is tested again in this one.
    let newest = sqlx::query_scalar!(
        r#"update bot_versions set status = 'pending', failure = null
           where id = (select id from bot_versions where bot_id = $1
                       order by number desc limit 1)
             and status = 'failed'
           returning id as "id: VersionId""#,
        f.id as BotId
    )
    .fetch_optional(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(bot = %name, game = %game, retested = newest.is_some(), "game changed by its owner");
    Ok(Redirect::to(&format!("/bots/{name}#versions")).into_response())
}

#[derive(Deserialize)]
pub struct DeleteForm {
    sure: Option<String>,
}

/// `POST /bots/{name}/delete` (with `sure` ticked): a bot that played no match is
/// deleted, its slot freed.
pub async fn delete(
    State(state): State<AppState>,
    who: LoggedIn,
    Path(name): Path<String>,
    Form(form): Form<DeleteForm>,
) -> AppResult<Response> {
    let mut tx = state.db.begin().await?;
    let f = facts(&mut *tx, &name).await?.ok_or(AppError::NotFound)?;
    if f.owner != who.user.id {
        return Err(AppError::Forbidden(
            "Only its owner can delete this bot.".into(),
        ));
    }
    let refusal = if f.any {
        Some("A bot that played matches stays, for their records: it can no longer be deleted.")
    } else if form.sure.is_none() {
        Some("Tick the box to say you mean to delete it.")
    } else {
        None
    };
    if let Some(why) = refusal {
        drop(tx);
        return refused(&state, &who, &name, why.to_string()).await;
    }
    sqlx::query!("delete from bots where id = $1", f.id as BotId)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(bot = %name, "deleted by its owner before any match");
    Ok(Redirect::to("/profile").into_response())
}

/// The bot page with `why` beside the change-game and delete forms.
async fn refused(state: &AppState, who: &LoggedIn, name: &str, why: String) -> AppResult<Response> {
    let typed = BotTyped {
        change: true,
        ..BotTyped::default()
    };
    let visitor = Visitor::from(who);
    render_bot_typed(state, &visitor, name, (StatusCode::CONFLICT, why), typed).await
}
