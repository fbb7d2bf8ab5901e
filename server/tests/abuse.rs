//! The abuse suite: the site as a hostile or careless contestant tries it. Each test
//! reproduces one attack and checks that it is refused or contained, and that honest
//! users are not hurt. Tests that need bubblewrap or root say so and skip when they
//! are missing.

mod common;

#[path = "abuse/builds.rs"]
mod builds;
#[path = "abuse/database.rs"]
mod database;
#[path = "abuse/http.rs"]
mod http;
#[path = "abuse/sandbox.rs"]
mod sandbox;
#[path = "abuse/web.rs"]
mod web;
