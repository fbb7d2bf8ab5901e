//! The pages anyone can read: home, the rules, getting started, the replay viewer;
//! `/api/me` to check an API token.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use super::error::{AppError, AppResult};
use super::session::{ApiUser, Visitor};
use super::{AppState, Layout};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/rules", get(rules))
        .route("/rules/{game}", get(game_rules))
        .route("/docs/{file}", get(old_rules_reference))
        .route("/docs/{game}/rules.md", get(rules_reference))
        .route("/getting-started", get(getting_started))
        .route("/starters/{file}", get(old_starter_kit))
        .route("/starters/{game}/{file}", get(starter_kit))
        .route("/viewer", get(viewer))
        .route("/api/me", get(api_me))
        .route("/api/languages", get(api_languages))
}

/// An open game as the home page, the rules and Getting started show it, from its
/// description and its folder.
pub struct GameCard {
    pub name: &'static str,
    pub title: &'static str,
    pub tagline: &'static str,
    pub summary: &'static str,
    /// Its rules for players (`games/NAME/site/rules.html`).
    pub rules_html: &'static str,
    /// What a bot of it reads and writes (`games/NAME/site/bot.html`).
    pub bot_html: &'static str,
    /// How its own HTTP API's clients play here (`games/NAME/site/http.html`, `{site}`
    /// standing for the site's address), if it has one.
    pub http_html: &'static str,
    /// Its local kit's `config.json`.
    pub config: &'static str,
    /// Whether it is played on maps (its local kit carries them), not on one board.
    pub has_maps: bool,
    /// (language key, name) of its starter kits this server builds.
    pub kits: Vec<(&'static str, String)>,
}

impl GameCard {
    fn of(content: crate::games::Content, languages: &crate::languages::Languages) -> GameCard {
        let d = content.describe();
        let site =
            |part: &str| crate::embedded::find(content.files.site, part).map_or("", |f| f.text());
        GameCard {
            name: d.name,
            title: d.title,
            tagline: d.tagline,
            summary: d.summary,
            rules_html: site("rules.html"),
            bot_html: site("bot.html"),
            http_html: site("http.html"),
            config: crate::embedded::find(content.files.kit, "config.json")
                .map_or("", |f| f.text()),
            has_maps: matches!(d.maps, game_interface::Maps::Files { .. }),
            kits: crate::starters::kits_of(d.name, languages),
        }
    }
}

/// The open games, in the organizer's order (the default first).
async fn open_cards(state: &AppState) -> AppResult<Vec<GameCard>> {
    let open = state.open_games.get(&state.db).await?;
    Ok((open.iter())
        .filter_map(|name| crate::games::content(name).ok())
        .map(|c| GameCard::of(c, &state.languages))
        .collect())
}

#[derive(Template)]
#[template(path = "pages/home.html")]
struct HomePage {
    layout: Layout,
    /// The languages this server builds, for a sentence.
    languages: String,
    /// For a logged-in contestant: their bots at a glance and their latest matches.
    mine: Option<(Vec<super::profile::OwnBot>, Vec<super::ladder::ListedMatch>)>,
    /// The open games, each an equal.
    games: Vec<GameCard>,
}

#[derive(Template)]
#[template(path = "pages/rules.html")]
struct RulesPage {
    layout: Layout,
    game: GameCard,
    /// The other open games, whose rules pages this page links.
    others: Vec<GameCard>,
}

#[derive(Template)]
#[template(path = "viewer.html")]
struct ViewerPage {
    layout: Layout,
}

#[derive(Template)]
#[template(path = "pages/getting_started.html")]
struct GettingStartedPage {
    layout: Layout,
    /// The open games.
    games: Vec<GameCard>,
    /// The game whose steps are shown: the one asked for, or the only one open.
    chosen: Option<GameCard>,
    /// Its name (empty when none is chosen).
    chosen_name: &'static str,
    /// Languages uploads may use here.
    languages: Vec<String>,
    /// Languages of the table this server cannot build, with the program it lacks.
    missing: Vec<(String, String)>,
    /// The program to download: (platform, MiB, SHA-256), if it can be served.
    program: Option<(String, String, String)>,
    /// This site's address, for the commands shown.
    site: String,
    /// The chosen game's `http_html` with the site's address in it, escaped.
    http_html: String,
    /// What remote bots may do here (`crate::remote`): off, practice or ladder.
    remote: &'static str,
}

async fn home(State(state): State<AppState>, visitor: Visitor) -> AppResult<Html<String>> {
    let mine = match &visitor.user {
        // A stranger's home page reads nothing from the database.
        None => None,
        Some(u) => {
            let bots = super::profile::own_bots(&state, u.id).await?;
            let filter = crate::standings::MatchFilter {
                user: Some(u.name.clone()),
                ..Default::default()
            };
            let matches = crate::standings::latest_matches(&state.db, &filter, 5)
                .await?
                .iter()
                .map(super::ladder::ListedMatch::from)
                .collect();
            Some((bots, matches))
        }
    };
    Ok(Html(
        HomePage {
            layout: visitor.layout(),
            languages: state.languages.names(),
            mine,
            games: open_cards(&state).await?,
        }
        .render()?,
    ))
}

/// The game a page names, if open, or the site's default game; the open games' cards.
async fn pick(
    state: &AppState,
    asked: Option<&str>,
) -> AppResult<(Option<GameCard>, Vec<GameCard>)> {
    let mut cards = open_cards(state).await?;
    let i = match asked {
        Some(name) => cards.iter().position(|c| c.name == name),
        None => (!cards.is_empty()).then_some(0),
    };
    let chosen = i.map(|i| cards.remove(i));
    Ok((chosen, cards))
}

/// `/rules`: the site's default game's rules for players.
async fn rules(State(state): State<AppState>, visitor: Visitor) -> AppResult<Html<String>> {
    rules_of(&state, visitor, None).await
}

/// `/rules/GAME`: an open game's rules for players.
async fn game_rules(
    State(state): State<AppState>,
    visitor: Visitor,
    axum::extract::Path(game): axum::extract::Path<String>,
) -> AppResult<Html<String>> {
    rules_of(&state, visitor, Some(&game)).await
}

async fn rules_of(
    state: &AppState,
    visitor: Visitor,
    game: Option<&str>,
) -> AppResult<Html<String>> {
    let (chosen, others) = pick(state, game).await?;
    let game = chosen.ok_or(AppError::NotFound)?;
    Ok(Html(
        RulesPage {
            layout: visitor.layout(),
            game,
            others,
        }
        .render()?,
    ))
}

/// The replay viewer for a local file, or `?replay=URL` on this site (read by the
/// page's script).
async fn viewer(visitor: Visitor) -> AppResult<Html<String>> {
    Ok(Html(
        ViewerPage {
            layout: visitor.layout(),
        }
        .render()?,
    ))
}

#[derive(serde::Deserialize)]
struct GameQuery {
    game: Option<String>,
}

/// Getting started: with several games open, which game, then the chosen game's steps
/// (`?game=NAME`); with one, its steps.
async fn getting_started(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    visitor: Visitor,
    axum::extract::Query(q): axum::extract::Query<GameQuery>,
) -> AppResult<Html<String>> {
    let cards = open_cards(&state).await?;
    let asked = q.game.as_deref().filter(|g| !g.is_empty());
    let chosen = match asked {
        Some(name) => Some(cards.iter().position(|c| c.name == name).ok_or_else(|| {
            AppError::BadRequest(format!(
                "No open game is called `{}`.",
                name.chars().take(40).collect::<String>()
            ))
        })?),
        None => (cards.len() == 1).then_some(0),
    };
    let chosen = match chosen {
        Some(i) => Some(GameCard::of(
            crate::games::content(cards[i].name)?,
            &state.languages,
        )),
        None => None,
    };
    let site = state.site_address(&headers);
    let http_html = chosen.as_ref().map_or_else(String::new, |c| {
        let escaped = askama::filters::escape(&site, askama::filters::Html)
            .map(|e| e.to_string())
            .unwrap_or_default();
        c.http_html.replace("{site}", &escaped)
    });
    let page = GettingStartedPage {
        site,
        http_html,
        layout: visitor.layout(),
        games: cards,
        chosen_name: chosen.as_ref().map_or("", |c| c.name),
        chosen,
        languages: state
            .languages
            .available()
            .map(|l| l.language.name.clone())
            .collect(),
        missing: state.languages.missing(),
        program: super::downloads::program_facts().await,
        remote: crate::remote::site_mode(&state.db).await?.as_str(),
    };
    Ok(Html(page.render()?))
}

/// `/starters/FILE`, the kits' first addresses: `LANG.zip` (the site's default game's
/// kit) and `GAME-LANG.zip`, each sent on to `/starters/GAME/LANG.zip`.
async fn old_starter_kit(
    State(state): State<AppState>,
    axum::extract::Path(file): axum::extract::Path<String>,
) -> AppResult<Response> {
    let kit = file.strip_suffix(".zip").ok_or(AppError::NotFound)?;
    let open = state.open_games.get(&state.db).await?;
    let (game, lang) = match kit.split_once('-') {
        Some((game, lang)) if crate::games::registry().get(game).is_some() => (game, lang),
        _ => (crate::games::default_of(&open), kit),
    };
    if !open.iter().any(|g| g == game) {
        return Err(AppError::NotFound);
    }
    Ok(
        axum::response::Redirect::permanent(&format!("/starters/{game}/{lang}.zip"))
            .into_response(),
    )
}

/// `/starters/GAME/LANG.zip`: an open game's starter kit.
async fn starter_kit(
    State(state): State<AppState>,
    axum::extract::Path((game, file)): axum::extract::Path<(String, String)>,
) -> AppResult<Response> {
    let lang = file.strip_suffix(".zip").ok_or(AppError::NotFound)?;
    if !state.open_games.get(&state.db).await?.contains(&game) {
        return Err(AppError::NotFound);
    }
    if !crate::starters::offered(&state.languages, lang) {
        return Err(match state.languages.get(lang) {
            Some(e) => AppError::Status(StatusCode::NOT_FOUND, format!(
                "This server does not build {} bots (`{}` is not installed here), so it offers no kit for them.",
                e.language.name,
                e.missing.as_deref().unwrap_or("its toolchain")
            )),
            None => AppError::NotFound,
        });
    }
    let bytes = crate::starters::zip_of(&game, lang).ok_or(AppError::NotFound)?;
    let name = format!("{}.zip", crate::starters::kit_name(&game, lang));
    Ok(super::downloads::attachment(
        super::downloads::shared(bytes),
        "application/zip",
        &name,
    ))
}

async fn api_me(ApiUser(u): ApiUser) -> Response {
    Json(json!({"id": u.id, "name": u.name, "admin": u.is_admin})).into_response()
}

/// `GET /docs/GAME/rules.md`: an open game's complete rules, for implementers, as the
/// program was built (`games/GAME/rules.md`).
async fn rules_reference(
    State(state): State<AppState>,
    axum::extract::Path(game): axum::extract::Path<String>,
) -> AppResult<Response> {
    if !state.open_games.get(&state.db).await?.contains(&game) {
        return Err(AppError::NotFound);
    }
    let files = crate::embedded::game(&game).ok_or(AppError::NotFound)?;
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            "text/markdown; charset=utf-8",
        )],
        files.rules,
    )
        .into_response())
}

