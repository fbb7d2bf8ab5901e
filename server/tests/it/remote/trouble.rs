//! What goes wrong on a contestant's network: a connection dropped mid-game (the bot's
//! crash, as its game's rule says; the client reconnects by itself and plays on), and
//! a slow one, delayed on the client, against the time rule (its allowance covers a
//! slow network, and no more).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{connect, connect_command, key, matches_of, site, user, Site};

/// A TCP proxy in front of the site whose connections can be cut at once, as a
/// network that drops.
struct Proxy {
    url: String,
    live: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn to(site: &Site) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let live: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (addr, kept) = (site.addr.clone(), live.clone());
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Ok(server) = TcpStream::connect(&addr) else {
                    continue;
                };
                kept.lock().unwrap().push(client.try_clone().unwrap());
                kept.lock().unwrap().push(server.try_clone().unwrap());
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 16 * 1024];
                        while let Ok(n) = from.read(&mut buf) {
                            if n == 0 || to.write_all(&buf[..n]).is_err() {
                                break;
                            }
                        }
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Proxy { url, live }
    }

    /// Cuts every connection through it.
    fn cut(&self) {
        for s in self.live.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

#[test]
fn a_connection_dropped_mid_game_is_the_bots_crash_and_the_client_reconnects() {
    let (site, db) = site("remote-dropped", &[]);
    user(&site, "erin");
    let key = key(&site, "erin", "erin-home", "bottlebats");
    let proxy = Proxy::to(&site);
    // 60 ms a reply: the game lasts long enough to be cut in its middle.
    let slow = [("REMOTE_FIXTURE_SLEEP_MS", "60")];
    let mut home = connect(&proxy.url, &key, &["--games", "1"], &slow);
    let offered = home.wait_line(", ranked, ", Duration::from_secs(60));
    let id: i64 = offered["match ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    db.wait_for(
        &format!("select count(*) > 20 from live_turns where match_id = {id}"),
        Duration::from_secs(60),
        "the match under way",
    );
    proxy.cut();
    home.wait_line("the connection dropped during it", Duration::from_secs(30));
    home.wait_line("reconnecting in", Duration::from_secs(30));
    // The match was played to its end without it: its crash, not a void match.
    db.wait_for(
        &format!("select status = 'finished' from matches where id = {id}"),
        Duration::from_secs(60),
        "the match recorded",
    );
    let seat = db.json(&format!(
        "select jsonb_build_object('error', p.error, 'outcome', p.outcome, 'ranked', m.ranked)
         from match_players p join bots b on b.id = p.bot_id join matches m on m.id = p.match_id
         where p.match_id = {id} and b.name = 'erin-home'"
    ));
    assert!(
        seat["error"]
            .as_str()
            .unwrap_or_default()
            .contains("the connection to the remote bot was lost"),
        "{seat}"
    );
    assert_eq!(seat["outcome"], "loss", "{seat}");
    assert_eq!(seat["ranked"], true, "{seat}");
    // By itself, it connects again and plays its next match.
    let (status, out) = home.wait_exit(Duration::from_secs(300));
    assert!(status.success(), "{out}");
    assert!(out.contains("played 1 match(es); done"), "{out}");
    assert_eq!(matches_of(&db, "erin-home").len(), 2);
}

#[test]
fn a_slow_network_times_out_as_the_turn_rule_says() {
    let (site, db) = site("remote-slow", &[]);
    user(&site, "fred");
    // Bottle Bats: 2 s a reply, plus 300 ms for the network.
    let key_bats = key(&site, "fred", "fred-bats", "bottlebats");
    // Within the allowance: no timeout.
    let mut home = connect(
        &site.url,
        &key_bats,
        &["--games", "1", "--inject-delay-ms", "150"],
        &[],
    );
    let (status, out) = home.wait_exit(Duration::from_secs(300));
    assert!(status.success(), "{out}");
    let first = matches_of(&db, "fred-bats")[0].0;
    let seat = |id: i64, bot: &str| {
        db.json(&format!(
            "select jsonb_build_object('error', p.error, 'timeouts', p.timeouts,
                 'median', p.reply_ms->'median_ms', 'problems', p.problems::text)
             from match_players p join bots b on b.id = p.bot_id
             where p.match_id = {id} and b.name = '{bot}'"
        ))
    };
    let calm = seat(first, "fred-bats");
    assert_eq!(calm["timeouts"], 0, "{calm}");
    assert!(
        calm["median"].as_i64().unwrap() >= 150,
        "the network is timed: {calm}"
    );
    // Past it, every reply is late: skipped, and after 10 in a row, removed.
    let mut home = connect(
        &site.url,
        &key_bats,
        &["--games", "1", "--inject-delay-ms", "2600"],
        &[],
    );
    let (status, out) = home.wait_exit(Duration::from_secs(300));
    assert!(status.success(), "{out}");
    assert!(out.contains("timeout(s)"), "{out}");
    let late = matches_of(&db, "fred-bats")[0].0;
    let slow = seat(late, "fred-bats");
    assert!(slow["timeouts"].as_i64().unwrap() >= 10, "{slow}");
    assert!(
        slow["error"]
            .as_str()
            .unwrap_or_default()
            .contains("no reply within 2300 ms for 10 turns in a row"),
        "{slow}"
    );
    // Vindinium: 1 s a move, plus 150 ms; a late move crashes the hero (its rule §9).
    let key_hero = key(&site, "fred", "fred-hero", "vindinium");
    let mut home = connect(
        &site.url,
        &key_hero,
        &["--games", "1", "--inject-delay-ms", "1400"],
        &[],
    );
    let (status, out) = home.wait_exit(Duration::from_secs(600));
    assert!(status.success(), "{out}");
    let id = matches_of(&db, "fred-hero")[0].0;
    let hero = seat(id, "fred-hero");
    assert_eq!(
        hero["timeouts"], 1,
        "a crashed hero is asked no more: {hero}"
    );
    assert!(
        hero["problems"]
            .as_str()
            .unwrap_or_default()
            .contains("no reply in time"),
        "a late move crashes the hero: {hero}"
    );
}

