//! A bot's record for its page: rating and results, the rating history as a chart,
//! recent matches, and for its owner an error board per version with links to the
//! turn where each problem shows in the replay.

use super::BotRow;
use crate::ids::BotId;
use crate::ranker::rating::conservative;
use crate::standings::{latest_matches, MatchFilter, Record};
use crate::web::error::AppResult;
use crate::web::format::code_spans;
use crate::web::ladder::ListedMatch;
use crate::web::AppState;

/// Most points a rating chart draws (one more when the last game is not on the step).
pub const CHART_POINTS: i64 = 500;

/// The rating chart, drawn as an SVG polyline.
pub struct Chart {
    /// `x,y x,y ...` in a 600 × 160 box.
    pub points: String,
    pub top: String,
    pub bottom: String,
    pub games: usize,
}

/// Problems of one version in its matches.
pub struct ErrorBoardRow {
    pub version: i32,
    pub matches: i64,
    pub timeouts: i64,
    pub crashes: i64,
    pub warnings: i64,
    /// One line per kind of problem and message, the most recently seen first.
    pub recent: Vec<ProblemGroup>,
}

/// The same problem (kind and message) over the matches it showed in.
pub struct ProblemGroup {
    /// Where it showed last: the latest match, at the turn it first showed there.
    pub latest: ProblemLine,
    /// Matches it showed in, among those the board reads.
    pub matches: usize,
    /// Times it happened in them.
    pub times: u32,
}

/// Matches with problems the board reads for each version, the latest: enough to
/// group what keeps happening, bounded for a bot of many thousand games.
pub const BOARD_MATCHES: i64 = 200;

/// `lines`, latest match first, grouped by kind and message, in that order.
fn grouped(lines: impl IntoIterator<Item = ProblemLine>) -> Vec<ProblemGroup> {
    let mut groups: Vec<ProblemGroup> = Vec::new();
    for line in lines {
        let same = |g: &&mut ProblemGroup| {
            g.latest.kind == line.kind && g.latest.text_html == line.text_html
        };
        match groups.iter_mut().find(same) {
            Some(g) => {
                g.matches += 1;
                g.times += line.count;
            }
            None => groups.push(ProblemGroup {
                matches: 1,
                times: line.count,
                latest: line,
            }),
        }
    }
    groups
}

/// A kind of problem in one match: where it first showed, and in what words.
pub struct ProblemLine {
    pub match_id: i64,
    pub turn: u32,
    /// "invalid command", "timeout", "limit", "removed".
    pub kind: &'static str,
    /// "warning", "timeout", "limit", "removed".
    pub class: &'static str,
    /// The message as HTML, its `quoted` parts as code.
    pub text_html: String,
    /// How many of that kind the bot had in the match.
    pub count: u32,
}

/// The lines of one match's problems: from the stored kinds, or for matches recorded
/// before they were kept, one line from the first problem's turn and the error.
fn problem_lines(
    match_id: i64,
    stored: Option<&str>,
    old: (Option<i32>, &Option<String>, i32, i32),
) -> Vec<ProblemLine> {
    use game_interface::problems::{Kind, Problem};
    if let Some(list) = stored.and_then(|s| serde_json::from_str::<Vec<Problem>>(s).ok()) {
        return list
            .into_iter()
            .map(|p| ProblemLine {
                match_id,
                turn: p.first_turn,
                kind: p.kind.label(),
                class: p.kind.name(),
                text_html: code_spans(&p.text),
                count: p.count,
            })
            .collect();
    }
    let (turn, error, timeouts, warnings) = old;
    let (kind, text, count) = match (error, timeouts, warnings) {
        (Some(e), _, _) => (Kind::Removed, e.clone(), 1),
        (None, t, _) if t > 0 => (
            Kind::Timeout,
            "no reply within the time limit".to_string(),
            t,
        ),
        (None, _, w) => (Kind::Warning, String::new(), w),
    };
    vec![ProblemLine {
        match_id,
        turn: turn.unwrap_or(0) as u32,
        kind: kind.label(),
        class: kind.name(),
        text_html: code_spans(&text),
        count: count as u32,
    }]
}

