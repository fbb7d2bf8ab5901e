#!/usr/bin/python3
"""Bottle Bats house bot `strong`.

Strategy, every turn:
  1. Memory. It remembers every fort (position, last owner and garrison, turn seen) and
     every road it has ever seen; a state only shows what touches its own forts.
  2. Roads. It replays every visible road half-step by half-step, battles included, to
     know which march reaches which fort, with how many soldiers, at the siege of
     which turn (a march showing `r` steps left joins the siege r-1 turns from now).
  3. Defence. Each fort keeps a reserve: enough soldiers that, counting its +1 a turn
     and our reinforcements on the road, it survives every enemy march heading to it
     and the whole garrison of every neighbouring enemy fort sent at it now, each at
     its exact arrival turn. A fort short of its reserve is reinforced by neighbours
     that arrive in time; one that cannot be saved from the marches already on the
     way spends its soldiers on attacks instead.
  4. Attacks. A fort is attacked only when the soldiers that arrive beat the defender
     at the siege they join: its garrison then (+1 a turn for a player, none for a
     neutral), the marches already heading there (its reinforcements, our earlier
     waves), the enemy marches our march meets on the same road, a margin for the
     enemy forts next to it, and what it learned: soldiers that reached a fort from
     roads it cannot see (its prediction was too low) are expected again there.
     Several forts may join one attack; the sources add what they can spare, up to
     the cost again, so a captured fort is not left empty. Targets are chosen by value
     for cost: an enemy fort counts double (it also stops the enemy's growth), cheap
     and near neutral forts come first, so the opening grabs the cheap neutrals.
  5. Logistics. Forts facing the enemy always want soldiers, forts facing neutrals
     want what their targets still cost; every other spare soldier walks there through
     our own forts along shortest paths.
Standard library only; a few milliseconds a turn on a 96-fort map. Set STRONG_DEBUG=1
to have it explain its attacks and time on stderr.
"""
import heapq
import math
import os
import sys
import time

NEUTRAL = "neutral"
DEBUG = bool(os.environ.get("STRONG_DEBUG"))
# How far ahead (in turns) the fort projections look.
HORIZON = 64
# Share of the soldiers of enemy forts next to a target that we add as a margin
# (they could reinforce it before we arrive).
REINFORCE_SHARE = 0.5
# Extra distance that makes forts facing only neutrals less attractive than forts
# facing the enemy when moving soldiers to the front.
NEUTRAL_FRONT_BIAS = 12
# A fort facing only neutral forts sends what it does not need for them on to the
# front when no enemy fort we know of is closer than this many roads.
QUIET_HOPS = 3


# ---------------------------------------------------------------------------- input


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


def road_length(ax, ay, bx, by):
    """ceil(sqrt(dx² + dy²)), exact on integers."""
    d2 = (ax - bx) ** 2 + (ay - by) ** 2
    s = math.isqrt(d2)
    return s if s * s == d2 else s + 1


# ---------------------------------------------------------------------------- roads


def simulate_road(length, toward_a, toward_b):
    """Replays one road until every march has arrived or died, exactly as the engine.

    `toward_a` / `toward_b`: lists of [pos, owner, size] (pos in half-steps from the
    destination). Returns (arrivals at a, arrivals at b), each a list of
    (k, owner, size): the march joins the siege k turns from now (0 = this turn)."""
    ta = sorted(([p, o, s] for p, o, s in toward_a), key=lambda m: m[0])
    tb = sorted(([p, o, s] for p, o, s in toward_b), key=lambda m: m[0])
    at_a, at_b = [], []
    full = 2 * length
    half = 0
    while ta or tb:
        half += 1
        for m in ta:
            if m[0] > 0:
                m[0] -= 1
        for m in tb:
            if m[0] > 0:
                m[0] -= 1
        if ta and tb:
            fought = False
            for x in tb:
                for y in ta:
                    if x[0] + y[0] == full and x[2] > 0 and y[2] > 0 and x[1] != y[1]:
                        loss = min(x[2], y[2])
                        x[2] -= loss
                        y[2] -= loss
                        fought = True
            if fought:
                ta = [m for m in ta if m[2] > 0]
                tb = [m for m in tb if m[2] > 0]
        if half % 2 == 0:
            k = half // 2 - 1
            for lst, out in ((ta, at_a), (tb, at_b)):
                while lst and lst[0][0] == 0:
                    m = lst.pop(0)
                    out.append((k, m[1], m[2]))
        if half > 4 * full + 4:  # cannot happen; never loop forever on odd input
            break
    return at_a, at_b


# ---------------------------------------------------------------------------- bot