/// Mistakes made at home are said at home, before they cost the bot anything: a
/// command that is not there, an address where no site answers. A bot that cannot be
/// started when its match comes declines it, and the void match says why; Ctrl-C in
/// the middle of a match says that it counts as the bot's crash.
#[test]
fn mistakes_at_home_are_told_there_and_a_match_left_says_what_it_costs() {
    let fixture = super::fixture();
    let python = ["/usr/bin/python3", fixture.to_str().unwrap()];
    // No site is needed to find these.
    let nobody = TcpListener::bind("127.0.0.1:0").unwrap();
    let closed = format!("http://{}", nobody.local_addr().unwrap());
    drop(nobody);
    let fake = "bbr_0123456789abcdef";
    let mut typo = connect_command(&closed, fake, &[], &[], &["./no-such-bot"]);
    let (status, out) = typo.wait_exit(Duration::from_secs(10));
    assert!(!status.success(), "{out}");
    assert!(
        out.contains("`./no-such-bot` cannot be started: there is no such file"),
        "{out}"
    );
    let mut nameless = connect_command(&closed, fake, &[], &[], &["no-such-program-here"]);
    let (status, out) = nameless.wait_exit(Duration::from_secs(10));
    assert!(!status.success(), "{out}");
    assert!(out.contains("no program of that name is on PATH"), "{out}");
    let mut unreachable = connect_command(&closed, fake, &[], &[], &python);
    let (status, out) = unreachable.wait_exit(Duration::from_secs(10));
    assert!(!status.success(), "{out}");
    assert!(out.contains("cannot reach the site at ws://"), "{out}");
    assert!(!out.contains("reconnecting"), "{out}");

    let (site, db) = site("remote-mistakes", &[]);
    user(&site, "fay");
    let key = key(&site, "fay", "fay-home", "bottlebats");
    // Executable, so found at the start, but its interpreter is not there.
    let broken = crate::browser::harness::scratch("remote-mistakes-bot").join("bot");
    std::fs::write(&broken, "#!/no/such/interpreter\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&broken, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut home = connect_command(&site.url, &key, &[], &[], &[broken.to_str().unwrap()]);
    let (status, out) = home.wait_exit(Duration::from_secs(60));
    assert!(!status.success(), "{out}");
    assert!(out.contains("could not be started"), "{out}");
    assert!(out.contains("counts as a no-show"), "{out}");
    assert!(!out.contains("the site refused"), "{out}");
    let void = db.json(
        "select to_jsonb(m.void_reason) from matches m join match_players p on p.match_id = m.id
         join bots b on b.id = p.bot_id where b.name = 'fay-home'",
    );
    let void = void.as_str().unwrap_or_default();
    assert!(
        void.contains("`fay-home` declined the match")
            && void.contains("the bot could not be started"),
        "{void}"
    );

    // 60 ms a reply: Ctrl-C comes in the middle of the game.
    let slow = [("REMOTE_FIXTURE_SLEEP_MS", "60")];
    let mut home = connect(&site.url, &key, &[], &slow);
    home.wait_line(", ranked, ", Duration::from_secs(60));
    std::thread::sleep(Duration::from_secs(2));
    home.interrupt();
    let (status, out) = home.wait_exit(Duration::from_secs(30));
    assert!(status.success(), "{out}");
    assert!(
        out.contains("stopped by Ctrl-C during it, which counts as the bot's crash"),
        "{out}"
    );
}
