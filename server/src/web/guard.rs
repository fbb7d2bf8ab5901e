//! What anyone can try without being trusted yet: login attempts and registrations per
//! address (governor's keyed GCRA limiters), and a back-off per account after failed
//! logins that the account's owner, from an address with no failures, still passes.
//!
//! Every table here has a bound: addresses are keyed by a fixed-size [`AddressKey`]
//! (never by what a visitor typed), accounts by the id of an account that exists, and
//! each table is pruned, then capped.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::ids::UserId;

/// Login attempts per address: this many at once, then one more every
/// `LOGIN_REFILL` (20 per 10 minutes).
pub const LOGINS_PER_ADDRESS: u32 = 20;
/// Downloads of the program (tens of MiB each) from one address at once, then one more
/// every [`DOWNLOAD_REFILL`]: a contestant fetches it a few times, a flood is held back.
pub const DOWNLOADS_PER_ADDRESS: u32 = 10;
const DOWNLOAD_REFILL: Duration = Duration::from_secs(360);
/// Downloads of the program being sent at once from one address, and on the whole
/// site: each is a connection and its socket's buffers as long as its reader takes.
pub const DOWNLOADS_AT_ONCE_PER_ADDRESS: usize = 2;
pub const DOWNLOADS_AT_ONCE: usize = 32;
const LOGIN_REFILL: Duration = Duration::from_secs(30);
/// Failed logins an account takes before its back-off starts.
pub const FREE_FAILURES: u32 = 5;
/// The first wait of the back-off; each further failure doubles it, up to `MAX_WAIT`.
const FIRST_WAIT: Duration = Duration::from_secs(30);
const MAX_WAIT: Duration = Duration::from_secs(15 * 60);
/// Failures older than this are forgotten, for accounts and addresses alike.
const FORGET: Duration = Duration::from_secs(60 * 60);
/// Logins from addresses with no failures (its owner, usually) that an account in
/// back-off still takes during each of its waits; one at a time. Guesses from ever
/// new addresses get no more than these.
const EXEMPT_PER_WAIT: u32 = 2;
/// Most keys any one table holds.
const MAX_KEYS: usize = 200_000;

/// An address as the limits count it: IPv4 whole, IPv6 by its /64 network, since one
/// host commonly holds a whole /64. Fixed size whatever a visitor sends.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum AddressKey {
    V4(u32),
    V6(u64),
}

impl From<IpAddr> for AddressKey {
    fn from(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => AddressKey::V4(u32::from(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => AddressKey::V4(u32::from(v4)),
                None => AddressKey::V6((u128::from(v6) >> 64) as u64),
            },
        }
    }
}

/// The client's address: the peer's, or, when the peer is the `trusted_proxy`, the
/// last address that proxy appended to `X-Forwarded-For`.
pub fn client_ip(peer: IpAddr, trusted_proxy: Option<IpAddr>, headers: &HeaderMap) -> IpAddr {
    if trusted_proxy == Some(peer) {
        if let Some(ip) = headers
            .get_all("x-forwarded-for")
            .iter()
            .next_back()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next_back())
            .and_then(|v| v.trim().parse().ok())
        {
            return ip;
        }
    }
    peer
}

/// Why an attempt is not taken now.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Too many attempts from this address; try again after this long.
    Address(Duration),
    /// The account is in back-off for this address; try again after this long.
    Account(Duration),
    /// The tables are full (a flood from very many addresses): nothing new is taken.
    Full,
}

impl Refusal {
    /// In words for a form.
    pub fn message(&self, what: &str) -> String {
        match self {
            Refusal::Address(wait) => format!(
                "Too many {what} from your address. Try again in {}.",
                minutes(*wait)
            ),
            Refusal::Account(wait) => format!(
                "Too many failed logins for this account. Try again in {}.",
                minutes(*wait)
            ),
            Refusal::Full => {
                "The site is receiving too many requests. Try again in a few minutes.".into()
            }
        }
    }
}

