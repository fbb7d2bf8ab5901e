#!/usr/bin/python3
"""Vindinium house bot `random`.

Strategy: none. Each move it picks at random among the directions that lead onto the
board and not into wood (so it may walk, bump a mine, a tavern or a hero), or stays
when there is none. Its random numbers are seeded by its hero's name, so a game
played again is played the same.

Protocol: started with its hero's name as its argument; before each of its moves it
reads one line of JSON, {"game": ..., "hero": ...}, and answers one line: Stay,
North, South, East or West.
"""
import json
import random
import sys

DIRS = (("North", -1, 0), ("South", 1, 0), ("East", 0, 1), ("West", 0, -1))


def decide(state, rng):
    game, hero = state["game"], state["hero"]
    size = game["board"]["size"]
    tiles = game["board"]["tiles"]
    x, y = hero["pos"]["x"], hero["pos"]["y"]
    legal = [
        name
        for name, dx, dy in DIRS
        if 0 <= x + dx < size
        and 0 <= y + dy < size
        and tiles[((x + dx) * size + y + dy) * 2] != "#"
    ]
    return rng.choice(legal) if legal else "Stay"


def main():
    rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else "")
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(decide(json.loads(line), rng) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
