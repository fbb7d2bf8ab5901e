//! The leaderboard of a big ladder, a page at a time: the top first, the pages further
//! down with their global ranks, the visitor's own bots among their neighbours, a
//! search by the start of a bot's or owner's name, and the same pages of the API.

use axum::http::StatusCode;
use sqlx::PgPool;

use super::PW;
use crate::common::{Client, Resp};

/// Bots of the ladder besides alice's.
const BOTS: i64 = 230;

/// A ladder of `BOTS` bots of 40 owners (`fan001`...), `bot0001` ranked 1st to
/// `bot0230` last, and three bots of `owner` (an account already): `OWNER-high` between
/// `bot0074` and `bot0075` (75th), `OWNER-low` between `bot0160` and `bot0161` (162nd),
/// and `OWNER-off`, disabled, on no leaderboard. Ranks are distinct: rating is `mu - 3`.
pub async fn big_ladder(db: &PgPool, owner: &str) {
    for sql in [
        "insert into users (name, password_hash) \
         select format('fan%s', lpad(g::text, 3, '0')), '!' from generate_series(1, 40) g",
        "insert into bots (owner_id, name, mu, sigma) \
         select u.id, format('bot%s', lpad(g::text, 4, '0')), 1000 - g, 1 \
         from generate_series(1, 230) g \
         join users u on u.name = format('fan%s', lpad((1 + g % 40)::text, 3, '0'))",
        "insert into bots (owner_id, name, mu, sigma, disabled) \
         select u.id, u.name || b.suffix, b.mu, 1, b.disabled from users u, \
             (values ('-high', 925.5, false), ('-low', 839.5, false), \
                     ('-off', 2000.0, true)) as b(suffix, mu, disabled) \
         where u.name = $1",
        "insert into bot_versions (bot_id, number, language, entry, archive, archive_name, \
             archive_sha256, status) \
         select id, 1, 'python', 'bot.py', '\\x00', 'bot.py', sha256('\\x00'), 'active' from bots \
         where not exists (select 1 from bot_versions v where v.bot_id = bots.id)",
        "update bots b set active_version_id = v.id from bot_versions v \
         where v.bot_id = b.id and v.status = 'active' and b.active_version_id is null",
    ] {
        let q = sqlx::query(sql);
        let q = if sql.contains("$1") { q.bind(owner) } else { q };
        q.execute(db).await.unwrap();
    }
    let ranked: i64 = sqlx::query_scalar(
        "select count(*) from bots where not disabled and active_version_id is not null \
         and (name like 'bot%' or name like $1 || '-%')",
    )
    .bind(owner)
    .fetch_one(db)
    .await
    .unwrap();
    assert_eq!(ranked, BOTS + 2);
}

/// Alice, logged in, on a big ladder; and a stranger.
async fn alice_and_a_stranger() -> (Client, Client) {
    let mut alice = Client::new().await;
    alice.register("alice", PW).await;
    big_ladder(&alice.state.db, "alice").await;
    let stranger = alice.stranger();
    (alice, stranger)
}

/// The `<tbody>` of the table `id` of a page.
pub fn tbody<'a>(page: &'a str, id: &str) -> &'a str {
    let table = &page[page
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no table {id}: {page}"))..];
    let from = table.find("<tbody>").unwrap();
    let to = table.find("</tbody>").unwrap() + "</tbody>".len();
    &table[from..to]
}

/// The (rank, bot) of each row of rows of the leaderboard.
pub fn ranked(rows: &str) -> Vec<(usize, String)> {
    rows.split("<tr data-owner=")
        .skip(1)
        .map(|row| {
            let rank = row.split("class=\"rank-badge rank-").nth(1).unwrap();
            let rank = rank[..rank.find('"').unwrap()].parse().unwrap();
            let bot = row.split("href=\"/bots/").nth(1).unwrap();
            (rank, bot[..bot.find('"').unwrap()].to_string())
        })
        .collect()
}

/// The bot at rank `rank` (from 1) of the ladder of [`big_ladder`].
fn at(rank: usize) -> String {
    match rank {
        75 => "alice-high".into(),
        162 => "alice-low".into(),
        r if r < 75 => format!("bot{r:04}"),
        r if r < 162 => format!("bot{:04}", r - 1),
        r => format!("bot{:04}", r - 2),
    }
}

