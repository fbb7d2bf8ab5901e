//! The site in a real browser: `bottlebats serve` on a free port (with its builder),
//! headless Chromium driven through chromedriver (W3C WebDriver).
//!
//! - A visitor registers, logs out, mistypes the password, logs in, makes and revokes an
//!   API token and reads the other pages.
//! - A contestant uploads the Python starter bot from "New bot", watches its page until
//!   the version is built, smoke-tested and plays, finds it on the profile, then uploads
//!   a version that crashes and sees why it failed while the first one keeps playing.
//!
//! Each step checks the text the page shows. Screenshots of every page at desktop and
//! phone width go to `target/screenshots/` for people to look at. The browser tests skip,
//! saying so, when `chromium` or `chromedriver` is not installed
//! (`apt-get install chromium chromium-driver`).

use super::harness;
use super::webdriver;

use std::time::{Duration, Instant};

use harness::{
    browser_tools, starter_bot, viewport, wait_for_path, Browser, Site, Visit, BUILD_DEADLINE,
    DESKTOP, PHONE,
};
use serde_json::json;
use webdriver::Session;

const PASSWORD: &str = "a long enough secret";

#[test]
fn a_visitor_registers_logs_in_makes_a_token_and_reads_the_pages() {
    let Some(tools) = browser_tools("the account pages' browser test") else {
        return;
    };
    // Dropped in reverse order on any exit: the browser session, chromedriver with the
    // browser's processes, then the server.
    let site = Site::start("browser-accounts");
    let browser = Browser::open(&tools, "accounts");
    let started = Instant::now();
    let v = &mut Visit::new(&site, &browser.session);

    a_stranger_sees_the_home_page(v);
    the_phone_menu_opens_and_folds(v);
    registering_logs_in_and_shows_the_profile(v);
    logging_out_goes_home(v);
    a_wrong_password_says_so_and_keeps_the_name(v);
    the_right_password_logs_in(v);
    a_new_token_is_shown_once_then_revoked(v);
    the_other_pages_read_well(v);
    the_phone_menu_knows_who_is_logged_in(v);
    a_missing_page_says_so_and_knows_who_is_there(v);

    eprintln!(
        "browser test: {} screenshots in target/screenshots in {:.1} s",
        v.cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}

/// The home page, as a stranger sees it.
fn a_stranger_sees_the_home_page(v: &mut Visit) {
    let b = v.b;
    v.page("/");
    b.wait_text("h1", "Write a bot. Take the forts.");
    assert_eq!(b.text("header .account"), "Log in\nRegister");
    v.cam.both("home");
}

/// On a phone the menu is folded behind the button and opens with it.
fn the_phone_menu_opens_and_folds(v: &mut Visit) {
    let b = v.b;
    viewport(b, PHONE);
    let rules_link = b.find("header .links a[href='/rules']");
    assert!(!b.displayed(&rules_link), "the menu starts folded");
    b.click("header label.menu-button");
    assert!(b.displayed(&rules_link), "the button opens the menu");
    let links = b.text("header .links");
    assert!(
        links.lines().any(|l| l == "Rules") && links.lines().any(|l| l == "Getting started"),
        "{links}"
    );
    assert_eq!(b.text("header .account"), "Log in\nRegister");
    v.cam.snap("menu-open-phone");
    b.click("header label.menu-button");
    assert!(!b.displayed(&rules_link), "the button folds it again");
    viewport(b, DESKTOP);
}

/// Registering logs you in and shows your profile.
fn registering_logs_in_and_shows_the_profile(v: &mut Visit) {
    let b = v.b;
    b.click("header .account a[href='/register']");
    b.wait_text("h1", "Register");
    v.cam.both("register");
    b.fill("input[name=name]", "gwen");
    b.fill("input[name=password]", PASSWORD);
    b.fill("input[name=password2]", PASSWORD);
    b.click("main button[type=submit]");
    wait_for_path(b, "/profile");
    assert_eq!(b.wait_text("main h1", "gwen"), "gwen");
    assert_eq!(b.text("header .account .who"), "gwen");
    assert!(b.text("#tokens").contains("You have no tokens."));
}

/// Logging out: back home, the menu offers to log in again.
fn logging_out_goes_home(v: &mut Visit) {
    let b = v.b;
    b.click("header .account button");
    b.wait_text("header .account", "Log in");
    assert!(!b.text("header .account").contains("gwen"));
    wait_for_path(b, "/");
}

/// A wrong password says so and keeps the name typed.
fn a_wrong_password_says_so_and_keeps_the_name(v: &mut Visit) {
    let b = v.b;
    b.click("header .account a[href='/login']");
    b.wait_text("h1", "Log in");
    v.cam.both("login");
    b.fill("input[name=name]", "gwen");
    b.fill("input[name=password]", "not my password");
    b.click("main button[type=submit]");
    assert_eq!(
        b.wait_text(".alert.error", "Wrong name or password."),
        "Wrong name or password."
    );
    assert_eq!(
        b.property(&b.find("input[name=name]"), "value"),
        json!("gwen")
    );
    v.cam.both("login-error");
}

/// The right one logs in.
fn the_right_password_logs_in(v: &mut Visit) {
    let b = v.b;
    b.fill("input[name=password]", PASSWORD);
    b.click("main button[type=submit]");
    wait_for_path(b, "/profile");
    b.wait_text("main h1", "gwen");
}

/// A new API token is shown once; revoking it empties the list.
fn a_new_token_is_shown_once_then_revoked(v: &mut Visit) {
    let b = v.b;
    b.fill("#tokens input[name=name]", "laptop");
    b.click("#tokens form.row button");
    let token = b.wait_text("#new-token", "bbt_");
    assert!(token.starts_with("bbt_") && token.len() > 20, "{token}");
    assert!(b.text("#tokens table").contains("laptop"));
    v.cam.both("profile-token");
    v.page("/profile");
    b.wait_text("#tokens table", "laptop");
    assert!(b.find_all("#new-token").is_empty(), "shown only once");
    assert!(!b.text("main").contains(&token));

    b.click("#tokens button.danger");
    b.wait_text("#tokens .alert.success", "The token was revoked.");
    assert!(b.text("#tokens").contains("You have no tokens."));
    assert!(b.find_all("#tokens table").is_empty());
}

/// The rules, getting started, and home again, logged in.
fn the_other_pages_read_well(v: &mut Visit) {
    let b = v.b;
    v.page("/rules");
    b.wait_text("h1", "The rules");
    assert!(b.text("main").contains("Sieges"));
    v.cam.both("rules");
    v.page("/getting-started");
    b.wait_text("h1", "Getting started");
    assert!(b.text("main").contains("config.json"));
    v.cam.both("getting-started");
    v.page("/");
    b.wait_text("h1", "Write a bot. Take the forts.");
    assert_eq!(b.text("header .account .who"), "gwen");
}

/// The menu on a phone, logged in.
fn the_phone_menu_knows_who_is_logged_in(v: &mut Visit) {
    let b = v.b;
    viewport(b, PHONE);
    b.click("header label.menu-button");
    b.wait_text("header .account", "gwen");
    assert!(b.text("header .account").contains("Log out"));
    v.cam.snap("menu-open-logged-in-phone");
    viewport(b, DESKTOP);
}

fn a_missing_page_says_so_and_knows_who_is_there(v: &mut Visit) {
    let b = v.b;
    v.page("/no/such/page");
    b.wait_text("h1", "Page not found");
    assert_eq!(b.text(".error-page .status"), "404");
    assert!(b.text("main").contains("There is nothing at this address."));
    assert_eq!(
        b.text("header .account .who"),
        "gwen",
        "the 404 page knows you"
    );
    v.cam.both("not-found");
}

/// Waits until `done` holds for the page, up to `deadline`, reloading it every second
/// when `reload` (otherwise the page must refresh itself).
fn wait_for(
    b: &Session,
    what: &str,
    deadline: Duration,
    reload: bool,
    done: impl Fn(&Session) -> bool,
) {
    let start = Instant::now();
    loop {
        if done(b) {
            return;
        }
        if start.elapsed() > deadline {
            b.give_up(&format!(
                "{what}: not after {} s on {}",
                deadline.as_secs(),
                b.url()
            ));
        }
        std::thread::sleep(Duration::from_secs(1));
        if reload {
            b.refresh();
        }
    }
}

/// The status pill of a version on its bot's page, if the page shows it now.
fn status_of(b: &Session, version: u32) -> Option<String> {
    b.text_now(&format!("#version-{version} .status"))
}

#[test]
fn a_contestant_uploads_a_bot_sees_it_go_live_then_a_broken_version_fail() {
    let Some(tools) = browser_tools("the bot upload browser test") else {
        return;
    };
    let site = Site::start("browser-bots");
    let browser = Browser::open(&tools, "bots");
    let started = Instant::now();
    let v = &mut Visit::new(&site, &browser.session);

    a_new_contestant_has_no_bots(v);
    new_bot_opens_the_form_with_custom_commands_folded(v);
    a_file_over_the_limit_is_refused_before_it_is_sent(v);
    let uploaded = uploads_the_python_starter_bot(v);
    its_page_shows_version_1_on_its_way(v);
    let live_after = the_page_refreshes_itself_until_version_1_plays(v, uploaded);
    the_profile_lists_it(v);
    let uploaded = uploads_a_version_that_crashes(v);
    let failed_after = version_2_fails_and_says_why_while_version_1_plays(v, uploaded);
    a_visitor_sees_the_versions_but_not_why_one_failed(v);

    eprintln!(
        "bot browser test: version 1 plays {:.1} s after its upload (screenshots included), \
         version 2 failed {:.1} s after its upload; {} screenshots in target/screenshots; \
         {:.1} s with the browser",
        live_after.as_secs_f64(),
        failed_after.as_secs_f64(),
        v.cam.taken.len(),
        started.elapsed().as_secs_f64()
    );
}

fn a_new_contestant_has_no_bots(v: &mut Visit) {
    let b = v.b;
    v.page("/register");
    b.fill("input[name=name]", "robin");
    b.fill("input[name=password]", PASSWORD);
    b.fill("input[name=password2]", PASSWORD);
    b.click("main button[type=submit]");
    wait_for_path(b, "/profile");
    b.wait_text("#bots", "You have no bots yet.");
}

/// "New bot" in the header opens the form; the custom commands are folded away.
fn new_bot_opens_the_form_with_custom_commands_folded(v: &mut Visit) {
    let b = v.b;
    b.click("header .account a[href='/bots/new']");
    wait_for_path(b, "/bots/new");
    b.wait_text("main h1", "New bot");
    assert_eq!(
        b.text("header .account a[aria-current=page]"),
        "New bot",
        "the header shows where we are"
    );
    let run = b.find("input[name=run_command]");
    assert!(!b.displayed(&run), "the custom commands start folded");
    assert_eq!(
        b.property(&b.find("select[name=language]"), "value"),
        json!("auto"),
        "recognising the language is the default"
    );
    v.cam.both("bot-new");
}

/// A file over the site's limit is refused in the browser, at once, on the form: the
/// form is not sent and keeps what was typed.
fn a_file_over_the_limit_is_refused_before_it_is_sent(v: &mut Visit) {
    let b = v.b;
    b.fill("input[name=name]", "Heavy");
    b.execute(
        "const input = document.querySelector('input[type=file]');
         const dt = new DataTransfer();
         dt.items.add(new File([new Uint8Array(11 * 1024 * 1024)], 'big.zip'));
         input.files = dt.files;
         input.dispatchEvent(new Event('change', { bubbles: true }));",
    );
    let said = b.wait_text("form .upload-check", "larger than this site accepts");
    assert!(said.starts_with("big.zip is 11.0 MiB"), "{said}");
    b.click("main form button[type=submit]");
    std::thread::sleep(Duration::from_millis(300));
    assert!(b.url().ends_with("/bots/new"), "the form was not sent");
    assert_eq!(
        b.property(&b.find("input[name=name]"), "value"),
        json!("Heavy")
    );
    v.cam.snap("bot-new-too-big");
    // Clears the choice and the name for the real upload.
    b.execute(
        "const input = document.querySelector('input[type=file]');
         input.value = '';
         input.dispatchEvent(new Event('change', { bubbles: true }));
         document.querySelector('input[name=name]').value = '';",
    );
    assert!(
        b.find_all("form .upload-check").is_empty(),
        "the message goes"
    );
}

/// The Python starter bot, its language chosen, through the file input; returns when
/// it was sent.
fn uploads_the_python_starter_bot(v: &mut Visit) -> Instant {
    let b = v.b;
    b.fill("input[name=name]", "Skylark");
    b.click("select[name=language] option[value=python]");
    assert_eq!(
        b.property(&b.find("select[name=language]"), "value"),
        json!("python")
    );
    b.send_keys("input[type=file]", &starter_bot().display().to_string());
    let chosen = b.property(&b.find("input[type=file]"), "value");
    assert!(
        chosen.as_str().unwrap_or("").ends_with("bot.py"),
        "{chosen}"
    );
    let uploaded = Instant::now();
    b.click("main form button[type=submit]");
    uploaded
}

/// Its page: version 1 is on its way, and the page refreshes itself meanwhile (the
/// checks wait rather than read once, as the page may reload under them).
fn its_page_shows_version_1_on_its_way(v: &mut Visit) {
    let b = v.b;
    wait_for_path(b, "/bots/Skylark");
    b.wait_text("main h1", "Skylark");
    let status = status_of(b, 1).unwrap_or_default();
    assert!(
        ["pending", "building", "testing"].contains(&status.as_str()),
        "version 1 is on its way, not {status:?}"
    );
    b.wait_text(".bot-summary", "no version plays yet");
    b.wait_text("main .alert.info", "Version 1 is being built and tested");
    b.wait_text("main .alert.info", "This page refreshes itself");
    b.wait_text("#version-1", "Python 3");
    assert_eq!(
        b.find_all("head meta[http-equiv=refresh]").len(),
        1,
        "a page with a version on its way refreshes itself"
    );
    v.cam.both("bot-building");
}

/// No reload from us: the page's own refresh shows the version playing. Returns how
/// long after its upload.
fn the_page_refreshes_itself_until_version_1_plays(v: &mut Visit, uploaded: Instant) -> Duration {
    let b = v.b;
    wait_for(b, "version 1 plays", BUILD_DEADLINE, false, |b| {
        status_of(b, 1).as_deref() == Some("active")
            && b.text_now(".bot-summary")
                .is_some_and(|t| t.contains("version 1 plays"))
    });
    let live_after = uploaded.elapsed();
    assert!(
        b.find_all("head meta[http-equiv=refresh]").is_empty(),
        "nothing on its way: no more refreshing"
    );
    assert!(b.find_all("main .alert.info").is_empty());
    assert!(b.text("#version-1").contains("watch the test game"));
    v.cam.both("bot-active");
    // The test game opens in the viewer, not as raw JSON.
    b.click("#version-1 a.test-game");
    let summary = b.wait_text(".bbv-summary", "turns");
    assert!(summary.contains("2 players"), "{summary}");
    assert!(b.execute("return location.pathname;") == "/viewer");
    v.cam.both("test-game");
    b.execute("history.back();");
    wait_for_path(b, "/bots/Skylark");
    live_after
}

/// The profile lists it; back to its page.
fn the_profile_lists_it(v: &mut Visit) {
    let b = v.b;
    b.click("header .account .who");
    wait_for_path(b, "/profile");
    let bots = b.wait_text("#bots table", "Skylark");
    assert!(bots.contains("version 1"), "{bots}");
    assert!(b.text("#bots .status").contains("active"));
    v.cam.both("profile-bots");
    b.click("#bots a[href='/bots/Skylark']");
    wait_for_path(b, "/bots/Skylark");
}

/// A version that exits at once, with a build step that checks its syntax; returns
/// when it was sent.
fn uploads_a_version_that_crashes(v: &mut Visit) -> Instant {
    let b = v.b;
    let dir = harness::scratch("browser-bots-upload");
    let broken = dir.join("bot.py");
    std::fs::write(
        &broken,
        "import sys\nprint('robin: out of ideas, giving up', file=sys.stderr)\nsys.exit(3)\n",
    )
    .unwrap();
    b.wait_text("#upload h2", "Upload a new version");
    b.click("#upload select[name=language] option[value=custom]");
    b.click("#upload details.custom summary");
    b.fill(
        "#upload input[name=compile_command]",
        "python3 -m py_compile bot.py",
    );
    b.fill("#upload input[name=run_command]", "python3 bot.py");
    b.send_keys("#upload input[type=file]", &broken.display().to_string());
    v.cam.both("bot-upload-filled");
    let uploaded = Instant::now();
    b.click("#upload button[type=submit]");
    wait_for_path(b, "/bots/Skylark");
    uploaded
}

/// It fails, says why, and version 1 keeps playing. Returns how long after its upload.
fn version_2_fails_and_says_why_while_version_1_plays(
    v: &mut Visit,
    uploaded: Instant,
) -> Duration {
    let b = v.b;
    wait_for(b, "version 2 failed", BUILD_DEADLINE, true, |b| {
        status_of(b, 2).as_deref() == Some("failed")
    });
    let failed_after = uploaded.elapsed();
    let reason = b.text("#version-2 .alert.error");
    assert!(
        reason.contains("ended for it") && reason.contains("exited with status 3"),
        "{reason}"
    );
    assert!(b.text(".bot-summary").contains("version 1 plays"));
    assert_eq!(status_of(b, 1).as_deref(), Some("active"));
    // The newest version's logs are open: what went wrong is in view.
    let log = b.find("#version-2 details.build-log pre");
    assert!(
        b.displayed(&log),
        "the build log of the failed version is open"
    );
    assert!(b.text_of(&log).contains("py_compile"));
    let stderr = b.find("#version-2 details.stderr pre");
    assert!(b.displayed(&stderr), "its stderr is open");
    assert!(b.text_of(&stderr).contains("out of ideas, giving up"));
    v.cam.both("bot-failed");
    failed_after
}

/// Anyone sees the versions and their statuses, but not why one failed, its logs or
/// its files, and cannot upload.
fn a_visitor_sees_the_versions_but_not_why_one_failed(v: &mut Visit) {
    let b = v.b;
    b.click("header .account button");
    b.wait_text("header .account", "Log in");
    v.page("/bots/Skylark");
    b.wait_text(".bot-summary", "version 1 plays");
    assert_eq!(status_of(b, 2).as_deref(), Some("failed"));
    let main = b.text("main");
    for private in [
        "Why it failed",
        "Build log",
        "Stderr",
        "source",
        "Upload a new version",
    ] {
        assert!(!main.contains(private), "a visitor sees {private:?}");
    }
    v.cam.both("bot-public");
}
