#!/usr/bin/python3
"""The remote tests' bot: one program that plays behind `bottlebats connect` and, the
same file, uploaded.

Its replies depend on what it reads alone, so a game played again with it is the same
game. It tells the games apart by their states: Vindinium's are lines of JSON, Bottle
Bats' are text sections.

- Bottle Bats: every fort of its own with more than 10 soldiers sends half of them to
  the first neighbour (in the order the roads are listed) it does not own.
- Vindinium: walks to the nearest mine it does not own (breadth first, round woods
  and heroes), or to a tavern when its life is under 30.

It writes `turn N` on its standard error each turn. From the environment (only a
remote bot has one of its owner's), REMOTE_FIXTURE_SLEEP_MS=MS makes it sleep that
long before each reply from the turn REMOTE_FIXTURE_SLEEP_FROM on, and
REMOTE_FIXTURE_PID_FILE=PATH has it write its process id there.
"""
import json
import os
import sys
import time
from collections import deque

me = sys.argv[-1]
SLEEP_MS = int(os.environ.get("REMOTE_FIXTURE_SLEEP_MS", "0"))
SLEEP_FROM = int(os.environ.get("REMOTE_FIXTURE_SLEEP_FROM", "0"))
if os.environ.get("REMOTE_FIXTURE_PID_FILE"):
    with open(os.environ["REMOTE_FIXTURE_PID_FILE"], "w") as f:
        f.write(str(os.getpid()))


def read_line():
    while True:
        line = sys.stdin.readline()
        if not line:
            return None
        if line.strip() and not line.strip().startswith("#"):
            return line


def read_section(header):
    rows = []
    for _ in range(int(header.split()[0])):
        rows.append(read_line().split())
    return rows


def bottlebats(first):
    forts = read_section(first)
    roads = read_section(read_line())
    read_section(read_line())  # marches
    owner = {f[0]: f[3] for f in forts}
    commands = []
    for f in forts:
        if f[3] != me or int(f[4]) <= 10:
            continue
        for a, b in roads:
            other = b if a == f[0] else a if b == f[0] else None
            if other is not None and owner.get(other) != me:
                commands.append("%s %s %d" % (f[0], other, int(f[4]) // 2))
                break
    return "%d commands:\n%s" % (len(commands), "".join(c + "\n" for c in commands))


DIRS = (("North", -1, 0), ("South", 1, 0), ("East", 0, 1), ("West", 0, -1))


def vindinium(line):
    state = json.loads(line)
    hero = state["hero"]
    size = state["game"]["board"]["size"]
    tiles = state["game"]["board"]["tiles"]
    tile = lambda x, y: tiles[(x * size + y) * 2:(x * size + y) * 2 + 2]
    mine_of_others = lambda t: t[0] == "$" and t[1] != str(hero["id"])
    wanted = (lambda t: t == "[]") if hero["life"] < 30 else mine_of_others
    start = (hero["pos"]["x"], hero["pos"]["y"])
    seen = {start: None}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        for name, dx, dy in DIRS:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < size and 0 <= ny < size) or (nx, ny) in seen:
                continue
            t = tile(nx, ny)
            first = seen[(x, y)] or name
            if wanted(t):
                return first
            if t == "  ":
                seen[(nx, ny)] = first
                queue.append((nx, ny))
    return "Stay"


def main():
    turn = 0
    while True:
        line = read_line()
        if line is None:
            return
        reply = vindinium(line) + "\n" if line.startswith("{") else bottlebats(line)
        sys.stderr.write("turn %d\n" % turn)
        sys.stderr.flush()
        if SLEEP_MS and turn >= SLEEP_FROM:
            time.sleep(SLEEP_MS / 1000)
        sys.stdout.write(reply)
        sys.stdout.flush()
        turn += 1


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