fn expect(ranks: impl IntoIterator<Item = usize>) -> Vec<(usize, String)> {
    ranks.into_iter().map(|r| (r, at(r))).collect()
}

async fn ok(c: &mut Client, path: &str) -> Resp {
    let r = c.get(path).await;
    assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.body);
    r
}

#[tokio::test]
async fn the_leaderboard_pages_hold_the_global_ranks() {
    let (_, mut s) = alice_and_a_stranger().await;
    let top = ok(&mut s, "/leaderboard").await;
    assert_eq!(
        ranked(tbody(&top.body, "leaderboard")),
        expect(1..=50),
        "the top 50"
    );
    assert!(
        !top.body.contains("id=\"my-bots\""),
        "a stranger has no bots"
    );
    assert!(top.body.contains("data-live=\"/leaderboard/rows\""));
    assert!(top.body.contains("of 232 bots") && top.body.contains("of 5</span>"));
    assert!(top
        .body
        .contains("href=\"/leaderboard?page=2\" rel=\"next\""));
    assert!(!top.body.contains("rel=\"prev\""));

    let second = ok(&mut s, "/leaderboard?page=2").await;
    let rows = tbody(&second.body, "leaderboard");
    assert_eq!(ranked(rows), expect(51..=100), "ranks stay the ladder's");
    assert!(second.body.contains("Ranks 51 to 100"));
    assert!(second.body.contains("href=\"/leaderboard\" rel=\"prev\""));
    assert!(second
        .body
        .contains("data-live=\"/leaderboard/rows?page=2\""));
    // What the page refreshes is that page's rows, and only those.
    let refreshed = ok(&mut s, "/leaderboard/rows?page=2").await;
    assert_eq!(refreshed.body.trim(), rows.trim());

    let last = ok(&mut s, "/leaderboard?page=5").await;
    assert_eq!(ranked(tbody(&last.body, "leaderboard")), expect(201..=232));
    assert!(!last.body.contains("rel=\"next\""));

    for page in ["6", "0", "4000000000"] {
        let r = s.get(&format!("/leaderboard?page={page}")).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "page {page}");
        assert!(
            r.body.contains(&format!(
                "There is no page {page} of the leaderboard: it has 5 pages."
            )) && r.body.contains("href=\"/leaderboard?page=5\""),
            "page {page} says where the pages are: {}",
            r.body
        );
        let rows = s.get(&format!("/leaderboard/rows?page={page}")).await;
        assert_eq!(rows.status, StatusCode::NOT_FOUND);
    }

    // The API's pages are the same.
    let api = ok(&mut s, "/api/leaderboard?page=2&limit=50").await.json();
    let api_rows: Vec<(usize, String)> = api["leaderboard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().unwrap() as usize,
                r["bot"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(api_rows, expect(51..=100));
    assert_eq!(
        (api["page"].as_u64(), api["pages"].as_u64()),
        (Some(2), Some(5))
    );
    assert_eq!(
        (api["limit"].as_u64(), api["bots"].as_u64()),
        (Some(50), Some(232))
    );
    let api = ok(&mut s, "/api/leaderboard?limit=7&page=24").await.json();
    assert_eq!(api["leaderboard"][0]["rank"], 162);
    assert_eq!(api["leaderboard"][0]["bot"], "alice-low");
    let past = ok(&mut s, "/api/leaderboard?page=9").await.json();
    assert_eq!(
        past["leaderboard"].as_array().unwrap().len(),
        0,
        "past the end: none"
    );
    // Without a page, every bot, as the API always gave them.
    let all = ok(&mut s, "/api/leaderboard").await.json();
    assert_eq!(all["leaderboard"].as_array().unwrap().len(), 232);
    assert_eq!(all["leaderboard"][231]["bot"], at(232));
}

#[tokio::test]
async fn a_visitor_sees_their_bots_among_their_neighbours() {
    let (mut alice, mut s) = alice_and_a_stranger().await;
    for path in ["/leaderboard", "/leaderboard?page=4"] {
        let page = ok(&mut alice, path).await;
        let mine = tbody(&page.body, "my-bots");
        assert_eq!(
            ranked(mine),
            expect((73..=77).chain(160..=164)),
            "{path}: each bot with two rows above and below"
        );
        assert_eq!(
            mine.matches("class=\"gap\"").count(),
            2,
            "rows left out above each"
        );
        assert!(
            !mine.contains("alice-off"),
            "a disabled bot is on no leaderboard"
        );
        assert!(page
            .body
            .contains("data-live=\"/leaderboard/rows?mine=1\" data-me=\"alice\""));
        // The ladder's page below is the page asked for, whoever looks.
        let theirs = ok(&mut s, path).await;
        assert_eq!(
            tbody(&page.body, "leaderboard"),
            tbody(&theirs.body, "leaderboard")
        );
    }
    let refreshed = ok(&mut alice, "/leaderboard/rows?mine=1").await;
    assert_eq!(ranked(&refreshed.body).len(), 10);
    let strangers = ok(&mut s, "/leaderboard/rows?mine=1").await;
    assert!(
        !strangers.body.contains("<tr"),
        "no bots, no rows: {}",
        strangers.body
    );
    // The user page and the profile give the same places.
    let user = ok(&mut s, "/users/alice").await;
    assert!(user.body.contains("rank-75") && user.body.contains("rank-162"));
    let profile = ok(&mut alice, "/profile").await;
    assert!(profile.body.contains("#75 of 232") && profile.body.contains("#162 of 232"));
}

#[tokio::test]
async fn a_search_finds_bots_by_the_start_of_their_name_or_their_owners() {
    let (_, mut s) = alice_and_a_stranger().await;
    // By bot: the ranks are the ladder's.
    let r = ok(&mut s, "/leaderboard?q=bot007").await;
    assert_eq!(
        ranked(tbody(&r.body, "leaderboard")),
        [
            (70, at(70)),
            (71, at(71)),
            (72, at(72)),
            (73, at(73)),
            (74, at(74)),
            (76, at(76)),
            (77, at(77)),
            (78, at(78)),
            (79, at(79)),
            (80, at(80))
        ],
    );
    assert!(r
        .body
        .contains("10 bots whose name or owner’s name starts with “bot007”"));
    assert!(r.body.contains("data-live=\"/leaderboard/rows?q=bot007\""));
    assert!(
        !r.body.contains("board-pager"),
        "no pages: every bot found is shown"
    );
    let refreshed = ok(&mut s, "/leaderboard/rows?q=bot007").await;
    assert_eq!(refreshed.body.trim(), tbody(&r.body, "leaderboard").trim());
    // By owner, whatever the case.
    let r = ok(&mut s, "/leaderboard?q=ALICE").await;
    assert_eq!(ranked(tbody(&r.body, "leaderboard")), expect([75, 162]));
    let r = ok(&mut s, "/leaderboard?q=fan007").await;
    let found = ranked(tbody(&r.body, "leaderboard"));
    // fan007 owns bot g for g % 40 = 6: bot0006, bot0046, ...
    let owned: Vec<String> = (6..=230)
        .step_by(40)
        .map(|g| format!("bot{g:04}"))
        .collect();
    assert_eq!(
        found.iter().map(|(_, b)| b.clone()).collect::<Vec<_>>(),
        owned
    );
    assert!(found.iter().all(|(rank, bot)| at(*rank) == *bot));
    // Many matches: the first 50, and a word on the others.
    let r = ok(&mut s, "/leaderboard?q=bot").await;
    assert_eq!(ranked(tbody(&r.body, "leaderboard")).len(), 50);
    assert!(r.body.contains("type more of the name for the others"));
    // Nothing.
    let r = ok(&mut s, "/leaderboard?q=zebra").await;
    assert!(r.body.contains("No bot or owner name starts with “zebra”."));
    assert!(!r.body.contains("id=\"leaderboard\""));
    // Longer than any name: cut, and said.
    let long = format!("bot0001{}", "x".repeat(40));
    let r = ok(&mut s, &format!("/leaderboard?q={long}")).await;
    assert!(r.body.contains("id=\"search-cut\""), "{}", r.body);
    assert!(r.body.contains(&format!("starts with “{}”", &long[..32])));
    let r = ok(&mut s, "/leaderboard?q=bot0001").await;
    assert!(!r.body.contains("id=\"search-cut\""));
    assert_eq!(ranked(tbody(&r.body, "leaderboard")), expect([1]));
}