fn minutes(wait: Duration) -> String {
    let m = wait.as_secs().div_ceil(60).max(1);
    if m == 1 {
        "a minute".into()
    } else {
        format!("{m} minutes")
    }
}

/// Failures of one account.
#[derive(Debug, Default)]
struct Account {
    failures: u32,
    last: Option<Instant>,
    /// Checks of its password under way.
    in_flight: u32,
    /// Checks from addresses with no failures taken in back-off since `exempt_since`.
    exempt: u32,
    exempt_since: Option<Instant>,
}

impl Account {
    fn wait(&self) -> Duration {
        let doublings = self.failures.saturating_sub(FREE_FAILURES).min(10);
        (FIRST_WAIT * 2u32.pow(doublings)).min(MAX_WAIT)
    }
}

/// The back-off's state: failures per account and the last failure per address.
#[derive(Debug, Default)]
pub struct Failures {
    accounts: HashMap<UserId, Account>,
    addresses: HashMap<AddressKey, Instant>,
}

impl Failures {
    /// Takes an attempt on `account` from `address` at `now`, or says how long to wait.
    /// Attempts under way count: at most `FREE_FAILURES` checks run before the first
    /// result is in.
    pub fn begin(
        &mut self,
        account: UserId,
        address: AddressKey,
        now: Instant,
    ) -> Result<(), Refusal> {
        let fresh = |t: &Instant| now.saturating_duration_since(*t) < FORGET;
        let clean = !self.addresses.get(&address).is_some_and(fresh);
        if !self.accounts.contains_key(&account) && self.accounts.len() >= MAX_KEYS {
            self.accounts
                .retain(|_, a| a.in_flight > 0 || a.last.as_ref().is_some_and(fresh));
            if self.accounts.len() >= MAX_KEYS {
                return Err(Refusal::Full);
            }
        }
        let a = self.accounts.entry(account).or_default();
        if a.in_flight == 0 && !a.last.as_ref().is_some_and(fresh) {
            a.failures = 0;
        }
        if a.failures + a.in_flight < FREE_FAILURES {
            a.in_flight += 1;
            return Ok(());
        }
        let until = a.last.map_or(now, |t| t + a.wait());
        if clean && a.in_flight == 0 {
            // The owner, most likely: an attacker's guesses alone cannot lock them out.
            if a.exempt_since
                .is_none_or(|t| now.saturating_duration_since(t) >= a.wait())
            {
                a.exempt = 0;
                a.exempt_since = Some(now);
            }
            if a.exempt < EXEMPT_PER_WAIT {
                a.exempt += 1;
                a.in_flight += 1;
                return Ok(());
            }
        }
        if now >= until && a.in_flight == 0 {
            a.in_flight += 1;
            return Ok(());
        }
        Err(Refusal::Account(
            until
                .saturating_duration_since(now)
                .max(Duration::from_secs(1)),
        ))
    }

    /// The result of an attempt taken by [`Failures::begin`].
    pub fn finish(&mut self, account: UserId, address: AddressKey, ok: bool, now: Instant) {
        if ok {
            self.accounts.remove(&account);
            return;
        }
        if let Some(a) = self.accounts.get_mut(&account) {
            a.in_flight = a.in_flight.saturating_sub(1);
            a.failures += 1;
            a.last = Some(now);
        }
        self.failed_from(address, now);
    }

    /// An attempt taken by [`Failures::begin`] that ended without a verdict.
    pub fn abandon(&mut self, account: UserId) {
        if let Some(a) = self.accounts.get_mut(&account) {
            a.in_flight = a.in_flight.saturating_sub(1);
        }
    }

