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
        .route("/docs/rules.md", get(rules_reference))
        .route("/docs/vindinium-rules.md", get(vindinium_rules))
        .route("/getting-started", get(getting_started))
        .route("/starters/{file}", get(starter_kit))
        .route("/viewer", get(viewer))
        .route("/api/me", get(api_me))
        .route("/api/languages", get(api_languages))
}

#[derive(Template)]
#[template(path = "pages/home.html")]
struct HomePage {
    layout: Layout,
    /// The languages this server builds, for a sentence.
    languages: String,
    /// For a logged-in contestant: their bots at a glance and their latest matches.
    mine: Option<(Vec<super::profile::OwnBot>, Vec<super::ladder::ListedMatch>)>,
    /// The other open games: (name, title, rules address).
    others: Vec<(String, &'static str, String)>,
}

#[derive(Template)]
#[template(path = "pages/rules.html")]
struct RulesPage {
    layout: Layout,
    /// The other open games, whose rules this page links.
    others: Vec<(String, &'static str, String)>,
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
    /// (language key, name) of every starter kit.
    kits: Vec<(&'static str, String)>,
    /// Languages uploads may use here.
    languages: Vec<String>,
    /// Languages of the table this server cannot build, with the program it lacks.
    missing: Vec<(String, String)>,
    /// The program to download: (platform, MiB, SHA-256), if it can be served.
    program: Option<(String, String, String)>,
    /// This site's address, for the commands shown.
    site: String,
    /// Vindinium's kits (language key, name) when it is open here.
    vindinium: Option<Vec<(&'static str, String)>>,
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
            others: other_games(&state).await?,
        }
        .render()?,
    ))
}

/// The open games besides Bottle Bats: (name, title, the address of its rules).
async fn other_games(state: &AppState) -> AppResult<Vec<(String, &'static str, String)>> {
    let mut others = Vec::new();
    for g in super::games::choices(state).await? {
        if g.name != crate::games::DEFAULT {
            let rules = crate::games::content(&g.name)?.rules;
            others.push((g.name, g.title, rules.to_string()));
        }
    }
    Ok(others)
}

async fn rules(State(state): State<AppState>, visitor: Visitor) -> AppResult<Html<String>> {
    Ok(Html(
        RulesPage {
            layout: visitor.layout(),
            others: other_games(&state).await?,
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

async fn getting_started(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    visitor: Visitor,
) -> AppResult<Html<String>> {
    let page = GettingStartedPage {
        site: state.site_address(&headers),
        layout: visitor.layout(),
        kits: crate::starters::kits(&state.languages),
        languages: state
            .languages
            .available()
            .map(|l| l.language.name.clone())
            .collect(),
        missing: state.languages.missing(),
        program: super::downloads::program_facts().await,
        vindinium: (state.open_games.get(&state.db).await?.iter())
            .any(|g| g == "vindinium")
            .then(|| crate::starters::kits_of("vindinium", &state.languages)),
        remote: crate::remote::site_mode(&state.db).await?.as_str(),
    };
    Ok(Html(page.render()?))
}

/// `/starters/LANG.zip`
async fn starter_kit(
    State(state): State<AppState>,
    axum::extract::Path(file): axum::extract::Path<String>,
) -> AppResult<Response> {
    let kit = file.strip_suffix(".zip").ok_or(AppError::NotFound)?;
    // `LANG` is Bottle Bats' kit, `GAME-LANG` another open game's.
    let (game, lang) = match kit.split_once('-') {
        Some((game, lang)) if game != crate::games::DEFAULT => (game, lang),
        _ => (
            crate::games::DEFAULT,
            kit.strip_prefix("bottlebats-").unwrap_or(kit),
        ),
    };
    if game != crate::games::DEFAULT
        && !state
            .open_games
            .get(&state.db)
            .await?
            .iter()
            .any(|g| g == game)
    {
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
    let bytes = crate::starters::zip_of(game, lang).ok_or(AppError::NotFound)?;
    let name = format!("{}.zip", crate::starters::kit_name(game, lang));
    Ok(super::downloads::attachment(
        super::downloads::shared(bytes),
        "application/zip",
        &name,
    ))
}

async fn api_me(ApiUser(u): ApiUser) -> Response {
    Json(json!({"id": u.id, "name": u.name, "admin": u.is_admin})).into_response()
}

/// The `/rules` page is written by hand for contestants, and `games/bottlebats/rules.md` is the
/// complete reference. These tests hold the two together: the page has the document's
/// numbered sections, in order, and both give the numbers the code uses.
/// `GET /docs/rules.md`: the complete rules, the repository's `games/bottlebats/rules.md` as it was
/// when the program was built.
async fn rules_reference() -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/markdown; charset=utf-8",
        )],
        include_str!("../../../games/bottlebats/rules.md"),
    )
        .into_response()
}

/// `GET /docs/vindinium-rules.md`: Vindinium's complete rules, as the program was built.
async fn vindinium_rules() -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/markdown; charset=utf-8",
        )],
        include_str!("../../../games/vindinium/rules.md"),
    )
        .into_response()
}

/// `GET /api/languages`: the languages this server builds (their key for uploads, the
/// entry files that mark an archive, the kit to start from) and those it does not, with
/// what the organizers would install for them.
async fn api_languages(State(state): State<AppState>) -> Json<serde_json::Value> {
    let offered: Vec<_> = state
        .languages
        .available()
        .map(|e| {
            let kit = crate::starters::languages()
                .contains(&e.key.as_str())
                .then(|| format!("/starters/{}.zip", e.key));
            json!({"key": e.key, "name": e.language.name, "entries": e.language.entries, "kit": kit})
        })
        .collect();
    let missing: Vec<_> = state
        .languages
        .missing()
        .into_iter()
        .map(|(name, needs)| json!({"name": name, "needs": needs}))
        .collect();
    Json(json!({"languages": offered, "not_offered": missing}))
}

#[cfg(test)]
mod rules_page {
    use std::path::Path;
    use std::time::Duration;

    use runner::sandbox::Limits;
    use runner::{MatchConfig, OnTimeout};

    fn read(path: &str) -> String {
        let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
        std::fs::read_to_string(full).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn page() -> String {
        read("templates/pages/rules.html")
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
        let local: crate::play::PlayConfig = serde_json::from_str(r#"{"players": {}}"#).unwrap();
        assert_eq!(
            local.max_steps, m.max_steps,
            "`bottlebats play` and the ladder play as many turns"
        );
        assert_eq!(sandbox.cpu_millicores, 1000, "the texts say `one core`");

        // Said on the page and in the document.
        let both = [
            format!("{} turns", m.max_steps),
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
            format!("| `max_steps` | {} |", m.max_steps),
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
