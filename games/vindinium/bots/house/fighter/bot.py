#!/usr/bin/python3
"""Vindinium house bot `fighter`.

Strategy: a hunter. It chases the hero it can beat that is cheapest to reach and
kill (fewest steps plus blows, the weakest first): one with less life than its own,
since the hero that strikes first wins a fight between equals, and with mines, since
a kill takes them all. It drinks at the nearest tavern when its life is 40 or less,
and takes a mine on its way when one is a step or two off and its life is above 50;
with nobody to beat, it goes for the nearest mine not its own.

Protocol: started with its hero's name as its argument; before each of its moves it
reads one line of JSON, {"game": ..., "hero": ...}, and answers one line: Stay,
North, South, East or West.
"""
import json
import sys
from collections import deque

DIRS = (("North", -1, 0), ("South", 1, 0), ("East", 0, 1), ("West", 0, -1))
BLOW = 20
LOW_LIFE = 40
BEER_GOLD = 2
# A mine this close (steps with the bump) is taken on the way when life allows.
MINE_DETOUR = 2
MINE_LIFE_NEEDED = 50


def walks(tiles, size, start):
    """Breadth-first walks over open ground: for each square reached, its distance
    and the first step to it."""
    best = {start: (0, "Stay")}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        dist, first = best[(x, y)]
        for name, dx, dy in DIRS:
            q = (x + dx, y + dy)
            if q in best or not (0 <= q[0] < size and 0 <= q[1] < size):
                continue
            if tiles[q[0] * size + q[1]] != "  ":
                continue
            best[q] = (dist + 1, name if (x, y) == start else first)
            queue.append(q)
    return best


def bump(best, start, target):
    """(steps with the bump, first step) of the shortest way to bump `target`, or
    None when no square next to it is reached."""
    found = None
    for name, dx, dy in DIRS:
        p = (target[0] - dx, target[1] - dy)
        if p not in best:
            continue
        dist, first = best[p]
        option = (dist + 1, name if p == start else first)
        if found is None or option < found:
            found = option
    return found


def decide(state):
    game, hero = state["game"], state["hero"]
    size = game["board"]["size"]
    text = game["board"]["tiles"]
    tiles = [text[i:i + 2] for i in range(0, len(text), 2)]
    start = (hero["pos"]["x"], hero["pos"]["y"])
    best = walks(tiles, size, start)
    squares = [(i // size, i % size) for i in range(size * size)]

    def nearest(wanted):
        ways = [bump(best, start, p) for p, t in zip(squares, tiles) if wanted(t)]
        ways = [w for w in ways if w is not None]
        return min(ways) if ways else None

    life = hero["life"]
    tavern = nearest(lambda t: t == "[]")
    if life <= LOW_LIFE and tavern is not None and hero["gold"] >= BEER_GOLD:
        return tavern[1]
    mine = nearest(lambda t: t[0] == "$" and t != "$%d" % hero["id"])
    if mine is not None and mine[0] <= MINE_DETOUR and life > MINE_LIFE_NEEDED:
        return mine[1]
    preys = []
    for h in game["heroes"]:
        if h["id"] == hero["id"] or h["crashed"] or h["life"] >= life:
            continue
        way = bump(best, start, (h["pos"]["x"], h["pos"]["y"]))
        if way is None:
            continue
        blows = -(-h["life"] // BLOW)
        # A step onto a square next to the prey strikes it: one move fewer.
        preys.append((way[0] - 1 + blows, -h["mineCount"], h["life"], way[1]))
    if preys:
        return min(preys)[3]
    if mine is not None:
        return mine[1]
    return tavern[1] if tavern is not None else "Stay"


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(decide(json.loads(line)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