    /// Notes a failed login from `address` (on any name, known or not).
    pub fn failed_from(&mut self, address: AddressKey, now: Instant) {
        if !self.addresses.contains_key(&address) && self.addresses.len() >= MAX_KEYS {
            self.addresses
                .retain(|_, t| now.saturating_duration_since(*t) < FORGET);
            if self.addresses.len() >= MAX_KEYS {
                // Not noted: this address may later count as clean, which only lets it
                // try an account in back-off as its owner would.
                return;
            }
        }
        self.addresses.insert(address, now);
    }

    /// Entries held, accounts and addresses.
    pub fn len(&self) -> (usize, usize) {
        (self.accounts.len(), self.addresses.len())
    }
}

/// Why something is not started now: too many of them are under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    /// From this address.
    Address,
    /// On the whole site.
    Site,
}

impl Busy {
    /// In words, for `what` ("downloads of the program").
    pub fn message(&self, what: &str) -> String {
        match self {
            Busy::Address => format!(
                "Too many {what} are under way from your address. Try again when one is done."
            ),
            Busy::Site => format!("Too many {what} are under way. Try again in a minute."),
        }
    }

    /// The status and the words of a refusal: 429 for the address, 503 for the site.
    pub fn refusal(&self, what: &str) -> (StatusCode, String) {
        let status = match self {
            Busy::Address => StatusCode::TOO_MANY_REQUESTS,
            Busy::Site => StatusCode::SERVICE_UNAVAILABLE,
        };
        (status, self.message(what))
    }
}

/// Things under way (downloads, connections, streams), counted per address and in
/// all. A [`Held`] place is given back when dropped. The table holds an address only
/// while it has a place, so it never holds more than `total` of them.
#[derive(Debug)]
pub struct InFlight {
    per_address: usize,
    total: usize,
    held: Mutex<(usize, HashMap<AddressKey, usize>)>,
}

impl InFlight {
    /// At most `per_address` at once from one address and `total` in all.
    pub fn new(per_address: usize, total: usize) -> Arc<InFlight> {
        Arc::new(InFlight {
            per_address,
            total,
            held: Mutex::new((0, HashMap::new())),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (usize, HashMap<AddressKey, usize>)> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for `key`, or why there is none.
    pub fn take(self: &Arc<Self>, key: AddressKey) -> Result<Held, Busy> {
        let mut held = self.lock();
        let (all, by_address) = &mut *held;
        if *all >= self.total {
            return Err(Busy::Site);
        }
        let mine = by_address.entry(key).or_insert(0);
        if *mine >= self.per_address {
            return Err(Busy::Address);
        }
        *mine += 1;
        *all += 1;
        Ok(Held {
            of: self.clone(),
            key,
        })
    }

    /// Places held: in all, and by `key`.
    pub fn held(&self, key: AddressKey) -> (usize, usize) {
        let held = self.lock();
        (held.0, held.1.get(&key).copied().unwrap_or(0))
    }
}

/// A place of an [`InFlight`], given back when dropped.
#[derive(Debug)]
pub struct Held {
    of: Arc<InFlight>,
    key: AddressKey,
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.of.lock();
        let (all, by_address) = &mut *held;
        *all = all.saturating_sub(1);
        if let Some(n) = by_address.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                by_address.remove(&self.key);
            }
        }
    }
}

/// The limits of one site.
pub struct Guard {
    logins: DefaultKeyedRateLimiter<AddressKey>,
    registrations: DefaultKeyedRateLimiter<AddressKey>,
    downloads: DefaultKeyedRateLimiter<AddressKey>,
    /// Downloads of the program being sent.
    downloads_under_way: Arc<InFlight>,
    failures: Mutex<Failures>,
    checks: AtomicU64,
}

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard").finish_non_exhaustive()
    }
}

fn quota(burst: u32, refill: Duration) -> Quota {
    let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(refill)
        .unwrap_or_else(|| Quota::per_hour(burst))
        .allow_burst(burst)
}

