#!/usr/bin/python3
"""A Vindinium bot for the runner's tests (games/vindinium/rules.md §12, §14).

Usage: vindinium.py MODE [ARG...] NAME  (the runner appends the player name).
Reads one JSON line per move and answers one line. Modes:
  miner       walk by breadth-first search to the nearest mine it does not own,
              to a tavern when its life is below 30;
  random      a random direction (seeded by the name, so games repeat);
  crash_at N  play as a miner, and exit with status 3 when asked its Nth move;
  garbage     answer `hello`;
  slow_at N   play as a miner, but sleep 1.5 s before answering its Nth move;
  flood       play at random, while a child process writes to stderr without end.
"""
import json
import random
import subprocess
import sys
import time
from collections import deque

mode = sys.argv[1]
args = sys.argv[2:-1]
me = sys.argv[-1]

DIRS = [("North", -1, 0), ("South", 1, 0), ("East", 0, 1), ("West", 0, -1)]


def miner(state):
    """The first step towards the nearest wanted tile, or Stay."""
    game, hero = state["game"], state["hero"]
    size = game["board"]["size"]
    tiles = game["board"]["tiles"]
    own = "$%d" % hero["id"]
    thirsty = hero["life"] < 30

    def tile(x, y):
        if 0 <= x < size and 0 <= y < size:
            return tiles[(x * size + y) * 2:(x * size + y) * 2 + 2]
        return None

    def wanted(t):
        if thirsty:
            return t == "[]"
        return t.startswith("$") and t != own

    start = (hero["pos"]["x"], hero["pos"]["y"])
    seen = {start}
    queue = deque((start[0] + dx, start[1] + dy, name) for name, dx, dy in DIRS)
    while queue:
        x, y, first = queue.popleft()
        t = tile(x, y)
        if t is None or (x, y) in seen:
            continue
        seen.add((x, y))
        if wanted(t):
            return first
        if t == "  ":
            queue.extend((x + dx, y + dy, first) for _, dx, dy in DIRS)
    return "Stay"


def main():
    if mode == "flood":
        subprocess.Popen(["yes", "a line of stderr, over and over " * 4], stdout=sys.stderr)
    rng = random.Random(me)
    moves = 0
    for line in sys.stdin:
        state = json.loads(line)
        moves += 1
        if mode == "crash_at" and moves == int(args[0]):
            sys.exit(3)
        if mode == "slow_at" and moves == int(args[0]):
            time.sleep(1.5)
        if mode == "garbage":
            answer = "hello"
        elif mode in ("random", "flood"):
            answer = rng.choice(["North", "South", "East", "West", "Stay"])
        else:
            answer = miner(state)
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


main()
