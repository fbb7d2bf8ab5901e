//! The spectators' pages in a real browser: `bottlebats serve` on a fresh database,
//! its worker playing the house bots' ladder, and a contestant's bot (the Python
//! starter kit, writing a line on stderr each turn and one bad command at turn 5)
//! uploaded over the API with a token from `bottlebats admin create-token`.
//!
//! Once enough matches are played the ranker is paused (`bottlebats admin pause`), so
//! the pages and the API hold still while they are compared; then, in headless
//! Chromium:
//!
//! - the leaderboard lists the bots in rating order, as `/api/leaderboard` does, and
//!   after one more match (the ranker resumed for it) takes its rows again from the
//!   server (`static/live.mjs`, `/leaderboard/rows`) exactly as the page draws them;
//! - the match list agrees with `/api/matches`, pages on with "Older matches" and
//!   filters by bot;
//! - a match page draws its replay: play, pause, arrows, the scrub bar, Home/End and
//!   `#t=N` all show the forts (owners and garrisons) of the replay at that turn;
//!   strangers get no stderr panel and their requests for it are refused (401, 403);
//!   the owner's panel follows the turn with the bot's stderr of that turn;
//! - the bot page shows the record of `/api/bots/NAME`, the rating chart, the recent
//!   matches, and to its owner an error board whose links open the replay at the
//!   turn of the problem;
//! - a user page lists the user's bots and matches.
//!
//! Screenshots of each page at desktop and phone width go to `target/screenshots/`.
//! Skipped, saying so, without chromium and chromedriver.
//!
//! The test is a list of steps, each with its own checks: the ladder's (`ladder`, which
//! also holds what a script reads of the API), the lists' (`lists`), the match page's
//! (`replay`), the bot and user pages' (`bot_and_user`); `page` reads and drives the
//! pages.

mod bot_and_user;
mod ladder;
mod lists;
pub(super) mod page;
mod replay;

use super::harness;

use std::time::Instant;

use bot_and_user::{
    a_link_of_the_board_opens_the_replay_at_the_warning,
    a_user_page_lists_the_users_bots_and_matches, others_see_the_bots_record_not_its_board,
    the_bot_page_shows_its_record_as_the_api, the_owners_error_board_links_to_the_problems,
};
use harness::{browser_tools, Browser, Site, Visit};
use ladder::{
    a_contestant_and_a_stranger_sign_up, it_goes_live, the_contestant_uploads_a_bot_over_the_api,
    the_ladder_plays_on_then_holds_still, Db,
};
use lists::{
    a_filter_nothing_matches_says_so_and_clears, the_leaderboard_lists_the_bots_as_the_api,
    the_leaderboard_refreshes_after_one_more_match, the_list_filters_by_the_contestants_bot,
    the_match_list_agrees_with_the_api_and_pages_on,
};
use replay::{
    a_link_to_a_turn_opens_there_and_the_address_moves_it,
    a_stranger_sees_the_result_and_the_replay_but_no_stderr,
    a_stranger_with_an_account_is_refused_the_stderr, keys_and_the_scrub_bar_move_the_replay,
    the_contestants_longest_match, the_owner_reads_the_bots_stderr,
    the_stderr_panel_follows_the_turn,
};

pub(super) const PASSWORD: &str = "a long enough secret";
const OWNER: &str = "mira";
const BOT: &str = "Kestrel";
/// The turn at which the contestant's bot sends a command that cannot be carried out.
const PROBLEM_TURN: usize = 5;
/// Matches the contestant's bot plays before the pages are read.
const OWN_MATCHES: usize = 4;
/// The list shows 50 matches a page; more than that to see a second page.
const FOR_PAGING: usize = 51;

#[test]
fn spectators_follow_the_ladder_matches_replays_bots_and_users() {
    let Some(tools) = browser_tools("the spectator pages' browser test") else {
        return;
    };
    let started = Instant::now();
    let site = Site::start("spectators");
    let db = Db::open(&site.database_url);

    let auth = a_contestant_and_a_stranger_sign_up(&site);
    let uploaded = the_contestant_uploads_a_bot_over_the_api(&site, &auth);
    it_goes_live(&site, &auth, uploaded);
    let live_after = uploaded.elapsed();
    let finished = the_ladder_plays_on_then_holds_still(&site, &db, uploaded);
    let ladder_ready = started.elapsed();

    let browser = Browser::open(&tools, "spectators");
    let browsing = Instant::now();
    let v = &mut Visit::new(&site, &browser.session);

    let rows = the_leaderboard_lists_the_bots_as_the_api(v);
    the_leaderboard_refreshes_after_one_more_match(v, &db, &rows);
    let first = the_match_list_agrees_with_the_api_and_pages_on(v);
    a_filter_nothing_matches_says_so_and_clears(v, &first);
    let own = the_list_filters_by_the_contestants_bot(v);

    let m = the_contestants_longest_match(&site, &own);
    let replay = a_stranger_sees_the_result_and_the_replay_but_no_stderr(v, &m);
    let page = format!("/matches/{}", m.id);
    super::viewer::watching::the_board_and_its_controls_fit_the_window(v, |v| v.page(&page));
    keys_and_the_scrub_bar_move_the_replay(v, &replay);
    let mid = a_link_to_a_turn_opens_there_and_the_address_moves_it(v, &m, &replay);
    a_stranger_with_an_account_is_refused_the_stderr(v, &m);
    let log = the_owner_reads_the_bots_stderr(v, &m);
    the_stderr_panel_follows_the_turn(v, &replay, &log, mid);

    the_bot_page_shows_its_record_as_the_api(v);
    let problems = the_owners_error_board_links_to_the_problems(v);
    a_link_of_the_board_opens_the_replay_at_the_warning(v, &problems[0]);
    others_see_the_bots_record_not_its_board(v);
    a_user_page_lists_the_users_bots_and_matches(v);

    eprintln!(
        "spectator test: {BOT} live {:.1} s after its upload; ladder of {finished} matches \
         ready after {:.1} s; {:.1} s in the browser; {} screenshots; {:.1} s in all",
        live_after.as_secs_f64(),
        ladder_ready.as_secs_f64(),
        browsing.elapsed().as_secs_f64(),
        v.cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}