/// Where the bot stands and when it plays, in words for its page.
pub struct StandingText {
    /// "#3 of 41", when it is on the leaderboard.
    pub rank: Option<String>,
    /// ("up" | "down" | "same", "▲ 2 since yesterday"), when it was ranked a day ago.
    pub change: Option<(&'static str, String)>,
    /// μ's 95% interval, "21.20 and 33.40" (the page says "μ between" it).
    pub interval: String,
    /// "4 minutes ago", or "never".
    pub last_played: String,
    /// When it plays next, roughly, when it can play.
    pub next: Option<String>,
}

/// When a bot that plays will play next, honestly: none while the ladder is paused or
/// frozen, or while no other player's bot plays; else about twice the ladder's mean
/// gap between a bot's games (`cargo bench -p server --bench waits`: the next game came
/// within it at 94.7% of the moments sampled, and no bot waited more than 4.2 gaps).
fn next_match(st: &crate::standings::BotStanding, place: i64, line: i64) -> String {
    match (st.stopped, st.opponents, st.gap_minutes) {
        (Some("paused"), _, _) => {
            "none for now: the organizers paused the ladder, and no ranked match starts until they resume it".into()
        }
        (Some(_), _, _) => {
            "none: the ladder froze at the submission deadline, and ratings stay as they are".into()
        }
        (None, 0, _) => {
            "none yet: no other player's bot plays, and a bot never meets its owner's other bots".into()
        }
        (None, _, Some(gap)) => format!(
            "usually within about {}: bots here play a ranked game about every {} (the ladder's pace over the last 10 minutes), and a bot that has waited twice as long as most goes first. It is {} of {line} in line (least played first)",
            span(2.0 * gap),
            span(gap),
            ordinal(place)
        ),
        (None, _, None) => format!(
            "as soon as a worker is free: no ranked match finished in the last 10 minutes. It is {} of {line} in line (least played first)",
            ordinal(place)
        ),
    }
}

/// A wait of `minutes` in words, as measured: `20 seconds`, `3 minutes`
/// (a ladder that plays every few seconds is not said to take a minute).
fn span(minutes: f64) -> String {
    let seconds = (minutes * 60.0).max(1.0);
    if seconds < 60.0 {
        let s = if seconds < 10.0 {
            seconds.ceil()
        } else {
            (seconds / 5.0).ceil() * 5.0
        };
        return format!("{s:.0} second{}", if s == 1.0 { "" } else { "s" });
    }
    let m = (seconds / 60.0).round();
    format!("{m:.0} minute{}", if m == 1.0 { "" } else { "s" })
}

fn standing_text(st: &crate::standings::BotStanding, record: &Record, game: &str) -> StandingText {
    let change = match (st.rank, st.rank_day_ago) {
        (Some((now, _)), Some(then)) if now < then => {
            Some(("up", format!("▲ {} since yesterday", then - now)))
        }
        (Some((now, _)), Some(then)) if now > then => {
            Some(("down", format!("▼ {} since yesterday", now - then)))
        }
        (Some(_), Some(_)) => Some(("same", "no change since yesterday".to_string())),
        _ => None,
    };
    let next = st.line.map(|(place, line)| next_match(st, place, line));
    StandingText {
        rank: (st.rank).map(|(p, of)| crate::web::games::rank_text(p as usize, of as usize, game)),
        change,
        interval: format!(
            "{:.2} and {:.2}",
            record.mu - 1.96 * record.sigma,
            record.mu + 1.96 * record.sigma
        ),
        last_played: st
            .last_game_at
            .map_or_else(|| "never".into(), crate::web::format::ago),
        next,
    }
}

/// Ranked games after which the page stops saying a version's rating started over:
/// a few dozen games narrow σ most of the way back.
pub const SETTLING_GAMES: i32 = 30;

/// The version that plays and its games, while its rating settles after a change of
/// version (not for a bot's first version: its rating was never anything else).
fn started_over(bot: &BotRow) -> Option<(i32, i32)> {
    let v = bot.active?;
    let earlier = bot.record.games > bot.version_games;
    (earlier && bot.version_games < SETTLING_GAMES).then_some((v, bot.version_games))
}

/// "1st", "2nd", "3rd", "11th", "22nd".
fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

pub struct Stats {
    pub standing: StandingText,
    /// Why the rating is low for now, while a newly chosen version plays its first
    /// games: (version, its games).
    pub started_over: Option<(i32, i32)>,
    pub rating: String,
    pub mu_sigma: String,
    pub games: i32,
    pub wins: i32,
    pub losses: i32,
    pub draws: i32,
    /// What won, drawn and lost count, in a game of more than two players (where a
    /// second place is not a win).
    pub record_note: Option<String>,
    pub chart: Option<Chart>,
    pub recent: Vec<ListedMatch>,
    pub error_board: Vec<ErrorBoardRow>,
}

/// [`Stats::record_note`] of `game`'s bots.
pub fn record_note(game: &str) -> Option<String> {
    let kind = crate::games::kind(game).ok()?;
    let most = kind.defaults().seats.1;
    (most > 2).then(|| {
        format!(
            "In {}'s games of up to {most} players, won counts the games finished first alone, \
             drawn those whose first place was shared, and lost every other place.",
            kind.title()
        )
    })
}

fn chart(history: &[f64], games: usize) -> Option<Chart> {
    if history.len() < 2 {
        return None;
    }
    let (lo, hi) = history
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let span = (hi - lo).max(1.0);
    let step = 600.0 / (history.len() - 1) as f64;
    let points = history
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            format!(
                "{:.1},{:.1}",
                i as f64 * step,
                150.0 - 140.0 * (x - lo) / span
            )
        })
        .collect::<Vec<_>>()
        .join(" ");
    Some(Chart {
        points,
        top: format!("{hi:.1}"),
        bottom: format!("{lo:.1}"),
        games,
    })
}

