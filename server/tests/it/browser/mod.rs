//! The site in headless Chromium, driven through chromedriver (W3C WebDriver): the
//! account and bot pages (`site`), the replay viewer (`viewer`) and what spectators see
//! (`spectators`); beside them, a bot uploaded over the API of the same served site
//! (`api`, no browser). They share `harness` (the served site, the browser,
//! screenshots) and `webdriver` (the protocol). Every browser test skips, saying so,
//! when `chromium` or `chromedriver` is missing (`apt-get install chromium
//! chromium-driver`).

mod admin;
mod api;
mod challenges;
mod games;
pub(crate) mod harness;
mod leaderboard;
mod site;
mod spectators;
mod tournaments;
pub mod viewer;
mod walk;
mod webdriver;
