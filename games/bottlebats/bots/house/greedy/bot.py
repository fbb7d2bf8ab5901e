#!/usr/bin/python3
"""Bottle Bats house bot `greedy`.

Strategy: a greedy expander. Every fort it owns with at least 10 soldiers sends half
of them to the weakest neighbouring fort it does not own (fewest soldiers, neutral or
enemy). A fort whose neighbours are all its own sends half of its soldiers one road
closer to the nearest fort it does not own, through its own forts (shortest path over
the roads it has seen), so the interior feeds the frontier. It remembers every fort and
road it has seen, but ignores marches, timing and defence.
"""
import heapq
import math
import sys

THRESHOLD = 10


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


def road_length(a, b):
    d2 = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    s = math.isqrt(d2)
    return s if s * s == d2 else s + 1


class Greedy:
    def __init__(self, me):
        self.me = me
        self.forts = {}  # name -> [x, y, owner, garrison, turn seen]
        self.adj = {}  # name -> {neighbour: length}
        self.turn = 0

    def observe(self, forts, roads):
        for row in forts:
            if len(row) < 5:
                continue
            try:
                x, y, g = int(row[1]), int(row[2]), int(row[4])
            except ValueError:
                continue
            self.forts[row[0]] = [x, y, row[3], g, self.turn]
        for row in roads:
            if len(row) < 2 or row[0] == row[1]:
                continue
            a, b = row[0], row[1]
            if a in self.forts and b in self.forts:
                fa, fb = self.forts[a], self.forts[b]
                length = road_length(fa, fb)
                self.adj.setdefault(a, {})[b] = length
                self.adj.setdefault(b, {})[a] = length

    def decide(self):
        me, forts, adj = self.me, self.forts, self.adj
        mine = [n for n, f in forts.items() if f[2] == me and f[4] == self.turn]
        # Distance from every fort of ours to the nearest fort we do not own, walking
        # only through our own forts; `step[n]` is the first road to take.
        dist, step, heap = {}, {}, []
        for n in mine:
            for m, length in adj.get(n, {}).items():
                if forts[m][2] != me and dist.get(n, math.inf) > length:
                    dist[n], step[n] = length, m
        for n, d in dist.items():
            heapq.heappush(heap, (d, n))
        while heap:
            d, n = heapq.heappop(heap)
            if d > dist.get(n, math.inf):
                continue
            for m, length in adj.get(n, {}).items():
                if forts[m][2] == me and d + length < dist.get(m, math.inf):
                    dist[m], step[m] = d + length, n
                    heapq.heappush(heap, (d + length, m))
        commands = []
        for n in sorted(mine):
            garrison = forts[n][3]
            if garrison < THRESHOLD:
                continue
            targets = [m for m in adj.get(n, {}) if forts[m][2] != me]
            if targets:
                weakest = min(targets, key=lambda m: (forts[m][3], m))
                commands.append("%s %s %d" % (n, weakest, garrison // 2))
            elif n in step:
                commands.append("%s %s %d" % (n, step[n], garrison // 2))
        return commands


def main():
    me = sys.argv[-1] if len(sys.argv) > 1 else "greedy"
    bot = Greedy(me)
    while True:
        sections = [read_section() for _ in range(3)]
        if any(s is None for s in sections):
            return
        forts, roads, _marches = sections
        try:
            bot.observe(forts, roads)
            commands = bot.decide()
        except Exception as e:  # never let an odd state kill the bot
            sys.stderr.write("greedy: %r\n" % (e,))
            commands = []
        sys.stdout.write("%d commands:\n" % len(commands))
        for c in commands:
            sys.stdout.write(c + "\n")
        sys.stdout.flush()
        bot.turn += 1


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