impl Guard {
    /// `registrations_per_hour` from one address (a classroom behind one NAT shares
    /// an address: the organizer can raise it).
    pub fn new(registrations_per_hour: u32) -> Guard {
        let per_hour = registrations_per_hour.max(1);
        Guard {
            logins: RateLimiter::keyed(quota(LOGINS_PER_ADDRESS, LOGIN_REFILL)),
            registrations: RateLimiter::keyed(quota(
                per_hour,
                Duration::from_secs(3600) / per_hour,
            )),
            downloads: RateLimiter::keyed(quota(DOWNLOADS_PER_ADDRESS, DOWNLOAD_REFILL)),
            downloads_under_way: InFlight::new(DOWNLOADS_AT_ONCE_PER_ADDRESS, DOWNLOADS_AT_ONCE),
            failures: Mutex::new(Failures::default()),
            checks: AtomicU64::new(0),
        }
    }

    fn check(
        &self,
        limiter: &DefaultKeyedRateLimiter<AddressKey>,
        key: AddressKey,
    ) -> Result<(), Refusal> {
        // Forget addresses whose budget is whole again, now and then; then refuse
        // new ones past the cap rather than grow.
        if self.checks.fetch_add(1, Ordering::Relaxed) % 1024 == 0 {
            self.logins.retain_recent();
            self.registrations.retain_recent();
            self.downloads.retain_recent();
        }
        if limiter.len() >= MAX_KEYS {
            limiter.retain_recent();
            if limiter.len() >= MAX_KEYS {
                return Err(Refusal::Full);
            }
        }
        limiter.check_key(&key).map_err(|not_until| {
            Refusal::Address(not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            )))
        })
    }

    /// Counts a login attempt from `ip`, before anything else is done with it.
    pub fn login_attempt(&self, ip: IpAddr) -> Result<(), Refusal> {
        self.check(&self.logins, ip.into())
    }

    /// Takes a place for a download of the program from `ip`, held until the download
    /// ends, and counts it against the address's downloads; or says why not: the status
    /// (429 for the address, 503 for the whole site) and the words. A download refused
    /// for want of a place is not counted.
    pub fn download(&self, ip: IpAddr) -> Result<Held, (StatusCode, String)> {
        let what = "downloads of the program";
        let held = (self.downloads_under_way.take(ip.into())).map_err(|b| b.refusal(what))?;
        self.check(&self.downloads, ip.into())
            .map_err(|r| (StatusCode::TOO_MANY_REQUESTS, r.message(what)))?;
        Ok(held)
    }

    /// Counts a registration from `ip`.
    pub fn registration(&self, ip: IpAddr) -> Result<(), Refusal> {
        self.check(&self.registrations, ip.into())
    }

    fn failures(&self) -> std::sync::MutexGuard<'_, Failures> {
        self.failures.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a password check of `account` from `ip`; the ticket reports its result.
    pub fn begin_check(self: &Arc<Self>, account: UserId, ip: IpAddr) -> Result<Ticket, Refusal> {
        let address = ip.into();
        self.failures().begin(account, address, Instant::now())?;
        Ok(Ticket {
            guard: self.clone(),
            account,
            address,
            done: false,
        })
    }

    /// A failed login on a name that has no account.
    pub fn unknown_name_failed(&self, ip: IpAddr) {
        self.failures().failed_from(ip.into(), Instant::now());
    }

    /// Keys held: (login addresses, registration addresses, accounts, failing addresses).
    pub fn sizes(&self) -> (usize, usize, usize, usize) {
        let (accounts, addresses) = self.failures().len();
        (
            self.logins.len(),
            self.registrations.len(),
            accounts,
            addresses,
        )
    }
}

/// A password check under way; dropped without [`Ticket::finish`], it counts as
/// abandoned (neither a success nor a failure).
pub struct Ticket {
    guard: Arc<Guard>,
    account: UserId,
    address: AddressKey,
    done: bool,
}