/// `/docs/rules.md` and `/docs/GAME-rules.md`, the rules' first addresses, sent on to
/// `/docs/GAME/rules.md` (the first for the site's default game).
async fn old_rules_reference(
    State(state): State<AppState>,
    axum::extract::Path(file): axum::extract::Path<String>,
) -> AppResult<Response> {
    let open = state.open_games.get(&state.db).await?;
    let game = match file.as_str() {
        "rules.md" => crate::games::default_of(&open),
        other => other.strip_suffix("-rules.md").ok_or(AppError::NotFound)?,
    };
    if !open.iter().any(|g| g == game) {
        return Err(AppError::NotFound);
    }
    Ok(axum::response::Redirect::permanent(&format!("/docs/{game}/rules.md")).into_response())
}

/// `GET /api/languages`: the languages this server builds (their key for uploads, the
/// entry files that mark an archive, the kit to start from) and those it does not, with
/// what the organizers would install for them.
async fn api_languages(State(state): State<AppState>) -> AppResult<Json<serde_json::Value>> {
    let open = state.open_games.get(&state.db).await?;
    let default = crate::games::default_of(&open).to_string();
    let offered: Vec<_> = state
        .languages
        .available()
        .map(|e| {
            let kit = crate::starters::languages_of(&default)
                .contains(&e.key.as_str())
                .then(|| format!("/starters/{default}/{}.zip", e.key));
            json!({"key": e.key, "name": e.language.name, "entries": e.language.entries, "kit": kit})
        })
        .collect();
    let missing: Vec<_> = state
        .languages
        .missing()
        .into_iter()
        .map(|(name, needs)| json!({"name": name, "needs": needs}))
        .collect();
    Ok(Json(json!({"languages": offered, "not_offered": missing})))
}