pub async fn stats(state: &AppState, bot: &BotRow, owner: bool) -> AppResult<Stats> {
    let (bot_id, name, record) = (bot.id, bot.name.as_str(), bot.record);
    // At most about CHART_POINTS points, the first and the last always: a chart is
    // 600 pixels wide, and a bot of 100,000 games must not make a page of megabytes.
    let history = sqlx::query!(
        r#"select mu as "mu!", sigma as "sigma!", n as "n!" from (
               select mu, sigma, at, match_id,
                   row_number() over (order by at, match_id) - 1 as i, count(*) over () as n
               from rating_history where bot_id = $1) h
           where i % greatest(1, (n + $2 - 1) / $2) = 0 or i = n - 1
           order by at, match_id"#,
        bot_id as BotId,
        CHART_POINTS
    )
    .fetch_all(&state.db)
    .await?;
    let games = history.first().map_or(0, |h| h.n as usize);
    let history: Vec<f64> = history
        .into_iter()
        .map(|h| conservative(h.mu, h.sigma))
        .collect();
    // Ranked games only: a challenge's or an A/B test's games say nothing of the
    // rating (its unranked games are a link away).
    let filter = MatchFilter {
        bot: Some(name.to_string()),
        kind: Some("ranked".into()),
        ..MatchFilter::default()
    };
    let recent = latest_matches(&state.db, &filter, 10)
        .await?
        .iter()
        .map(ListedMatch::from)
        .collect();
    let error_board = if owner {
        error_board(state, bot_id).await?
    } else {
        Vec::new()
    };
    let board = crate::web::ladder::leaderboard(state, &bot.game).await?;
    let standing = crate::standings::bot_standing(
        &state.db,
        &state.day_ago_ranks,
        bot_id,
        name,
        crate::standings::LadderNow {
            game: board.game,
            board: &board.standings,
            finished_lately: board.finished_lately,
        },
        // The phase every page reads already (paused, frozen), from its cache.
        &state.contest.get(&state.db).await?,
    )
    .await?;
    Ok(Stats {
        standing: standing_text(&standing, &record, &bot.game),
        started_over: started_over(bot),
        rating: format!("{:.2}", record.rating()),
        mu_sigma: record.mu_sigma(),
        games: record.games,
        wins: record.wins,
        losses: record.losses,
        draws: record.draws,
        record_note: record_note(&bot.game),
        chart: chart(&history, games),
        recent,
        error_board,
    })
}

