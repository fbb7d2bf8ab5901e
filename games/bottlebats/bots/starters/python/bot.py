#!/usr/bin/env python3
"""Bottle Bats starter bot (Python 3, standard library only).

Each turn the arbiter writes the state we can see on stdin (forts, roads, marches)
and we answer with our commands on stdout. This bot:
  * remembers every fort and road it has ever seen (a state only shows what is next
    to our own forts),
  * attacks from each fort the neighbour that is cheapest to take, sending just enough
    soldiers to win when they arrive,
  * moves the soldiers of forts surrounded by our own forts toward the frontier.
Copy it, then make it smarter: see README.md for ideas.
"""
import sys
from math import isqrt

# Soldiers sent on top of the exact number needed, in case the defender gets help.
SAFETY = 2


class Fort:
    """What we know about a fort: where it is, and its owner and garrison when we last
    saw it (`seen` is the turn; forts far from ours are not in every state)."""

    def __init__(self, x, y, owner, garrison, seen):
        self.x, self.y = x, y
        self.owner, self.garrison, self.seen = owner, garrison, seen


# ---------------------------------------------------------------- reading a state


def read_line():
    """The next line that is not blank or a comment, or None at the end of input."""
    while True:
        line = sys.stdin.readline()
        if not line:
            return None
        line = line.strip()
        if line and not line.startswith("#"):
            return line


def read_section():
    """Reads one section: a header `COUNT WORD:` then COUNT lines (or `? WORD:` then
    lines until `end`). Returns the lines split into fields, or None at the end."""
    header = read_line()
    if header is None:
        return None
    count = header.split()[0]
    rows = []
    while count == "?" or len(rows) < int(count):
        line = read_line()
        if line is None:
            return None
        if count == "?" and line == "end":
            break
        rows.append(line.split())
    return rows


def road_length(a, b):
    """Steps to walk a road: the distance rounded up (3-4-5 is exactly 5)."""
    d2 = (a.x - b.x) ** 2 + (a.y - b.y) ** 2
    root = isqrt(d2)
    return root if root * root == d2 else root + 1


# ---------------------------------------------------------------- the bot


class Bot:
    def __init__(self, me):
        self.me = me  # our player name (the last argument)
        self.turn = 0
        self.forts = {}  # name -> Fort, everything we have ever seen
        self.roads = set()  # (a, b) with a < b, every road we have ever seen
        # This turn's marches: (origin, destination, owner, size, steps).
        self.marches = []

    def neighbours(self, name):
        for a, b in self.roads:
            if a == name:
                yield b
            elif b == name:
                yield a

    def update(self, forts, roads, marches):
        """Stores this turn's state in our memory."""
        for name, x, y, owner, garrison in (row for row in forts if len(row) == 5):
            self.forts[name] = Fort(int(x), int(y), owner, int(garrison), self.turn)
        for a, b in (row for row in roads if len(row) == 2):
            self.roads.add((min(a, b), max(a, b)))
        # Not used by this simple strategy, but there for you: enemy marches heading
        # to our forts are the attacks we will have to survive.
        self.marches = [(o, d, w, int(s), int(r)) for o, d, w, s, r in
                        (row for row in marches if len(row) == 5)]

    def ours(self, name):
        """True when we own the fort right now (it is in this turn's state)."""
        fort = self.forts[name]
        return fort.owner == self.me and fort.seen == self.turn

    def soldiers_needed(self, source, target):
        """How many soldiers sent now from `source` take `target`: they arrive after
        the road's length in turns; a player's fort grows by 1 each turn meanwhile
        (neutral forts do not grow), and we must end with more than the defender."""
        fort = self.forts[target]
        needed = fort.garrison + 1
        if fort.owner != "neutral":
            needed += road_length(self.forts[source], fort) - 1
        return needed + SAFETY

    def distances_to_frontier(self):
        """For each of our forts, how many roads away the nearest fort we do not own
        is, walking only through our own forts (a breadth-first search)."""
        dist = {}
        frontier = []
        for name in self.forts:
            if self.ours(name) and any(not self.ours(n) for n in self.neighbours(name)):
                dist[name] = 1
                frontier.append(name)
        while frontier:
            next_frontier = []
            for name in frontier:
                for n in self.neighbours(name):
                    if self.ours(n) and n not in dist:
                        dist[n] = dist[name] + 1
                        next_frontier.append(n)
            frontier = next_frontier
        return dist

    def commands(self):
        """This turn's orders: a list of (origin, destination, size)."""
        orders = []
        dist = self.distances_to_frontier()
        for name in sorted(self.forts):
            if not self.ours(name):
                continue
            garrison = self.forts[name].garrison
            others = [n for n in self.neighbours(name) if not self.ours(n)]
            if others:
                # Attack the cheapest neighbour, but only when we can win.
                target = min(others, key=lambda n: (self.soldiers_needed(name, n), n))
                needed = self.soldiers_needed(name, target)
                if garrison >= needed:
                    orders.append((name, target, needed))
            elif garrison > 0:
                # Surrounded by our own forts: walk toward the frontier.
                here = dist.get(name, 1e9)
                closer = [n for n in self.neighbours(name) if dist.get(n, 1e9) < here]
                if closer:
                    orders.append((name, min(closer), garrison))
        return orders


def main():
    me = sys.argv[-1]  # the arbiter appends our player name to the command
    bot = Bot(me)
    while True:
        forts, roads, marches = read_section(), read_section(), read_section()
        if marches is None:
            return  # end of input: the game is over
        bot.update(forts, roads, marches)
        orders = bot.commands()
        # The reply: a header with the count, then one `origin destination size` line
        # each. Flush, or the arbiter waits for our answer until we time out.
        print("%d commands:" % len(orders))
        for origin, destination, size in orders:
            print(origin, destination, size)
        sys.stdout.flush()
        bot.turn += 1


if __name__ == "__main__":
    main()
