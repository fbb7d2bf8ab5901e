#!/usr/bin/python3
"""A tiny bot for the runner's protocol tests.

Usage: fixture.py MODE [ARG...] NAME  (the runner appends the player name).
Each mode plays one protocol case; see the runner tests for what each proves.
"""
import os
import subprocess
import sys
import time

mode = sys.argv[1]
args = sys.argv[2:-1]
me = sys.argv[-1]


def read_state():
    """Reads one state: three counted sections. None at the end of input."""
    sections = []
    for _ in range(3):
        header = sys.stdin.readline()
        if not header:
            return None
        n = int(header.split()[0])
        sections.append([sys.stdin.readline().split() for _ in range(n)])
    return sections


def reply(commands):
    sys.stdout.write("%d commands:\n" % len(commands))
    for c in commands:
        sys.stdout.write(c + "\n")
    sys.stdout.flush()


def greedy(forts, roads):
    """Half of every garrison above 10 to the first neighbour it does not own."""
    owner = {f[0]: f[3] for f in forts}
    garrison = {f[0]: int(f[4]) for f in forts}
    commands = []
    for f in forts:
        if f[3] != me or garrison[f[0]] <= 10:
            continue
        for a, b in roads:
            other = b if a == f[0] else a if b == f[0] else None
            if other and owner[other] != me:
                commands.append("%s %s %d" % (f[0], other, garrison[f[0]] // 2))
                break
    return commands


if mode == "exit_at_start":
    sys.exit(3)
if mode == "never_reads":
    for _ in range(int(args[0])):
        reply([])
    time.sleep(60)
if mode == "close_stdout":
    os.close(1)
    time.sleep(60)
if mode == "child_left":
    child = subprocess.Popen(["sleep", "1000"])
    sys.stderr.write("child %d\n" % child.pid)
    sys.stderr.flush()
if mode == "daemon":
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.close(r)
            os.write(w, str(os.getpid()).encode())
            os.close(w)
            os.execvp("sleep", ["sleep", "1000"])
        os._exit(0)
    os.close(w)
    pid = os.read(r, 32).decode()
    sys.stderr.write("daemon %s\n" % pid)
    sys.stderr.flush()

turn = 0
while True:
    state = read_state()
    if state is None:
        break
    forts, roads, marches = state
    if mode in ("idle", "child_left", "daemon"):
        reply([])
    elif mode == "greedy":
        reply(greedy(forts, roads))
    elif mode == "bad_header":
        sys.stdout.write("hello there friend\n")
        sys.stdout.flush()
    elif mode == "bad_count":
        sys.stdout.write("many commands:\n")
        sys.stdout.flush()
    elif mode == "short_then_exit":
        sys.stdout.write("3 commands:\nnowhere nowhere 1\n")
        sys.stdout.flush()
        sys.exit(0)
    elif mode == "short_then_wait":
        sys.stdout.write("3 commands:\nnowhere nowhere 1\n")
        sys.stdout.flush()
        time.sleep(60)
    elif mode == "close_stdin":
        os.close(0)
        while True:
            reply([])
            time.sleep(0.05)
    elif mode == "marked":
        # Replies with a command naming the turn; sleeps through the turns in args.
        if str(turn) in args:
            time.sleep(1.0)
        reply(["turn%d x 1" % turn])
    elif mode == "troubled":
        # A bad command every 3 turns from turn 2, a late reply at turn 4, a crash at 9.
        if turn == 9:
            sys.exit(1)
        if turn == 4:
            time.sleep(0.5)
        reply(["atlantis nowhere 5"] if turn % 3 == 2 else [])
    elif mode == "sleep_forever":
        time.sleep(60)
    elif mode == "stderr_flood":
        sys.stderr.write("e" * 200000 + "\n")
        sys.stderr.flush()
        reply([])
    elif mode == "long_line":
        sys.stdout.write("1 commands:\n" + "x" * 100000 + "\n")
        sys.stdout.flush()
    elif mode == "too_many_lines":
        sys.stdout.write("100001 commands:\n")
        sys.stdout.flush()
    elif mode == "until_end":
        sys.stdout.write("? commands:\n\n# a comment\nend\n")
        sys.stdout.flush()
    elif mode == "two_replies_at_once":
        # Lines beyond the promised count start the next reply.
        sys.stdout.write("1 commands:\nturn%d x 1\n1 commands:\n" % turn)
        sys.stdout.flush()
    elif mode == "warnings":
        mine = [f[0] for f in forts if f[3] == me]
        reply(["nonsense", "a b", "x y 5", "%s %s abc" % (mine[0], mine[0]), "%s %s 1" % (mine[0], mine[0])])
    elif mode == "sleepy":
        # Sleeps (no CPU used) through most of each turn's time.
        time.sleep(0.25)
        reply([])
    elif mode == "flood":
        # 700 distinct bad lines a turn: the warnings a game keeps stay bounded.
        reply(["flood%d_%d x 1" % (turn, i) for i in range(700)])
    elif mode == "wait_for_peer":
        # Replies only once the other bot has seen this turn's state.
        flag = "peer-%d" % turn
        for _ in range(300):
            if os.path.exists(flag):
                break
            time.sleep(0.01)
        reply([] if os.path.exists(flag) else ["late x 1"])
    elif mode == "raise_at_3":
        # An exception a few turns in, as a contestant's bot crashes.
        if turn == 3:
            sys.stderr.write("thinking about turn 3\n")
            sys.stderr.flush()
            [][turn]
        reply([])
    elif mode == "segfault_at_2":
        if turn == 2:
            os.kill(os.getpid(), 11)
        reply([])
    elif mode == "signal_peer":
        open("peer-%d" % turn, "w").close()
        reply([])
    else:
        sys.stderr.write("unknown mode %s\n" % mode)
        sys.exit(2)
    turn += 1
