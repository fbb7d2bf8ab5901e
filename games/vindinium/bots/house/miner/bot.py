#!/usr/bin/python3
"""Vindinium house bot `miner`.

Strategy: walks by breadth-first search to the nearest mine it does not own (neutral
or another hero's) and takes it. When its life is low (30 or less, or not enough to
take that mine and live: a mine costs 20 life and one more is lost a step) and it has
the 2 gold a beer costs, it walks to the nearest tavern instead and drinks. It never
looks at the other heroes, except as squares it cannot walk through.

Protocol: started with its hero's name as its argument; before each of its moves it
reads one line of JSON, {"game": ..., "hero": ...}, and answers one line: Stay,
North, South, East or West.
"""
import json
import sys
from collections import deque

DIRS = (("North", -1, 0), ("South", 1, 0), ("East", 0, 1), ("West", 0, -1))
LOW_LIFE = 30
MINE_LIFE = 20
BEER_GOLD = 2


def first_step(tiles, size, start, wanted):
    """The first step of a shortest walk over open ground from `start` to a square
    next to a tile that `wanted` accepts, and the walk's length with the bump; None
    when no such tile can be reached."""
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
    game, hero = state["game"], state["hero"]
    size = game["board"]["size"]
    text = game["board"]["tiles"]
    tiles = [text[i:i + 2] for i in range(0, len(text), 2)]
    start = (hero["pos"]["x"], hero["pos"]["y"])
    own = "$%d" % hero["id"]
    mine = first_step(tiles, size, start, lambda t: t[0] == "$" and t != own)
    tavern = first_step(tiles, size, start, lambda t: t == "[]")
    life = hero["life"]
    thirsty = life <= LOW_LIFE or (mine is not None and life - mine[1] <= MINE_LIFE)
    if tavern is not None and hero["gold"] >= BEER_GOLD and (thirsty or mine is None):
        return tavern[0]
    return mine[0] if mine is not None else "Stay"


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(decide(json.loads(line)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
