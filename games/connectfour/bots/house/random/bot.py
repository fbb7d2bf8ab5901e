#!/usr/bin/python3
"""Connect Four house bot `random`.

Strategy: none. Each move it drops its disc in a column that is not full, chosen at
random. Its random numbers are seeded by its player's name, so a game played again is
played the same.

Protocol (games/connectfour/rules.md §8): started with its player's name as its last
argument; before each of its moves it reads one line of JSON, {"board": [six rows, top
row first, "." empty, "1" and "2" discs], "you": 1 or 2, "turn": moves played}, and
answers one line: a column from 0 to 6.
"""
import json
import random
import sys


def decide(state, rng):
    top = state["board"][0]
    legal = [col for col in range(7) if top[col] == "."]
    return rng.choice(legal)


def main():
    rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else "")
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write("%d\n" % decide(json.loads(line), rng))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
