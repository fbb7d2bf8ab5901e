//! The abuse suite: the site as a hostile or careless contestant tries it. Each test
//! reproduces one attack and checks that it is refused or contained, and that honest
//! users are not hurt. Tests that need bubblewrap or root say so and skip when they
//! are missing.

mod builds;
mod database;
mod downloads;
mod http;
mod sandbox;
mod web;
mod workers;
