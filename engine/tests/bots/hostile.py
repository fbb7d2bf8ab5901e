#!/usr/bin/python3
"""Hostile bots for the sandbox tests: one attack per mode.

Usage: hostile.py MODE [ARG...] NAME  (the runner appends the player name).

Attacks that break a rule of the game (a fork bomb, a busy loop, a flood on stdout)
come after the first reply, so that start-up is not what is tested. Modes that only
try to learn or break something they must not (`network`, `unix`, `read`, `write`,
`build`) do so before the game, report each attempt on stderr as `probe WHAT: ok ...`
or `probe WHAT: failed ...`, end with `probes done`, and then play normally: they
break no rule, they just must not be able to do harm. See tests/sandbox/ for what
each mode proves.
"""
import errno
import json
import os
import signal
import socket
import sys
import time

mode = sys.argv[1]
args = sys.argv[2:-1]
me = sys.argv[-1]
MIB = 1024 * 1024


def read_state():
    """Reads one state: three counted sections. None at the end of input."""
    sections = []
    for _ in range(3):
        header = sys.stdin.readline()
        if not header:
            return None
        n = int(header.split()[0])
        sections.append([sys.stdin.readline() for _ in range(n)])
    return sections


def reply():
    sys.stdout.write("0 commands:\n")
    sys.stdout.flush()


