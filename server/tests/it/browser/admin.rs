//! The organizer's page in headless Chromium: the site's header, with every link an
//! organizer has, on one line at 1366×768 and at 1280 px, folded behind the menu
//! button on a phone (390×844); a deadline already past asks to be confirmed before it
//! closes the contest; the bot to disable is found by typing part of its name.
//!
//! Screenshots go to `target/screenshots/admin-*.png`.

use super::harness::{browser_tools, viewport, wait_for_path, Browser, Visit, DESKTOP, PHONE};
use super::webdriver::Session;

const PASSWORD: &str = "a long enough secret";
const LAPTOP: (u32, u32) = (1366, 768);

#[test]
fn an_organizers_header_fits_and_the_deadline_and_bot_fields_guard_and_help() {
    let Some(tools) = browser_tools("the organizer page's browser test") else {
        return;
    };
    let site = super::harness::Site::start("admin-page");
    // The longest name there may be, and the admin badge beside it.
    let name = "organizer-with-a-32-chars-name-x";
    site.admin(&["create-user", name, "--admin", "--password", PASSWORD]);
    let browser = Browser::open(&tools, "admin-page");
    let v = &mut Visit::new(&site, &browser.session);
    v.page("/login");
    v.b.fill("input[name=name]", name);
    v.b.fill("input[name=password]", PASSWORD);
    v.b.click("main button[type=submit]");
    wait_for_path(v.b, "/admin");

    the_header_is_one_line_on_a_laptop_and_folds_on_a_phone(v);
    a_past_deadline_is_saved_only_once_confirmed(v);
    the_bot_field_finds_bots_as_one_types(v);
}

/// How many lines the header's items take: the brand and every link, by where their
/// middles are.
fn header_lines(b: &Session) -> usize {
    let rows = b.execute(
        "const items = [document.querySelector('header .brand'), \
             ...document.querySelectorAll('header .menu li')]; \
         const middles = items.map((e) => { const r = e.getBoundingClientRect(); \
             return Math.round((r.top + r.bottom) / 2); }); \
         return middles.filter((m, i) => middles.findIndex((n) => Math.abs(n - m) <= 4) === i).length;",
    );
    rows.as_u64().unwrap() as usize
}

fn the_header_is_one_line_on_a_laptop_and_folds_on_a_phone(v: &mut Visit) {
    let b = v.b;
    v.page("/admin");
    let links = b.text("header .menu");
    for link in [
        "Leaderboard",
        "Matches",
        "Tournaments",
        "Live",
        "Rules",
        "Getting started",
        "Organizer",
        "New bot",
        "Log out",
    ] {
        assert!(links.contains(link), "{link} in {links}");
    }
    for size in [LAPTOP, DESKTOP] {
        viewport(b, size);
        assert_eq!(header_lines(b), 1, "the header at {size:?}");
    }
    viewport(b, LAPTOP);
    v.cam.snap("admin-header-1366");
    // On a phone: the brand and the button on one line, the links behind it.
    viewport(b, PHONE);
    let organizer = b.find("header .account a[href='/admin']");
    assert!(!b.displayed(&organizer), "the menu starts folded");
    let bar =
        b.execute("return document.querySelector('header .bar').getBoundingClientRect().height;");
    assert!(
        bar.as_f64().unwrap() < 64.0,
        "the folded header is {bar} px tall"
    );
    v.cam.snap("admin-header-phone");
    b.click("header label.menu-button");
    assert!(b.displayed(&organizer), "the button opens the menu");
    v.cam.snap("admin-menu-phone");
    b.click("header label.menu-button");
    viewport(b, DESKTOP);
}

fn a_past_deadline_is_saved_only_once_confirmed(v: &mut Visit) {
    let b = v.b;
    v.page("/admin");
    b.fill(
        "form.deadline-form input[name=deadline]",
        "2020-01-01 00:00",
    );
    b.click("form.deadline-form input[name=freeze]");
    b.click("form.deadline-form button[value=set]");
    let warning = b.wait_text("form.deadline-form .alert.warning", "takes effect at once");
    assert!(
        warning.contains("2020-01-01 00:00 UTC is already past")
            && warning.contains("the ladder freezes now"),
        "{warning}"
    );
    // Nothing changed: no banner yet, the date typed is kept.
    assert!(b.find_all(".contest-banner").is_empty());
    let typed = b.find("form.deadline-form input[name=deadline]");
    assert_eq!(b.property(&typed, "value"), "2020-01-01 00:00");
    v.cam.scroll_to("#contest");
    v.cam.both("admin-deadline-confirm");
    b.click("form.deadline-form input[name=confirm]");
    b.click("form.deadline-form button[value=set]");
    wait_for_path(b, "/admin");
    let saved = b.wait_text(".alert.success", "Saved");
    assert!(
        saved.contains("submissions closed at 2020-01-01 00:00 UTC"),
        "{saved}"
    );
    assert!(b.text(".contest-banner").contains("The ladder is frozen"));
    // Back to an open contest for what follows.
    b.click("form.deadline-form button[value=remove]");
    b.wait_text(".alert.success", "no submission deadline");
}

fn the_bot_field_finds_bots_as_one_types(v: &mut Visit) {
    let b = v.b;
    v.page("/admin");
    let options = |b: &Session| {
        b.execute("return Array.from(document.querySelectorAll('#admin-bots option'), (o) => o.value + ' ' + o.label);")
    };
    // The house bots, listed with their owner.
    let listed = options(b);
    assert!(listed.as_array().unwrap().len() >= 4, "{listed}");
    b.send_keys("#bots input[name=name]", "stro");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let found = options(b);
        if found.as_array().unwrap().len() == 1 {
            assert!(found[0].as_str().unwrap().starts_with("strong "), "{found}");
            break;
        }
        if std::time::Instant::now() > deadline {
            b.give_up(&format!("the list is still {found}"));
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    v.cam.scroll_to("#bots");
    v.cam.snap("admin-bots-search");
}
