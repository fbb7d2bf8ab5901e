#!/usr/bin/python3
"""Vindinium house bot `strong`.

Strategy, each move (its own, the heroes taking turns):
  * Kill: a hero with mines that one blow kills (life 20 or less), within reach this
    move, is struck: the killer takes all its mines. A nearby hero with mines that it
    outlasts (it strikes first, and has life for as many blows as it deals) is
    followed and struck each move, when that is worth more than a mine.
  * Mines: it goes for the mine worth most: the gold it would pay over the moves
    left, per step to it; a mine another hero owns counts 1.5 times (it also stops
    paying them). Walks go round heroes with more life than it.
  * Taverns: it goes to drink when the best walk would leave it with 20 life or
    less, and once next to a tavern it drinks up to 95 life (a beer costs less than
    walking back), except in its last ten moves.
  * Stay alive: each other hero is expected to walk on towards its nearest mine not
    its own (a tavern when low), as most bots do; a move after which their blows
    could kill it is replaced by the one that leaves it the most life.

Protocol: started with its hero's name as its argument; before each of its moves it
reads one line of JSON, {"game": ..., "hero": ...}, and answers one line: Stay,
North, South, East or West.
"""
import heapq
import json
import sys
from collections import deque

DIRS = (("North", -1, 0), ("South", 1, 0), ("East", 0, 1), ("West", 0, -1))
BLOW = 20
MINE_LIFE = 20
BEER_GOLD = 2
BEER_LIFE = 50
MAX_LIFE = 100
# Extra steps a walk counts for a square a stronger hero can strike.
DANGER_COST = 1
# How far away a hero is hunted, in steps.
HUNT_STEPS = 6
# Next to a tavern, it drinks until its life reaches this.
TOP_UP = 95
# Life a walk must leave us, mine taken, to go for it rather than to a tavern.
MARGIN = 20
# A mine another hero owns counts more than a neutral one: it also stops paying them.
STEAL = 1.5


class View:
    """One state as the bot sees it."""

    def __init__(self, state):
        game, hero = state["game"], state["hero"]
        self.size = game["board"]["size"]
        text = game["board"]["tiles"]
        self.tiles = [text[i:i + 2] for i in range(0, len(text), 2)]
        self.me = hero
        self.id = hero["id"]
        self.pos = (hero["pos"]["x"], hero["pos"]["y"])
        self.others = [h for h in game["heroes"] if h["id"] != self.id]
        # Own moves left, this one included.
        self.moves_left = (game["maxTurns"] - game["turn"] + 3) // 4

    def tile(self, x, y):
        if 0 <= x < self.size and 0 <= y < self.size:
            return self.tiles[x * self.size + y]
        return "##"

    def neighbours(self, pos):
        x, y = pos
        for name, dx, dy in DIRS:
            yield name, (x + dx, y + dy)


def pos_of(hero):
    return (hero["pos"]["x"], hero["pos"]["y"])