#[cfg(test)]
mod rules_page {
    use std::path::Path;
    use std::time::Duration;

    use engine::sandbox::Limits;
    use engine::{MatchConfig, OnTimeout};

    fn read(path: &str) -> String {
        let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
        std::fs::read_to_string(full).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn page() -> String {
        read("games/bottlebats/site/rules.html")
    }

    fn doc() -> String {
        read("games/bottlebats/rules.md")
    }

    /// What a reader sees of some HTML or Markdown: no tags, template syntax or `**`,
    /// every run of white space one space.
    fn words(text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find(['<', '{']) {
            out.push_str(&rest[..i]);
            let close = match &rest[i..i + 1] {
                "<" => ">",
                _ if rest[i..].starts_with("{%") => "%}",
                _ if rest[i..].starts_with("{{") => "}}",
                _ => {
                    out.push('{');
                    rest = &rest[i + 1..];
                    continue;
                }
            };
            rest = rest[i..]
                .find(close)
                .map_or("", |j| &rest[i + j + close.len()..]);
        }
        out.push_str(rest);
        let out = out
            .replace("**", "")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&");
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// `N. Title` of every `## N. Title` heading of the document.
    fn doc_sections(doc: &str) -> Vec<String> {
        let mut fenced = false;
        let mut out = Vec::new();
        for line in doc.lines() {
            if line.starts_with("```") {
                fenced = !fenced;
            }
            if let Some(title) = line.strip_prefix("## ").filter(|_| !fenced) {
                out.push(title.trim().to_string());
            }
        }
        out
    }

    /// The text of every `<h2>` of the page.
    fn page_sections(page: &str) -> Vec<String> {
        page.split("<h2")
            .skip(1)
            .map(|h| {
                let inner = &h[h.find('>').map_or(0, |i| i + 1)..];
                words(&inner[..inner.find("</h2>").unwrap_or(inner.len())])
            })
            .collect()
    }

    #[test]
    fn the_rules_page_has_the_numbered_sections_of_the_rules_document_in_order() {
        let sections = doc_sections(&doc());
        assert!(
            sections.len() >= 9 && sections[0] == "1. The board",
            "{sections:?}"
        );
        assert_eq!(page_sections(&page()), sections);
    }

    fn seconds(d: Duration) -> String {
        assert_eq!(d.subsec_nanos(), 0, "{d:?} is said in whole seconds");
        format!("{} seconds", d.as_secs())
    }

    fn size(bytes: u64) -> String {
        const KIB: u64 = 1024;
        const MIB: u64 = 1024 * KIB;
        match bytes {
            b if b % MIB == 0 => format!("{} MiB", b / MIB),
            b if b % KIB == 0 => format!("{} KiB", b / KIB),
            b => format!("{b} bytes"),
        }
    }

    /// `100,000`
    fn thousands(n: usize) -> String {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    }

    #[test]
    fn the_rules_page_and_the_rules_document_give_the_numbers_of_the_code() {
        let m = MatchConfig::default();
        let sandbox = Limits::game();
        let game = bottlebats::plugin::DESCRIPTION.defaults;
        assert_eq!(
            game.max_turns, m.max_turns,
            "`bottlebats play` and the ladder play as many turns"
        );
        assert_eq!(sandbox.cpu_millicores, 1000, "the texts say `one core`");

        // Said on the page and in the document.
        let both = [
            format!("{} turns", m.max_turns),
            format!("The first reply has {}", seconds(m.startup_timeout)),
            format!("every other reply has {}", seconds(m.turn_timeout)),
            format!(
                "stops a reply at {}",
                seconds(m.turn_timeout * m.wall_factor)
            ),
            format!("{} turns in a row", m.max_consecutive_timeouts),
            format!("a line longer than {}", size(m.max_line_bytes as u64)),
            format!("more than {} lines", thousands(m.max_reply_lines)),
            format!("{} a turn", size(m.stderr_turn_bytes as u64)),
            format!("{} a game", size(m.stderr_game_bytes as u64)),
            format!("{} of memory", size(sandbox.memory)),
            format!("{} processes", sandbox.processes),
            "one core".to_string(),
            format!("{} scratch folder", size(sandbox.scratch)),
        ];
        // Said in the document only, its table of the runner's settings first.
        let on_timeout = serde_json::to_string(&m.on_timeout).unwrap();
        assert_eq!(
            m.on_timeout,
            OnTimeout::Skip,
            "the texts explain `skip` first"
        );
        let doc_only = [
            format!("| `max_steps` | {} |", m.max_turns),
            format!("| `turn_timeout_ms` | {} |", m.turn_timeout.as_millis()),
            format!(
                "| `startup_timeout_ms` | {} |",
                m.startup_timeout.as_millis()
            ),
            format!("| `on_timeout` | `{}` |", on_timeout.trim_matches('"')),
            format!("| consecutive timeouts | {} |", m.max_consecutive_timeouts),
            format!("| wall-clock cap | {} × the limit |", m.wall_factor),
            format!("| longest line | {} |", size(m.max_line_bytes as u64)),
            format!("| lines in a reply | {} |", thousands(m.max_reply_lines)),
            format!(
                "| stderr kept | {} a turn, {} a game |",
                size(m.stderr_turn_bytes as u64),
                size(m.stderr_game_bytes as u64)
            ),
            format!(
                "| end of game | stdin closed, then {} ms |",
                m.kill_grace.as_millis()
            ),
            format!(
                "({} for the first reply)",
                seconds(m.startup_timeout * m.wall_factor)
            ),
            format!("{} ms later, kills every process", m.kill_grace.as_millis()),
        ];
        let (page, doc) = (words(&page()), words(&doc()));
        let mut missing = Vec::new();
        for phrase in &both {
            if !page.contains(phrase.as_str()) {
                missing.push(format!("the /rules page lacks `{phrase}`"));
            }
            if !doc.contains(phrase.as_str()) {
                missing.push(format!("games/bottlebats/rules.md lacks `{phrase}`"));
            }
        }
        for phrase in &doc_only {
            if !doc.contains(phrase.as_str()) {
                missing.push(format!("games/bottlebats/rules.md lacks `{phrase}`"));
            }
        }
        assert!(missing.is_empty(), "{}", missing.join("\n"));
    }
}