async fn error_board(state: &AppState, bot_id: BotId) -> AppResult<Vec<ErrorBoardRow>> {
    let totals = sqlx::query!(
        r#"select v.number, count(distinct p.match_id) as "matches!",
               coalesce(sum(p.timeouts), 0)::bigint as "timeouts!",
               count(p.error) as "crashes!", coalesce(sum(p.warnings), 0)::bigint as "warnings!"
           from match_players p join matches m on m.id = p.match_id
           join bot_versions v on v.id = p.version_id
           where p.bot_id = $1 and m.status = 'finished'
           group by v.number order by v.number desc"#,
        bot_id as BotId
    )
    .fetch_all(&state.db)
    .await?;
    // The latest problems of every version, in one pass over the bot's seats.
    let problems = sqlx::query!(
        r#"select number as "number!", match_id as "match_id!", problem_turn, error,
               timeouts as "timeouts!", warnings as "warnings!", problems
           from (
               select v.number, p.match_id, p.problem_turn, p.error, p.timeouts, p.warnings,
                   p.problems::text,
                   row_number() over (partition by v.number order by p.match_id desc) as k
               from match_players p join matches m on m.id = p.match_id
               join bot_versions v on v.id = p.version_id
               where p.bot_id = $1 and m.status = 'finished'
                 and (p.error is not null or p.timeouts > 0 or p.warnings > 0)) x
           where k <= $2 order by number desc, match_id desc"#,
        bot_id as BotId,
        BOARD_MATCHES
    )
    .fetch_all(&state.db)
    .await?;
    let rows = totals
        .into_iter()
        .map(|t| ErrorBoardRow {
            version: t.number,
            matches: t.matches,
            timeouts: t.timeouts,
            crashes: t.crashes,
            warnings: t.warnings,
            recent: grouped(
                problems
                    .iter()
                    .filter(|p| p.number == t.number)
                    .flat_map(|p| {
                        let old = (p.problem_turn, &p.error, p.timeouts, p.warnings);
                        problem_lines(p.match_id, p.problems.as_deref(), old)
                    }),
            ),
        })
        .collect();
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::{grouped, next_match, span, ProblemLine};

    #[test]
    fn waits_are_said_as_measured() {
        assert_eq!(span(0.05), "3 seconds");
        assert_eq!(span(0.3), "20 seconds");
        assert_eq!(span(0.99), "60 seconds");
        assert_eq!(span(1.0), "1 minute");
        assert_eq!(span(7.4), "7 minutes");
    }

    #[test]
    fn one_problem_over_many_matches_is_one_group_with_its_latest_match() {
        let line = |match_id, kind, text: &str, count| ProblemLine {
            match_id,
            turn: 3,
            kind,
            class: "warning",
            text_html: text.into(),
            count,
        };
        let lines = (0..8)
            .rev()
            .map(|m| line(m, "invalid command", "no fort", 2))
            .chain([
                line(2, "timeout", "late", 1),
                line(1, "invalid command", "other", 1),
            ]);
        let groups = grouped(lines);
        let seen: Vec<_> = groups
            .iter()
            .map(|g| {
                (
                    g.latest.kind,
                    g.latest.text_html.as_str(),
                    g.matches,
                    g.times,
                    g.latest.match_id,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("invalid command", "no fort", 8, 16, 7),
                ("timeout", "late", 1, 1, 2),
                ("invalid command", "other", 1, 1, 1)
            ]
        );
    }
    use crate::standings::BotStanding;

    #[test]
    fn the_next_match_is_promised_only_when_one_can_start() {
        let st = |stopped, opponents, gap_minutes| BotStanding {
            stopped,
            opponents,
            gap_minutes,
            ..BotStanding::default()
        };
        assert!(next_match(&st(Some("paused"), 5, Some(1.5)), 1, 9).contains("paused the ladder"));
        assert!(next_match(&st(Some("frozen"), 5, Some(1.5)), 1, 9).contains("froze"));
        assert!(next_match(&st(None, 0, Some(1.5)), 1, 9)
            .starts_with("none yet: no other player's bot plays"));
        let pace = next_match(&st(None, 5, Some(1.5)), 3, 9);
        assert!(pace.starts_with("usually within about 3 minutes"), "{pace}");
        assert!(pace.contains("3rd of 9 in line"), "{pace}");
        assert!(next_match(&st(None, 5, None), 1, 9).starts_with("as soon as a worker is free"));
        // Games every few seconds are not said to take a minute.
        let busy = next_match(&st(None, 5, Some(0.05)), 1, 9);
        assert!(busy.starts_with("usually within about 6 seconds: bots here play a ranked game about every 3 seconds"), "{busy}");
    }
}