def distance(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def likely_blows(view):
    """For each square, how many heroes are likely to strike it before our next move,
    each expected to walk on to its nearest mine not its own, or to a tavern when low
    on life, as most bots do."""
    count = {}
    for h in view.others:
        if h["crashed"]:
            continue
        own = "$%d" % h["id"]
        thirsty = h["life"] <= 30

        def wanted(t):
            return t == "[]" if thirsty else (t[0] == "$" and t != own)

        p = next_square(view, pos_of(h), wanted)
        for _, q in view.neighbours(p):
            count[q] = count.get(q, 0) + 1
    return count


def next_square(view, start, wanted):
    """Where the first step of a shortest walk from `start` to bump a wanted tile
    leads (`start` itself for a bump, or when there is nothing to walk to)."""
    seen = {start}
    queue = deque([(start, None)])
    while queue:
        p, first = queue.popleft()
        for _, q in view.neighbours(p):
            if q in seen:
                continue
            seen.add(q)
            t = view.tile(*q)
            if wanted(t):
                return first or start
            if t == "  ":
                queue.append((q, first or q))
    return start


def walks(view, cost):
    """Cheapest walks over open ground from our square: for each square reached, its
    cost, its number of steps and the first step. `cost(square)` is a step's price."""
    best = {view.pos: (0, 0, "Stay")}
    queue = [(0, 0, view.pos, "Stay")]
    while queue:
        c, steps, p, first = heapq.heappop(queue)
        if best[p][0] < c:
            continue
        for name, q in view.neighbours(p):
            if view.tile(*q) != "  ":
                continue
            nc = c + cost(q)
            if q not in best or nc < best[q][0]:
                first_q = name if p == view.pos else first
                best[q] = (nc, steps + 1, first_q)
                heapq.heappush(queue, (nc, steps + 1, q, first_q))
    return best


def approach(view, best, target):
    """The cheapest way to bump `target` (a square next to a reached one): (cost,
    steps including the bump, first step), or None."""
    found = None
    for name, p in view.neighbours(target):
        if p not in best:
            continue
        c, steps, first = best[p]
        if p == view.pos:
            # Bump from where we stand: the direction from us to the target.
            first = next(n for n, q in view.neighbours(p) if q == target)
        option = (c + 1, steps + 1, first)
        if found is None or option < found:
            found = option
    return found


def decide(view):
    """The move our goals want, before the safety check."""
    me = view.me
    life, gold = me["life"], me["gold"]
    stronger = [h for h in view.others if not h["crashed"] and h["life"] >= life]

    def near_stronger(p):
        return any(distance(p, pos_of(h)) <= 2 for h in stronger)

    def step_cost(p):
        return 1 + (DANGER_COST if near_stronger(p) else 0)

    best = walks(view, step_cost)

    # 1. Kills: a rich hero one blow kills, next to where our move can put us.
    kills = []
    for h in view.others:
        if h["mineCount"] == 0 or h["life"] > BLOW:
            continue
        hp = pos_of(h)
        for name, p in [("Stay", view.pos)] + list(view.neighbours(view.pos)):
            if p != view.pos and view.tile(*p) != "  ":
                continue
            if distance(p, hp) == 1:
                kills.append((-h["mineCount"], name))
    if kills:
        return min(kills)[1]

    # 2. Options, each (value per step, first step, life it costs).
    options = []

    for i, t in enumerate(view.tiles):
        if t[0] != "$" or t == "$%d" % view.id:
            continue
        target = (i // view.size, i % view.size)
        way = approach(view, best, target)
        if way is None:
            continue
        cost, steps, first = way
        if steps >= view.moves_left:
            continue
        value = view.moves_left - steps
        if t != "$-":
            value *= STEAL
        options.append((value / (cost + 2), first, steps + MINE_LIFE))

    # Heroes with mines that we strike first and outlast: following a hero keeps us
    # next to it, a blow a move.
    for h in view.others:
        if h["mineCount"] == 0:
            continue
        blows = -(-h["life"] // BLOW)
        if life - BLOW * (blows - 1) <= h["life"] + BLOW:
            continue
        way = approach(view, best, pos_of(h))
        if way is None or way[1] > HUNT_STEPS:
            continue
        cost, steps, first = way
        value = h["mineCount"] * (view.moves_left - steps - blows)
        options.append((value / (cost + 2 * blows), first, BLOW * blows))

    taverns = []
    for i, t in enumerate(view.tiles):
        if t == "[]":
            way = approach(view, best, (i // view.size, i % view.size))
            if way is not None:
                taverns.append(way)
    tavern = min(taverns) if taverns else None

    if tavern is not None and gold >= BEER_GOLD:
        # Next to a tavern: fill up, a beer costs less than walking back.
        if tavern[1] == 1 and life < TOP_UP and view.moves_left > 10:
            return tavern[2]

    feasible = [o for o in options if life - o[2] > MARGIN]
    if feasible:
        return max(feasible)[1]
    if tavern is not None and gold >= BEER_GOLD:
        return tavern[2]
    if options:
        return max(options)[1]
    return "Stay"


def outcome(view, move):
    """Where `move` leaves us and our life then, before the others move (thirst
    leaves at least 1 life)."""
    life, gold = view.me["life"], view.me["gold"]
    target = next((q for n, q in view.neighbours(view.pos) if n == move), view.pos)
    tile = view.tile(*target) if target != view.pos else "@"
    if tile == "  ":
        return target, max(1, life - 1)
    if tile == "[]" and gold >= BEER_GOLD:
        return view.pos, min(MAX_LIFE, life + BEER_LIFE) - 1
    if tile[0] == "$" and tile != "$%d" % view.id:
        return view.pos, life - MINE_LIFE - 1
    return view.pos, max(1, life - 1)


def guarded(view, danger, move):
    """`move`, unless the heroes moving before our next move could kill us after it:
    then the move that leaves us the most life should they all strike."""

    def margin(m):
        p, life = outcome(view, m)
        return life - BLOW * danger.get(p, 0)

    if margin(move) > 0:
        return move
    return max(["Stay"] + [n for n, _, _ in DIRS], key=margin)


def play(view):
    """Our answer to one state."""
    return guarded(view, likely_blows(view), decide(view))


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(play(View(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
