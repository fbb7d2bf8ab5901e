//! No network at all: neither the host's addresses nor the internet, nor the host's
//! unix sockets, abstract ones included. The bot tries, fails, and plays on uncharged.

use std::net::{TcpListener, TcpStream, UdpSocket};
use std::os::unix::net::UnixListener;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::arena::{arena, chmod, tmp};
use crate::play::{config, game_limits, play};

/// Accepts connections on a socket in a thread until stopped; counts them.
struct Watcher {
    stop: Arc<AtomicBool>,
    seen: Arc<AtomicU32>,
    thread: Option<JoinHandle<()>>,
}

impl Watcher {
    fn tcp(listener: TcpListener) -> Watcher {
        listener.set_nonblocking(true).unwrap();
        Watcher::start(move || listener.accept().is_ok())
    }

    fn unix(listener: UnixListener) -> Watcher {
        listener.set_nonblocking(true).unwrap();
        Watcher::start(move || listener.accept().is_ok())
    }

    fn start(accept: impl Fn() -> bool + Send + 'static) -> Watcher {
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicU32::new(0));
        let (s, n) = (stop.clone(), seen.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                if accept() {
                    n.fetch_add(1, Ordering::SeqCst);
                } else {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        });
        Watcher {
            stop,
            seen,
            thread: Some(thread),
        }
    }

    /// Connections seen so far, waiting a moment for any in flight.
    fn seen(&self) -> u32 {
        std::thread::sleep(Duration::from_millis(50));
        self.seen.load(Ordering::SeqCst)
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// This machine's first non-loopback IPv4 address, if it has one (no packet is sent).
fn host_address() -> Option<std::net::IpAddr> {
    let s = UdpSocket::bind("0.0.0.0:0").ok()?;
    s.connect("192.0.2.1:9").ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[test]
fn the_network_is_unreachable_even_on_localhost() {
    let arena = arena("network");
    let listener = TcpListener::bind("0.0.0.0:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let watcher = Watcher::tcp(listener);
    let mut targets = format!("127.0.0.1:{port}");
    if let Some(ip) = host_address() {
        targets.push_str(&format!(" {ip}:{port}"));
    }
    let g = play(
        &arena,
        "idle",
        &format!("network {targets}"),
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    g.assert_every_probe_failed(&[
        "tcp 127.0.0.1:5432",
        &format!("tcp 127.0.0.1:{port}"),
        "tcp [::1]:5432",
        "udp 8.8.8.8:53",
        "tcp 1.1.1.1:443",
        "dns example.com",
        "interfaces",
    ]);
    assert_eq!(watcher.seen(), 0, "the test's listener saw a connection");
    // The listener does see a connection from outside the sandbox.
    TcpStream::connect(("127.0.0.1", port)).unwrap();
    assert_eq!(watcher.seen(), 1);
}

#[test]
fn unix_sockets_of_the_host_are_unreachable() {
    let arena = arena("unix");
    // A socket where the bot's uid could connect to it, were it visible.
    let dir = tmp().join("sandbox-sockets");
    std::fs::create_dir_all(&dir).unwrap();
    chmod(&dir, 0o755);
    let path = dir.join(format!("s-{}.sock", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let listener = UnixListener::bind(&path).unwrap();
    chmod(&path, 0o777);
    let watcher = Watcher::unix(listener);
    // An abstract socket: it lives in the network namespace, not the filesystem.
    let abstract_name = format!("bottlebats-test-{}", std::process::id());
    let abstract_listener = {
        use std::os::linux::net::SocketAddrExt;
        let addr =
            std::os::unix::net::SocketAddr::from_abstract_name(abstract_name.as_bytes()).unwrap();
        UnixListener::bind_addr(&addr).unwrap()
    };
    let abstract_watcher = Watcher::unix(abstract_listener);
    let g = play(
        &arena,
        "idle",
        &format!("unix {} @{abstract_name}", path.display()),
        game_limits(),
        &config(10),
    );
    g.assert_hostile_not_charged(10);
    g.assert_every_probe_failed(&[
        "unix /var/run/postgresql/.s.PGSQL.5432",
        "unix /run/postgresql/.s.PGSQL.5432",
        &format!("unix {}", path.display()),
        &format!("unix @{abstract_name}"),
    ]);
    assert_eq!(watcher.seen(), 0);
    assert_eq!(abstract_watcher.seen(), 0);
    std::os::unix::net::UnixStream::connect(&path).unwrap();
    assert_eq!(watcher.seen(), 1, "the listener works from outside");
    let _ = std::fs::remove_file(&path);
}
