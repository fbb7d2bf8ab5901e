#!/usr/bin/env python3
"""Bottle Bats Vindinium starter bot (Python 3, standard library only).

Before each of our moves the arbiter writes one line of JSON on stdin, the game as
our hero sees it, and we answer one line on stdout: Stay, North, South, East or West.
This bot walks to the nearest mine it does not own and takes it; when its life is
low it walks to the nearest tavern and drinks. Copy it, then make it smarter: see
README.md for ideas.
"""
import json
import sys
from collections import deque

# The four directions, as (answer, row change, column change). `x` is the row:
# North is x - 1.
DIRS = (("North", -1, 0), ("South", 1, 0), ("East", 0, 1), ("West", 0, -1))
MINE_LIFE = 20  # taking a mine costs 20 life; with 20 or less, the hero dies
LOW_LIFE = 30  # at or below this, go and drink
BEER_GOLD = 2  # a beer costs 2 gold, for 50 life


def nearest(tiles, size, start, wanted):
    """Breadth-first search over open ground ("  ") from `start` to a square next to
    a tile that `wanted` accepts. Returns (first step, steps including the final
    bump), or None when no such tile can be reached. Heroes, wood, mines and taverns
    cannot be walked through: walking into a mine or a tavern is how you use it."""
    seen = {start}
    queue = deque([(start, None, 0)])
    while queue:
        (x, y), first, dist = queue.popleft()
        for name, dx, dy in DIRS:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < size and 0 <= ny < size) or (nx, ny) in seen:
                continue
            seen.add((nx, ny))
            tile = tiles[nx * size + ny]
            if wanted(tile):
                return first or name, dist + 1
            if tile == "  ":
                queue.append(((nx, ny), first or name, dist + 1))
    return None


def decide(state):
    """Our move for one state: {"game": {...}, "hero": {...}}."""
    game, hero = state["game"], state["hero"]
    size = game["board"]["size"]
    text = game["board"]["tiles"]
    # Two characters a square, row by row: "  " open, "##" wood, "[]" tavern,
    # "$-" neutral mine, "$1".."$4" a hero's mine, "@1".."@4" a hero.
    tiles = [text[i:i + 2] for i in range(0, len(text), 2)]
    start = (hero["pos"]["x"], hero["pos"]["y"])
    own = "$%d" % hero["id"]
    mine = nearest(tiles, size, start, lambda t: t[0] == "$" and t != own)
    tavern = nearest(tiles, size, start, lambda t: t == "[]")
    life = hero["life"]
    # Thirst costs 1 life a move, so the walk to the mine costs its length too.
    thirsty = life <= LOW_LIFE or (mine is not None and life - mine[1] <= MINE_LIFE)
    if tavern is not None and hero["gold"] >= BEER_GOLD and (thirsty or mine is None):
        return tavern[0]
    return mine[0] if mine is not None else "Stay"


def main():
    # sys.argv[1] is our hero's name; the state tells us our hero's id as well.
    for line in sys.stdin:
        if not line.strip():
            continue
        print(decide(json.loads(line)))
        # Flush, or the arbiter waits for our answer until we time out.
        sys.stdout.flush()


if __name__ == "__main__":
    main()
