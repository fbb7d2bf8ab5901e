//! The site in headless Chromium, driven through chromedriver (W3C WebDriver): the
//! account and bot pages (`site`), the replay viewer (`viewer`) and what spectators see
//! (`spectators`). They share `harness` (the served site, the browser, screenshots) and
//! `webdriver` (the protocol). Every test skips, saying so, when `chromium` or
//! `chromedriver` is missing (`apt-get install chromium chromium-driver`).

mod harness;
mod site;
mod spectators;
mod viewer;
mod webdriver;
