#!/usr/bin/env python3
"""A small Bottle Bats bot: reads each state, remembers every fort it has seen, and
sends half of every strong garrison toward the weakest fort next to it that it does
not own. Run it with `bottlebats play examples/config.json`."""
import sys

me = sys.argv[-1]          # the runner appends our player name
threshold = int(sys.argv[1]) if len(sys.argv) > 2 else 20
seen = {}                  # fort name -> (owner, garrison, turn last seen)


def read_section():
    header = sys.stdin.readline()
    if not header:
        sys.exit(0)        # the game is over
    count = int(header.split()[0])
    return [sys.stdin.readline().split() for _ in range(count)]


turn = 0
while True:
    forts = read_section()
    roads = read_section()
    marches = read_section()
    for name, x, y, owner, garrison in forts:
        seen[name] = (owner, int(garrison), turn)
    neighbours = {}
    for a, b in roads:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)

    commands = []
    for name, (owner, garrison, when) in sorted(seen.items()):
        if owner != me or when != turn or garrison < threshold:
            continue
        targets = [n for n in neighbours.get(name, []) if seen[n][0] != me]
        if targets:
            weakest = min(targets, key=lambda n: seen[n][1])
            commands.append("%s %s %d" % (name, weakest, garrison // 2))

    print("%d commands:" % len(commands))
    for c in commands:
        print(c)
    sys.stdout.flush()
    turn += 1
