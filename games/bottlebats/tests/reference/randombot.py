#!/usr/bin/python3
"""A deterministic random bot for differential tests of arbiters.

Usage: randombot.py SEED [FAULT] NAME

Its reply depends only on the set of lines it was sent (sorted, so any order works), the
turn number, the seed and its name: two arbiters that send it the same states get the
same replies. It plays aggressively (captures, sieges, eliminations) and now and then
sends commands that must be ignored or clamped with a warning: sizes of 0, above the
garrison, negative or not a number, unknown forts, forts without a road between them,
forts it does not own, wrong field counts; and reply headers of every allowed form.

FAULT, optional, is KIND@TURN: at that turn (counted from 0) the bot commits a fatal
protocol error, so it is removed and its forts stay on the board as zombies. KIND is
`bad` (a header that is not two fields), `short` (fewer lines than promised, then
exit) or `exit` (exit without replying).
"""

import hashlib
import random
import sys


def content_line():
    while True:
        line = sys.stdin.readline()
        if line == "":
            return None
        line = line.strip()
        if line and not line.startswith("#"):
            return line


def read_section():
    header = content_line()
    if header is None:
        return None
    count = header.split()[0]
    lines = []
    if count == "?":
        while True:
            line = content_line()
            if line is None or line == "end":
                return lines
            lines.append(line)
    for _ in range(int(count)):
        line = content_line()
        if line is None:
            return None
        lines.append(line)
    return lines


def choose(rng, state, me):
    forts_lines, roads_lines, marches_lines = state
    forts = {}
    for line in forts_lines:
        name, x, y, owner, garrison = line.split()
        forts[name] = (owner, int(garrison))
    adj = {}
    for line in roads_lines:
        a, b = line.split()
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    incoming = {}
    for line in marches_lines:
        origin, dest, owner, size, steps = line.split()
        if owner != me:
            incoming[dest] = incoming.get(dest, 0) + int(size)
    names = sorted(forts)
    mine = [f for f in names if forts[f][0] == me]
    others = [f for f in names if forts[f][0] != me]
    send_chance = rng.choice([0.3, 0.6, 0.9])
    commands = []
    for fort in mine:
        garrison = forts[fort][1]
        if rng.random() > send_chance:
            continue
        neighbours = sorted(adj.get(fort, ()))
        if not neighbours:
            continue
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            weak = [
                n
                for n in neighbours
                if forts[n][0] != me and forts[n][1] + incoming.get(n, 0) < garrison
            ]
            if weak and rng.random() < 0.7:
                dest = rng.choice(weak)
            else:
                dest = rng.choice(neighbours)
            r = rng.random()
            if r < 0.35:
                size = garrison
            elif r < 0.45:
                size = 0
            elif r < 0.52:
                size = garrison + rng.randint(1, 30)
            else:
                size = rng.randint(0, max(garrison, 0))
            origin = fort
            r = rng.random()
            if r < 0.01:
                dest = fort  # no road to itself
            elif r < 0.02:
                dest = "nowhere-" + str(rng.randint(0, 9))
            elif r < 0.03 and others:
                origin = rng.choice(others)  # not ours (or a fort without a road)
            elif r < 0.04:
                dest = rng.choice(names)  # often no road
            elif r < 0.05:
                size = -rng.randint(1, 5)
            elif r < 0.055:
                size = rng.choice(["many", "1.5", "ten"])
            elif r < 0.06:
                commands.append(f"{origin} {dest}")
                continue
            elif r < 0.065:
                commands.append(f"{origin} {dest} {size} extra")
                continue
            commands.append(f"{origin} {dest} {size}")
            if isinstance(size, int) and size > 0 and origin == fort:
                garrison -= min(size, garrison)
    return commands


def main():
    seed = sys.argv[1]
    me = sys.argv[-1]
    fault_kind, fault_turn = None, -1
    if len(sys.argv) == 4:
        fault_kind, at = sys.argv[2].split("@")
        fault_turn = int(at)
    turn = 0
    out = sys.stdout
    while True:
        state = [read_section() for _ in range(3)]
        if any(s is None for s in state):
            return
        # Road endpoints may come in either order too.
        state[1] = [" ".join(sorted(line.split())) for line in state[1]]
        text = "\n".join(
            f"{i} {line}" for i, section in enumerate(state) for line in sorted(section)
        )
        digest = hashlib.sha256(f"{seed}\n{me}\n{turn}\n{text}".encode()).digest()
        rng = random.Random(digest)
        commands = choose(rng, state, me)
        if turn == fault_turn:
            if fault_kind == "bad":
                out.write("commands\n")
                out.flush()
                for _ in sys.stdin:  # stay alive until the arbiter closes stdin
                    pass
                return
            if fault_kind == "short":
                out.write(f"{len(commands) + 2} commands:\n")
                out.write("".join(c + "\n" for c in commands))
                out.flush()
                return
            return  # exit
        r = rng.random()
        if r < 0.15:
            lines = ["? commands:"] + commands + ["end"]
        elif r < 0.25:
            lines = [f"{len(commands)} marches:"] + commands
        else:
            lines = [f"{len(commands)} commands:"] + commands
        if rng.random() < 0.05 and len(lines) > 1:
            # blank and comment lines are ignored everywhere
            lines.insert(rng.randint(1, len(lines) - 1), "")
            lines.insert(rng.randint(1, len(lines) - 1), "# thinking")
        out.write("".join(line + "\n" for line in lines))
        out.flush()
        turn += 1


if __name__ == "__main__":
    main()
