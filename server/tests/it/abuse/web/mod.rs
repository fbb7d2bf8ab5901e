//! Forms and endpoints hammered, a module per thing attacked: logins, registrations,
//! redirects, tokens and sessions (`accounts`); the API, the health check and the
//! metrics (`endpoints`); uploads (`uploads`); challenges (`challenges`); costly pages (`pages`);
//! the organizer's bot search and deadline (`admin`).

mod accounts;
mod admin;
mod challenges;
mod endpoints;
mod live;
mod pages;
mod tournaments;
mod uploads;

use std::net::SocketAddr;

use crate::common::Client;

const PW: &str = "correct horse battery";

/// A visitor of the same site from its own address.
fn from(c: &Client, ip: &str) -> Client {
    let mut v = c.stranger();
    v.ip = format!("{ip}:40000").parse::<SocketAddr>().unwrap();
    v
}