impl Ticket {
    pub fn finish(mut self, ok: bool) {
        self.done = true;
        self.guard
            .failures()
            .finish(self.account, self.address, ok, Instant::now());
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if !self.done {
            self.guard.failures().abandon(self.account);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: UserId = UserId(7);
    const A: AddressKey = AddressKey::V4(1);
    const B: AddressKey = AddressKey::V4(2);

    #[test]
    fn checks_under_way_count_against_the_free_failures() {
        let mut f = Failures::default();
        let now = Instant::now();
        let taken = (0..30).filter(|_| f.begin(ID, A, now).is_ok()).count();
        assert_eq!(taken, FREE_FAILURES as usize);
    }

    #[test]
    fn the_back_off_grows_and_an_address_without_failures_passes() {
        let mut f = Failures::default();
        let t0 = Instant::now();
        for _ in 0..FREE_FAILURES {
            f.begin(ID, A, t0).unwrap();
            f.finish(ID, A, false, t0);
        }
        assert_eq!(f.begin(ID, A, t0), Err(Refusal::Account(FIRST_WAIT)));
        // The owner, from an address that never failed, is let through...
        f.begin(ID, B, t0).unwrap();
        f.finish(ID, B, true, t0);
        // ... and a success clears the account.
        f.begin(ID, A, t0).unwrap();
        f.abandon(ID);
        // Past the free failures each failure doubles the wait.
        for _ in 0..FREE_FAILURES {
            f.begin(ID, A, t0).unwrap();
            f.finish(ID, A, false, t0);
        }
        let t1 = t0 + FIRST_WAIT;
        f.begin(ID, A, t1).unwrap();
        f.finish(ID, A, false, t1);
        assert_eq!(f.begin(ID, A, t1), Err(Refusal::Account(FIRST_WAIT * 2)));
        // Failures are forgotten after a while.
        assert!(f.begin(ID, A, t1 + FORGET).is_ok());
    }

    #[test]
    fn guesses_from_ever_new_addresses_get_only_the_exempt_share() {
        let mut f = Failures::default();
        let t0 = Instant::now();
        let mut checked = 0;
        for i in 0..50 {
            let address = AddressKey::V4(100 + i);
            if f.begin(ID, address, t0).is_ok() {
                checked += 1;
                f.finish(ID, address, false, t0);
            }
        }
        assert_eq!(checked, FREE_FAILURES + EXEMPT_PER_WAIT);
    }

    #[test]
    fn places_are_bounded_per_address_and_in_all_and_given_back() {
        let places = InFlight::new(2, 3);
        let (a, b, c) = (AddressKey::V4(1), AddressKey::V4(2), AddressKey::V4(3));
        let a1 = places.take(a).unwrap();
        let _a2 = places.take(a).unwrap();
        assert_eq!(places.take(a).unwrap_err(), Busy::Address);
        let _b1 = places.take(b).unwrap();
        assert_eq!(places.take(c).unwrap_err(), Busy::Site);
        drop(a1);
        assert_eq!(places.held(a), (2, 1));
        let _c1 = places.take(c).unwrap();
        assert_eq!(
            places.lock().1.len(),
            3,
            "only addresses with a place are kept"
        );
    }

    #[test]
    fn ipv6_addresses_count_by_their_network() {
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(AddressKey::from(a), AddressKey::from(b));
        assert_ne!(AddressKey::from(a), AddressKey::from(c));
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        let v4: IpAddr = "192.0.2.1".parse().unwrap();
        assert_eq!(AddressKey::from(mapped), AddressKey::from(v4));
    }

    #[test]
    fn forwarded_addresses_are_believed_only_from_the_trusted_proxy() {
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            "203.0.113.9, 198.51.100.1".parse().unwrap(),
        );
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        assert_eq!(client_ip(proxy, None, &h), proxy);
        assert_eq!(
            client_ip(proxy, Some(proxy), &h),
            "198.51.100.1".parse::<IpAddr>().unwrap()
        );
        let other: IpAddr = "10.0.0.1".parse().unwrap();
        assert_eq!(client_ip(other, Some(proxy), &h), other);
    }
}
