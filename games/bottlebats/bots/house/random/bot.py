#!/usr/bin/python3
"""Bottle Bats house bot `random`.

Strategy: random legal moves. Each turn every fort it owns, with probability 1/3,
sends a random number of its soldiers (1 up to what is left in the fort) along a
random road that leaves the fort. It never sends from a fort it does not own, along a
road that does not exist, or more soldiers than the fort holds, so the arbiter never
warns it. Seeded from the player name, so a game can be replayed.
"""
import random
import sys


def read_line():
    """The next line that is not blank or a comment; None at the end of input."""
    while True:
        line = sys.stdin.readline()
        if not line:
            return None
        line = line.strip()
        if line and not line.startswith("#"):
            return line


def read_section():
    """One `COUNT WORD:` (or `? WORD:` ... `end`) section as lists of fields; None at
    the end of input."""
    while True:
        header = read_line()
        if header is None:
            return None
        parts = header.split()
        if len(parts) == 2 and parts[1].endswith(":"):
            break  # anything else before a header is ignored
    rows = []
    if parts[0] == "?":
        while True:
            line = read_line()
            if line is None:
                return None
            if line == "end":
                return rows
            rows.append(line.split())
    try:
        count = int(parts[0])
    except ValueError:
        count = 0
    for _ in range(count):
        line = read_line()
        if line is None:
            return None
        rows.append(line.split())
    return rows


def decide(me, rng, forts, roads):
    garrison = {}
    for row in forts:
        if len(row) >= 5 and row[3] == me:
            try:
                garrison[row[0]] = int(row[4])
            except ValueError:
                pass
    neighbours = {}
    for row in roads:
        if len(row) >= 2 and row[0] != row[1]:
            neighbours.setdefault(row[0], []).append(row[1])
            neighbours.setdefault(row[1], []).append(row[0])
    commands = []
    for fort in sorted(garrison):
        left = garrison[fort]
        if left <= 0 or not neighbours.get(fort) or rng.random() >= 1 / 3:
            continue
        size = rng.randint(1, left)
        commands.append("%s %s %d" % (fort, rng.choice(neighbours[fort]), size))
    return commands


def main():
    me = sys.argv[-1] if len(sys.argv) > 1 else "random"
    rng = random.Random(me)
    while True:
        sections = [read_section() for _ in range(3)]
        if any(s is None for s in sections):
            return
        forts, roads, _marches = sections
        try:
            commands = decide(me, rng, forts, roads)
        except Exception as e:  # never let an odd state kill the bot
            sys.stderr.write("random: %r\n" % (e,))
            commands = []
        sys.stdout.write("%d commands:\n" % len(commands))
        for c in commands:
            sys.stdout.write(c + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
