#!/usr/bin/python3
"""A reference implementation of the 2016 Zeus WPI arbiter, written from the rules
(games/bottlebats/rules.md §1–§6, §8 and §9) and not from the engine's code, for differential
tests.

Usage: arbiter.py CONFIG.json   (run from the directory the config's paths are relative to)

It is deliberately plain: no timeouts, blocking reads, one dict per fort and march.
Bots get their states in random order (as the original did), which also checks that a
test bot does not depend on line order.
"""

import json
import math
import random
import re
import shlex
import subprocess
import sys

NEUTRAL = "neutral"
INT_RE = re.compile(r"^[+-]?[0-9]+$")


class MapError(Exception):
    pass


def content_lines(text):
    """(line number, stripped line) for every line that is not blank or a comment."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            yield number, line


def parse_int(word, what, number):
    if not INT_RE.match(word):
        raise MapError(f"line {number}: {what} `{word}` is not an integer")
    return int(word)


def road_length(a, b):
    d2 = (a["x"] - b["x"]) ** 2 + (a["y"] - b["y"]) ** 2
    r = math.isqrt(d2)
    return r if r * r == d2 else r + 1


def parse_map(text):
    """Returns (forts, roads, marches) as raw lists, in file order."""
    lines = list(content_lines(text))
    pos = 0
    sections = []
    for word in ("forts", "roads", "marches"):
        if pos >= len(lines):
            raise MapError(f"missing the {word} section")
        number, header = lines[pos]
        pos += 1
        fields = header.split()
        if len(fields) != 2:
            raise MapError(f"line {number}: bad header `{header}`")
        body = []
        if fields[0] == "?":
            while True:
                if pos >= len(lines):
                    raise MapError(f"line {number}: no `end` for `{header}`")
                n, line = lines[pos]
                pos += 1
                if line == "end":
                    break
                body.append((n, line))
        else:
            count = parse_int(fields[0], "count", number)
            if pos + count > len(lines):
                raise MapError(f"line {number}: fewer than {count} lines follow")
            body = lines[pos : pos + count]
            pos += count
        sections.append(body)
    forts, roads, marches = [], [], []
    for number, line in sections[0]:
        f = line.split()
        if len(f) != 5:
            raise MapError(f"line {number}: a fort needs 5 fields")
        forts.append(
            {
                "name": f[0],
                "x": parse_int(f[1], "x", number),
                "y": parse_int(f[2], "y", number),
                "owner": f[3],
                "garrison": parse_int(f[4], "garrison", number),
            }
        )
    for number, line in sections[1]:
        f = line.split()
        if len(f) != 2:
            raise MapError(f"line {number}: a road needs 2 fields")
        roads.append((f[0], f[1], number))
    for number, line in sections[2]:
        f = line.split()
        if len(f) != 5:
            raise MapError(f"line {number}: a march needs 5 fields")
        marches.append(
            (
                f[0],
                f[1],
                f[2],
                parse_int(f[3], "size", number),
                parse_int(f[4], "steps", number),
                number,
            )
        )
    return forts, roads, marches


class Game:
    def __init__(self, text, players):
        forts, roads, marches = parse_map(text)
        # Seats: distinct non-neutral fort owners in order of first appearance.
        seats = []
        for f in forts:
            if f["owner"] != NEUTRAL and f["owner"] not in seats:
                seats.append(f["owner"])
        if len(players) > len(seats):
            raise MapError(f"the map has {len(seats)} seats, {len(players)} players")
        if all(p in seats for p in players):
            binding = {s: (s if s in players else NEUTRAL) for s in seats}
        else:
            binding = {
                s: (players[i] if i < len(players) else NEUTRAL)
                for i, s in enumerate(seats)
            }
        binding[NEUTRAL] = NEUTRAL
        self.players = list(players)
        self.active = set(players)

        self.forts = []  # dicts in map order
        self.by_name = {}
        for f in forts:
            if f["name"] in self.by_name:
                raise MapError(f"fort {f['name']} twice")
            f = dict(f)
            f["owner"] = binding[f["owner"]]
            self.by_name[f["name"]] = f
            self.forts.append(f)
        # Roads: dict a, b (fort dicts, map order), length L, marches list.
        self.roads = []
        self.road_between = {}
        for a, b, number in roads:
            if a not in self.by_name or b not in self.by_name or a == b:
                raise MapError(f"line {number}: bad road {a} {b}")
            key = frozenset((a, b))
            if key in self.road_between:
                raise MapError(f"line {number}: road {a} {b} twice")
            length = road_length(self.by_name[a], self.by_name[b])
            if length == 0:
                raise MapError(f"line {number}: road {a} {b} has length 0")
            road = {"a": a, "b": b, "L": length, "marches": []}
            self.roads.append(road)
            self.road_between[key] = road
        self.has_road = {r["a"] for r in self.roads} | {r["b"] for r in self.roads}

        # Map marches: dispatched at load like commands, distance remaining_steps (0: the
        # whole road), taken from the origin garrison.
        for origin, dest, owner, size, steps, number in marches:
            road = self.road_between.get(frozenset((origin, dest)))
            if road is None or owner not in binding:
                raise MapError(f"line {number}: bad march")
            if size < 0 or steps < 0 or steps > road["L"]:
                raise MapError(f"line {number}: bad march size or steps")
            fort = self.by_name[origin]
            size = min(size, fort["garrison"])
            fort["garrison"] -= size
            pos = 2 * steps if steps > 0 else 2 * road["L"]
            self.add_march(road, origin, dest, binding[owner], size, pos)

    def add_march(self, road, origin, dest, owner, size, pos):
        """Puts a march on a road, merged into one at the same place, direction and owner.

        For commands that is "several commands of one turn on the same road in the same
        direction merge". It also merges a turn-0 command into a map march with
        remaining_steps 0 from the same fort: neither has moved yet, and
        games/bottlebats/rules.md §4 merges them.
        """
        for m in road["marches"]:
            if m["dest"] == dest and m["owner"] == owner and m["pos"] == pos:
                m["size"] += size
                return
        march = {"origin": origin, "dest": dest, "owner": owner, "size": size, "pos": pos}
        road["marches"].append(march)

    # ---- text ----

    @staticmethod
    def march_line(m):
        return f"{m['origin']} {m['dest']} {m['owner']} {m['size']} {m['pos'] // 2}"

    @staticmethod
    def fort_line(f):
        return f"{f['name']} {f['x']} {f['y']} {f['owner']} {f['garrison']}"

    def sections(self, forts, roads):
        marches = [m for r in roads for m in r["marches"]]
        out = [f"{len(forts)} forts:"]
        out += [self.fort_line(f) for f in forts]
        out.append(f"{len(roads)} roads:")
        out += [f"{r['a']} {r['b']}" for r in roads]
        out.append(f"{len(marches)} marches:")
        out += [self.march_line(m) for m in marches]
        return out

    def snapshot(self, step):
        forts = [f for f in self.forts if f["name"] in self.has_road]
        return "\n".join([f"# STEP: {step}"] + self.sections(forts, self.roads)) + "\n\n"

    def state_for(self, player, shuffle):
        roads = [
            r
            for r in self.roads
            if self.by_name[r["a"]]["owner"] == player
            or self.by_name[r["b"]]["owner"] == player
        ]
        names = {r["a"] for r in roads} | {r["b"] for r in roads}
        forts = [f for f in self.forts if f["name"] in names]
        marches = [m for r in roads for m in r["marches"]]
        forts, roads, marches = list(forts), list(roads), list(marches)
        shuffle(forts)
        shuffle(roads)
        shuffle(marches)
        out = [f"{len(forts)} forts:"]
        out += [self.fort_line(f) for f in forts]
        out.append(f"{len(roads)} roads:")
        for r in roads:
            ends = [r["a"], r["b"]]
            shuffle(ends)
            out.append(" ".join(ends))
        out.append(f"{len(marches)} marches:")
        out += [self.march_line(m) for m in marches]
        return "\n".join(out) + "\n"

    # ---- a turn ----

    def dispatch(self, player, lines, warn):
        for line in lines:
            f = line.split()
            if len(f) != 3:
                warn(player, f"not three fields: {line}")
                continue
            origin, dest, size = f
            if origin not in self.by_name or dest not in self.by_name:
                warn(player, f"unknown fort: {line}")
                continue
            if not INT_RE.match(size):
                warn(player, f"size is not an integer: {line}")
                continue
            size = int(size)
            road = self.road_between.get(frozenset((origin, dest)))
            if road is None or origin == dest:
                warn(player, f"no road: {line}")
                continue
            if size < 0:
                warn(player, f"negative size: {line}")
                continue
            fort = self.by_name[origin]
            if fort["owner"] != player:
                warn(player, f"not your fort: {line}")
                continue
            if size > fort["garrison"]:
                warn(player, f"clamped: {line}")
                size = fort["garrison"]
            fort["garrison"] -= size
            self.add_march(road, origin, dest, player, size, 2 * road["L"])

    def move_road(self, road):
        two_l = 2 * road["L"]
        for _ in range(2):
            for m in road["marches"]:
                if m["pos"] > 0:
                    m["pos"] -= 1
            # Distance from end a: a march toward a at p is at p, toward b at 2L - p.
            toward_a = [m for m in road["marches"] if m["dest"] == road["a"]]
            toward_b = [m for m in road["marches"] if m["dest"] == road["b"]]
            dead = set()
            for m1 in toward_a:
                for m2 in toward_b:
                    if id(m1) in dead or id(m2) in dead:
                        continue
                    if m1["pos"] != two_l - m2["pos"] or m1["owner"] == m2["owner"]:
                        continue
                    loss = min(m1["size"], m2["size"])
                    m1["size"] -= loss
                    m2["size"] -= loss
                    if m1["size"] == 0:
                        dead.add(id(m1))
                    if m2["size"] == 0:
                        dead.add(id(m2))
            road["marches"] = [m for m in road["marches"] if id(m) not in dead]

    def sieges(self):
        arrivals = {}
        for road in self.roads:
            for m in road["marches"]:
                if m["pos"] == 0:
                    arrivals.setdefault(m["dest"], []).append(m)
            road["marches"] = [m for m in road["marches"] if m["pos"] > 0]
        for fort in self.forts:
            armies = {fort["owner"]: fort["garrison"]}
            for m in arrivals.get(fort["name"], []):
                armies[m["owner"]] = armies.get(m["owner"], 0) + m["size"]
            ranked = sorted(armies.items(), key=lambda kv: kv[1], reverse=True)
            first = ranked[0]
            second = ranked[1][1] if len(ranked) > 1 else 0
            if len(ranked) > 1 and first[1] == second:
                fort["garrison"] = 0  # a tie keeps the previous owner
            else:
                fort["owner"] = first[0]
                fort["garrison"] = first[1] - second
        for fort in self.forts:
            if fort["owner"] != NEUTRAL:
                fort["garrison"] += 1

    def defeated(self, player):
        if any(f["owner"] == player for f in self.forts):
            return False
        return not any(m["owner"] == player for r in self.roads for m in r["marches"])


class Bot:
    def __init__(self, name, command):
        self.name = name
        self.proc = subprocess.Popen(
            ["sh", "-c", f"{command} {shlex.quote(name)}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def send(self, text):
        try:
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def next_line(self):
        """The next line that is not blank or a comment; None at end of output."""
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                return None
            line = line.strip()
            if line and not line.startswith("#"):
                return line

    def read_reply(self):
        """The command lines of one reply, or None on a fatal protocol error."""
        header = self.next_line()
        if header is None:
            return None
        fields = header.split()
        if len(fields) != 2:
            return None
        lines = []
        if fields[0] == "?":
            while True:
                line = self.next_line()
                if line is None:
                    return None
                if line == "end":
                    return lines
                lines.append(line)
        if not INT_RE.match(fields[0]) or int(fields[0]) < 0:
            return None
        for _ in range(int(fields[0])):
            line = self.next_line()
            if line is None:
                return None
            lines.append(line)
        return lines

    def stop(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def main():
    if len(sys.argv) != 2:
        print("usage: arbiter.py CONFIG.json", file=sys.stderr)
        return 2
    with open(sys.argv[1]) as fh:
        config = json.load(fh)
    players = list(config["players"].keys())
    with open(config["mapfile"]) as fh:
        game = Game(fh.read(), players)
    max_steps = config.get("max_steps", 500)
    log = open(config["logfile"], "w") if config.get("logfile") else None

    bots = {name: Bot(name, cmd) for name, cmd in config["players"].items()}
    shuffler = random.Random(2016)
    warned = set()

    def warn(player, what):
        if (player, what) not in warned:
            warned.add((player, what))
            print(f"warning: {player}: {what}", file=sys.stderr)

    step = 0
    try:
        while True:
            if log:
                log.write(game.snapshot(step))
            if len(game.active) <= 1 or step >= max_steps:
                break
            order = [p for p in players if p in game.active]
            for p in order:
                if not bots[p].send(game.state_for(p, shuffler.shuffle)):
                    game.active.discard(p)
            replies = {}
            for p in order:
                if p not in game.active:
                    continue
                reply = bots[p].read_reply()
                if reply is None:
                    print(f"{p}: fatal protocol error, removed", file=sys.stderr)
                    game.active.discard(p)
                else:
                    replies[p] = reply
            for p in order:
                if p in replies and p in game.active:
                    game.dispatch(p, replies[p], warn)
            for road in game.roads:
                game.move_road(road)
            game.sieges()
            for p in order:
                if p in game.active and game.defeated(p):
                    game.active.discard(p)
            step += 1
    finally:
        if log:
            log.close()
        for bot in bots.values():
            bot.stop()
    winner = next(iter(game.active)) if len(game.active) == 1 else "None"
    print(f"Winner: {winner}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