def say(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def failure(e):
    if isinstance(e, OSError) and e.errno is not None:
        return "failed %s (%s)" % (errno.errorcode.get(e.errno, e.errno), e.strerror)
    return "failed %s" % e


def nonempty(result, why):
    """Turns an empty result (nothing found) into a failure."""
    if not result:
        raise Exception(why)
    return result


def probe(what, attempt):
    """Runs `attempt`; reports what it returned, or how it failed."""
    try:
        result = attempt()
    except Exception as e:  # noqa: BLE001 - any failure is the expected outcome
        say("probe %s: %s" % (what, failure(e)))
        return
    say("probe %s: ok %r" % (what, result))


# --- the network ---------------------------------------------------------------


def tcp(host, port):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(1.0)
    try:
        s.connect((host, port))
        s.sendall(b"hello from the sandbox\n")
        return "connected"
    finally:
        s.close()


def udp(host, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        return s.sendto(b"hello", (host, port))
    finally:
        s.close()


def unix(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(1.0)
    try:
        s.connect(path)
        s.sendall(b"hello from the sandbox\n")
        return "connected"
    finally:
        s.close()


def network():
    """ARGS: HOST:PORT addresses the test listens on."""
    probe("tcp 127.0.0.1:5432", lambda: tcp("127.0.0.1", 5432))
    probe("tcp [::1]:5432", lambda: tcp("::1", 5432))
    for target in args:
        host, port = target.rsplit(":", 1)
        probe("tcp %s" % target, lambda: tcp(host, int(port)))
    probe("udp 8.8.8.8:53", lambda: udp("8.8.8.8", 53))
    probe("tcp 1.1.1.1:443", lambda: tcp("1.1.1.1", 443))
    probe("dns example.com", lambda: socket.getaddrinfo("example.com", 80))
    probe("interfaces", lambda: nonempty([n for _, n in socket.if_nameindex() if n != "lo"], "only lo"))


def unix_sockets():
    """ARGS: socket paths to try; a path starting with `@` is an abstract name."""
    paths = ["/var/run/postgresql/.s.PGSQL.5432", "/run/postgresql/.s.PGSQL.5432"] + args
    for path in paths:
        target = "\0" + path[1:] if path.startswith("@") else path
        probe("unix %s" % path, lambda: unix(target))


# --- files and secrets -----------------------------------------------------------


def read(path):
    if os.path.isdir(path):
        return os.listdir(path)
    with open(path, "rb") as f:
        return f.read(4096)


def read_secrets():
    """ARGS: files and folders to read (another bot's folder, the server's data)."""
    for path in ["/etc/shadow", "/etc/passwd", "/root", "/home", "/work"] + args:
        probe("read %s" % path, lambda: read(path))
    # The runner's environment: ours, and that of every process we can see.
    probe("own environment", lambda: sorted(os.environ))
    pids = sorted({1, os.getppid()} | {int(p) for p in os.listdir("/proc") if p.isdigit()})
    say("visible pids %s" % json.dumps([p for p in pids if os.path.exists("/proc/%d" % p)]))
    for pid in pids:
        if pid != os.getpid():
            probe("read /proc/%d/environ" % pid, lambda: read("/proc/%d/environ" % pid))
    probe("read /proc/self/environ", lambda: read("/proc/self/environ"))
    # Descriptors inherited from outside: a folder's would lead out of the sandbox.
    fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
    fds = [fd for fd in fds if os.path.exists("/proc/self/fd/%d" % fd)]  # not the listing's
    say("open fds %s" % json.dumps(fds))
    for fd in fds:
        if fd > 2:
            say("fd %d is %s" % (fd, os.readlink("/proc/self/fd/%d" % fd)))
            probe("pread fd %d" % fd, lambda: os.pread(fd, 4096, 0))
            probe("read fd %d/.." % fd, lambda: os.listdir("/proc/self/fd/%d/.." % fd))
            probe("openat fd %d .." % fd, lambda: os.listdir(os.open("..", os.O_RDONLY, dir_fd=fd)))
            up = "/proc/self/fd/%d/.." % fd
            for name in os.listdir(up) if os.path.isdir(up) else []:
                path = "%s/%s/secret.txt" % (up, name)
                probe("read %s" % path, lambda: read(path))


def write(path):
    with open(path, "wb") as f:
        f.write(b"owned by a bot\n")
    return "written"


def write_outside():
    """ARGS: more places to write to."""
    for path in [os.path.join(os.getcwd(), "owned.txt"), "/usr/owned.txt", "/usr/bin/owned",
                 "/etc/owned.txt", "/owned.txt", "/work/owned.txt", "/proc/sys/kernel/hostname",
                 "/dev/owned",
                 "/sys/fs/cgroup/owned"] + [os.path.join(a, "owned.txt") for a in args]:
        probe("write %s" % path, lambda: write(path))
    probe("mkdir in own folder", lambda: os.mkdir("made-by-bot"))
    probe("chmod own folder", lambda: os.chmod(".", 0o777))
    probe("mount", lambda: nonempty(os.system("mount -t tmpfs none /tmp 2>/dev/null") == 0, "mount refused"))


def fill(folder):
    """Writes 8 MiB files into `folder` until it is full; says how it ended."""
    chunk = b"s" * MIB
    total = 0
    for i in range(1000):
        try:
            with open("%s/fill-%d" % (folder, i), "wb") as f:
                for _ in range(8):
                    f.write(chunk)
                    f.flush()
                    total += len(chunk)
        except OSError as e:
            code = errno.errorcode.get(e.errno, e.errno)
            say("%s full after %d MiB: %s" % (folder, total // MIB, code))
            return
    say("%s never filled: %d MiB written" % (folder, total // MIB))


# --- processes -------------------------------------------------------------------


def fork_bomb():
    if os.fork() == 0:
        while True:
            try:
                os.fork()
            except OSError:
                pass


def daemon():
    """Leaves the session, double-forks, ignores polite signals, and keeps changing
    its pid so that killing by pid cannot catch it."""
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.close(r)
            for sig in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT, signal.SIGPIPE):
                signal.signal(sig, signal.SIG_IGN)
            devnull = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            os.write(w, str(os.getpid()).encode())
            os.close(w)
            while True:
                time.sleep(0.01)
                if os.fork() != 0:
                    os._exit(0)
        os._exit(0)
    os.close(w)
    say("daemon %s" % os.read(r, 32).decode())


def signals():
    """ARGS: pids to signal besides every pid up to pid_max."""
    killed = []
    for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGSTOP):
        try:
            os.kill(-1, sig)
            killed.append("-1")
        except OSError:
            pass
    # Every pid up to the classic pid_max (0.2 s of CPU; the whole 4194304 takes 16 s).
    targets = [int(a) for a in args] + list(range(1, 32769))
    for pid in targets:
        if pid == os.getpid():
            continue
        for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGSTOP):
            try:
                os.kill(pid, sig)
                killed.append(pid)
            except OSError:
                pass
    say("signals delivered to %s" % json.dumps(sorted(set(map(str, killed)))))


def build():
    """A build step: writes into its folder, and still has no network."""
    with open("built.txt", "w") as f:
        f.write("built by %s\n" % me)
    os.mkdir("out")
    with open("out/binary", "w") as f:
        f.write("#!/bin/sh\n")
    say("build wrote built.txt and out/binary")
    probe("tcp 127.0.0.1:5432", lambda: tcp("127.0.0.1", 5432))
    probe("udp 8.8.8.8:53", lambda: udp("8.8.8.8", 53))


def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


# --- the game ----------------------------------------------------------------------

PROBES = {
    "network": network,
    "unix": unix_sockets,
    "read": read_secrets,
    "write": write_outside,
    "build": build,
}

if mode == "env":
    say("environment %s" % json.dumps(dict(os.environ)))
if mode in PROBES:
    PROBES[mode]()
    say("probes done")
if mode == "stderr_flood":
    # 1 GiB on stderr before the first reply (within the start-up time).
    chunk = b"e" * MIB
    for _ in range(int(args[0]) if args else 1024):
        sys.stderr.buffer.write(chunk)
    sys.stderr.flush()

turn = 0
while True:
    state = read_state()
    if state is None:
        break
    if turn == 1:
        if mode == "fork_bomb":
            fork_bomb()
        elif mode == "memory":
            hog = b"m" * (2048 * MIB)
            say("allocated %d bytes" % len(hog))
        elif mode == "busy":
            while True:
                pass
        elif mode == "sleep":
            while True:
                time.sleep(1000)
        elif mode == "close_stdout":
            os.close(1)
            time.sleep(1000)
        elif mode == "close_stdin":
            # Closed before the reply, so the next state surely finds it closed.
            os.close(0)
            reply()
            time.sleep(1000)
        elif mode == "stdout_flood":
            chunk = b"x" * MIB
            for _ in range(1024):
                sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
        elif mode == "fill_scratch":
            fill("/tmp")
        elif mode == "daemon":
            daemon()
        elif mode == "signals":
            signals()
    if mode == "fill_scratch" and turn == 2:
        fill("/dev/shm")
    if mode == "sleep_each_turn" and turn > 0:
        time.sleep(1.0)
    if mode == "burn_each_turn" and turn > 0:
        burn(1.0)
    reply()
    turn += 1