class Strong:
    def __init__(self, me):
        self.me = me
        self.turn = 0
        self.forts = {}  # name -> [x, y, owner, garrison, turn seen]
        self.adj = {}  # name -> {neighbour: road length}; every road ever seen
        # What we expect to see next turn at forts we do not own: name -> (owner,
        # garrison); and per fort the rate of soldiers that arrived there unseen.
        self.predicted = {}
        self.surprise = {}

    # ------------------------------------------------------------ memory

    def observe(self, fort_rows, road_rows, march_rows):
        visible = set()
        for row in fort_rows:
            if len(row) < 5:
                continue
            try:
                x, y, g = int(row[1]), int(row[2]), int(row[4])
            except ValueError:
                continue
            self.forts[row[0]] = [x, y, row[3], max(g, 0), self.turn]
            visible.add(row[0])
        for row in road_rows:
            if len(row) < 2 or row[0] == row[1]:
                continue
            a, b = row[0], row[1]
            if a not in self.forts or b not in self.forts:
                continue
            fa, fb = self.forts[a], self.forts[b]
            length = max(1, road_length(fa[0], fa[1], fb[0], fb[1]))
            self.adj.setdefault(a, {})[b] = length
            self.adj.setdefault(b, {})[a] = length
        # Marches, grouped by road: key (a, b) with a < b.
        on_road = {}
        for row in march_rows:
            if len(row) < 5:
                continue
            origin, dest, owner = row[0], row[1], row[2]
            try:
                size, steps = int(row[3]), int(row[4])
            except ValueError:
                continue
            if dest not in self.adj.get(origin, {}) or size < 0 or steps < 0:
                continue
            key = (origin, dest) if origin < dest else (dest, origin)
            lists = on_road.setdefault(key, ([], []))  # toward key[0], toward key[1]
            lists[0 if dest == key[0] else 1].append([2 * steps, owner, size])
        return visible, on_road

    def estimate(self, name):
        """(owner, garrison) of a fort as we last saw it, grown since if a player's."""
        f = self.forts[name]
        g = f[3]
        if f[2] != NEUTRAL:
            g += self.turn - f[4]
        return f[2], g

    # ------------------------------------------------------------ turn

    def decide(self, fort_rows, road_rows, march_rows):
        me = self.me
        visible, on_road = self.observe(fort_rows, road_rows, march_rows)
        forts, adj = self.forts, self.adj
        mine = sorted(n for n in visible if forts[n][2] == me)
        if not mine:
            return []
        garrison = {n: forts[n][3] for n in visible}
        owner = {n: forts[n][2] for n in visible}
        self.learn(visible)

        # Arrivals per fort: list of (k, owner, size, road's other end).
        arrivals = {}
        for (a, b), (ta, tb) in on_road.items():
            at_a, at_b = simulate_road(adj[a][b], ta, tb)
            for k, o, s in at_a:
                arrivals.setdefault(a, []).append((k, o, s, b))
            for k, o, s in at_b:
                arrivals.setdefault(b, []).append((k, o, s, a))

        # ---------------------------------------------------- defence reserves
        def reserve(n, exclude=None, potential=True):
            """Soldiers fort n must keep now to stay ours (see the header), ignoring
            neighbour `exclude` (its garrison and the marches from it: a march we send
            there meets them on the road). Returns (reserve, first turn in danger)."""
            events = {}
            for k, o, s, frm in arrivals.get(n, ()):
                if k > HORIZON:
                    continue
                if o == me:
                    events[k] = events.get(k, 0) - s
                elif frm != exclude:
                    events[k] = events.get(k, 0) + s
            if potential:
                for m, length in adj.get(n, {}).items():
                    if m == exclude or m not in visible:
                        continue
                    if owner[m] != me and owner[m] != NEUTRAL:
                        k = length - 1
                        events[k] = events.get(k, 0) + garrison[m]
            need, cum, danger = 0, 0, None
            g = garrison[n] - spent[n]
            for k in sorted(events):
                cum += events[k]
                # Garrison at the siege of turn k: kept + k growths + cum arrivals.
                req = cum - k
                if req > need:
                    need = req
                if danger is None and g + k - cum < 0:
                    danger = k
            return need, danger

        spent = {n: 0 for n in visible}
        base = {n: reserve(n) for n in mine}
        commands = {}

        def send(a, b, size):
            if size <= 0:
                return
            size = min(size, garrison[a] - spent[a])
            if size <= 0:
                return
            spent[a] += size
            commands[(a, b)] = commands.get((a, b), 0) + size

        def free(n, exclude=None):
            """Soldiers n can send without breaking its reserve."""
            if n in doomed:
                return garrison[n] - spent[n]
            if exclude is None:
                r = base[n][0]
            else:
                r = reserve(n, exclude)[0]
            return garrison[n] - spent[n] - r

        # ---------------------------------------------------- reinforce forts in danger
        doomed = set()
        def first_danger(n):
            return HORIZON if base[n][1] is None else base[n][1]

        for n in sorted(mine, key=first_danger):
            need, danger = base[n]
            short = need - garrison[n]
            if short <= 0:
                continue
            helpers = []
            for m, length in adj[n].items():
                if m in visible and owner[m] == me and length - 1 <= danger:
                    f = free(m)
                    if f > 0:
                        helpers.append((length, -f, m))
            helpers.sort()
            total = sum(-h[1] for h in helpers)
            known_need, _ = reserve(n, potential=False)
            if total < short and known_need > garrison[n]:
                # Cannot be held against marches already on the way: use it elsewhere.
                doomed.add(n)
                continue
            for _length, negf, m in helpers:
                if short <= 0:
                    break
                give = min(-negf, short)
                send(m, n, give)
                short -= give

        # ---------------------------------------------------- attacks
        def projection(t, kmax, extra=()):
            """Armies at the siege of each turn 0..kmax at fort t without new orders:
            list of (owner before the siege, strongest other army, our army, owner
            after, garrison after the siege and growth). `extra`: more (k, owner,
            size) arrivals."""
            o, g = owner[t], garrison[t]
            by_k = {}
            for k, ao, s, _frm in arrivals.get(t, ()):
                if k <= kmax:
                    by_k.setdefault(k, []).append((ao, s))
            for k, ao, s in extra:
                by_k.setdefault(k, []).append((ao, s))
            out = []
            for k in range(kmax + 1):
                armies = {o: g}
                for ao, s in by_k.get(k, ()):
                    armies[ao] = armies.get(ao, 0) + s
                ours = armies.get(me, 0)
                other = max((v for w, v in armies.items() if w != me), default=0)
                before = o
                if len(armies) > 1:
                    ranked = sorted(armies.items(), key=lambda kv: -kv[1])
                    if ranked[0][1] == ranked[1][1]:
                        g = 0
                    else:
                        o, g = ranked[0][0], ranked[0][1] - ranked[1][1]
                if o != NEUTRAL:
                    g += 1
                out.append((before, other, ours, o, g))
            return out

        def reinforce_margin(t, k):
            """Soldiers enemy forts next to t could add before turn k's siege."""
            total = 0
            for m, length in adj.get(t, {}).items():
                if length - 1 > k or m not in forts:
                    continue
                o, g = (owner[m], garrison[m]) if m in visible else self.estimate(m)
                if o != me and o != NEUTRAL:
                    total += g
            return int(math.ceil(REINFORCE_SHARE * total))

        targets = sorted(
            {m for n in mine for m in adj[n] if m in visible and owner[m] != me}
        )
        proj = {}
        for t in targets:
            kmax = max(adj[t][s] for s in adj[t] if s in visible and owner[s] == me) - 1
            proj[t] = projection(t, min(kmax, HORIZON))

        contested = {
            t: owner[t] != NEUTRAL
            or any(forts[m][2] not in (me, NEUTRAL) for m in adj[t] if m in forts)
            for t in targets
        }

        def plan(t):
            """The cheapest way to take t now: (score, cost, [(source, size)]), or
            None."""
            srcs = []
            for s, length in adj[t].items():
                if s not in visible or owner[s] != me:
                    continue
                k = min(length - 1, HORIZON)
                opposing = sum(
                    sz for kk, o, sz, frm in arrivals.get(s, ()) if frm == t and o != me
                )
                cap = free(s, t) - opposing
                if cap > 0:
                    srcs.append((k, s, cap, opposing))
            if not srcs:
                return None
            srcs.sort()
            total = 0
            for i, (k, s, cap, _o) in enumerate(srcs):
                total += cap
                o, other, ours = proj[t][k][:3]
                need = other - ours + (0 if o == me else 1)
                if need <= 0:
                    return None  # already being taken by our marches
                if contested[t]:
                    need += reinforce_margin(t, k) + 1
                # Reinforcements we could not see arrived there before: expect more.
                need += int(math.ceil(self.surprise.get(t, 0.0) * (k + 1)))
                if total >= need:
                    chosen = srcs[: i + 1]
                    orders, left = [], need
                    for kk, ss, cc, oo in chosen[:-1]:
                        give = min(cc, left)
                        orders.append((ss, give + oo))
                        left -= give
                    orders.append((chosen[-1][1], left + chosen[-1][3]))
                    gain = 1.0 if owner[t] == NEUTRAL else 2.0
                    return gain / (need + k + 2), need, orders
            return None

        open_targets = set(targets)
        attacked = []
        while open_targets:
            best = None
            for t in sorted(open_targets):
                p = plan(t)
                if p is None:
                    continue
                if best is None or p[0] > best[0]:
                    best = (p[0], t, p[1], p[2])
            if best is None:
                break
            _score, t, need, orders = best
            if DEBUG:
                sys.stderr.write(
                    "t%d attack %s (%s %d) need %d with %s\n"
                    % (self.turn, t, owner[t], garrison[t], need, orders)
                )
            for s, size in orders:
                send(s, t, size)
            open_targets.discard(t)
            attacked.append((t, need, orders))

        # Every attack gets what its sources can spare on top, up to its cost again: a
        # failed attack is costly, and what is left holds the captured fort.
        for t, need, orders in attacked:
            extra = need
            for s, _size in orders:
                give = min(extra, free(s, t))
                if give > 0:
                    send(s, t, give)
                    extra -= give

        # ---------------------------------------------------- soldiers to the front
        # Forts facing the enemy always want soldiers; forts facing only neutral forts
        # want what their targets still cost; every other spare soldier walks there,
        # through our own forts, along shortest paths (a multi-source Dijkstra).
        spare = {}
        dist, step, heap = {}, {}, []
        # Hops from the nearest enemy fort we know of, over the roads we know.
        near_enemy = {n: 0 for n, f in forts.items() if f[2] not in (me, NEUTRAL)}
        ring = list(near_enemy)
        for hops in range(1, QUIET_HOPS):
            nxt = []
            for n in ring:
                for m in adj.get(n, {}):
                    if m not in near_enemy:
                        near_enemy[m] = hops
                        nxt.append(m)
            ring = nxt
        for n in mine:
            if n in doomed:
                continue
            f = max(free(n), 0)
            faces = [m for m in adj[n] if m in visible and owner[m] != me]
            if not faces:
                spare[n] = f
                continue
            if any(owner[m] != NEUTRAL for m in faces):
                d = 0
            else:
                cost = 0
                for t in faces:
                    k = min(adj[n][t] - 1, HORIZON)
                    o, other, ours = proj[t][k][:3]
                    if o != me:
                        cost += max(0, other - ours + 1)
                if f >= cost and n not in near_enemy:
                    spare[n] = f - cost
                    continue
                d = NEUTRAL_FRONT_BIAS
            short = base[n][0] - garrison[n]
            if short > 0:
                d -= min(short, 10)
            dist[n] = d
            heapq.heappush(heap, (d, n))
        while heap:
            d, n = heapq.heappop(heap)
            if d > dist[n]:
                continue
            for m, length in adj[n].items():
                if m not in visible or owner[m] != me:
                    continue
                if d + length < dist.get(m, math.inf):
                    dist[m] = d + length
                    step[m] = n
                    heapq.heappush(heap, (d + length, m))
        for n, f in spare.items():
            if f > 0 and n in step:
                send(n, step[n], f)

        # What we expect next turn where we do not own the fort.
        self.predicted = {}
        for t in targets:
            ours = [
                (0, me, size)
                for (a, b), size in commands.items()
                if b == t and adj[a][b] == 1
            ]
            self.predicted[t] = projection(t, 0, ours)[0][3:]
        return ["%s %s %d" % (a, b, s) for (a, b), s in sorted(commands.items())]

    def learn(self, visible):
        """Compares what we see with what we predicted last turn: soldiers that came
        from roads we cannot see raise the fort's surprise rate, which decays."""
        for t in list(self.surprise):
            self.surprise[t] *= 0.9
            if self.surprise[t] < 0.2:
                del self.surprise[t]
        for t, (po, pg) in self.predicted.items():
            if t not in visible:
                continue
            o, g = self.forts[t][2], self.forts[t][3]
            if o in (self.me, NEUTRAL):
                continue
            if o == po:
                d = g - pg
            elif po == self.me:
                d = g + pg
            else:
                d = g
            if d > 0:
                self.surprise[t] = max(self.surprise.get(t, 0.0), float(d))


def main():
    me = sys.argv[-1] if len(sys.argv) > 1 else "strong"
    bot = Strong(me)
    while True:
        sections = [read_section() for _ in range(3)]
        if any(s is None for s in sections):
            return
        started = time.process_time()
        try:
            commands = bot.decide(*sections)
        except Exception as e:  # never let an odd state kill the bot
            sys.stderr.write("strong: turn %d: %r\n" % (bot.turn, e))
            commands = []
        if DEBUG:
            used = 1000 * (time.process_time() - started)
            sys.stderr.write("t%d cpu %.1f ms\n" % (bot.turn, used))
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
