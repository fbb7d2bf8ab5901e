#!/usr/bin/python3
"""Connect Four house bot `strong`.

Strategy: a negamax search with alpha-beta pruning, DEPTH moves ahead (its own and
the other player's). A position where the player to move can complete four is won;
at the depth it stops, a position is worth its cells that would complete four for
the player to move, less the other's, with a small bonus for discs in the centre
columns. Columns are tried from the centre out, so among equal moves it prefers the
centre. It wins at once when it can, blocks the other player's four (one of them when
there are two), and never drops a disc under a cell where the other would complete
four, as far as it looks. No randomness: a game played again is played the same.

The board is kept as bitboards (a column a group of 7 bits, bottom first, the 7th
always empty), as John Tromp's and Pascal Pons' solvers keep it, so that finding four
in a row is a handful of shifts.

Protocol (games/connectfour/rules.md §8): before each of its moves it reads one line
of JSON, {"board": [six rows, top row first, "." empty, "1" and "2" discs], "you": 1
or 2, "turn": moves played}, and answers one line: a column from 0 to 6.
"""
import json
import sys

WIDTH, HEIGHT = 7, 6
H1 = HEIGHT + 1
DEPTH = 7  # moves looked ahead: a few hundredths of a second a move in CPython
ORDER = (3, 2, 4, 1, 5, 0, 6)
BOTTOM = [1 << (c * H1) for c in range(WIDTH)]
TOP = [1 << (c * H1 + HEIGHT - 1) for c in range(WIDTH)]
COLUMN = [((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH)]
BOARD = sum(COLUMN)
CENTRE = COLUMN[3]
NEAR_CENTRE = COLUMN[2] | COLUMN[4]
WIN = 1000


def four(bits):
    """Whether `bits` hold four in a row: up, across, and both diagonals."""
    for s in (1, H1, H1 - 1, H1 + 1):
        m = bits & (bits >> s)
        if m & (m >> (2 * s)):
            return True
    return False


def threats(bits, mask):
    """The empty cells where `bits` would complete four."""
    r = (bits << 1) & (bits << 2) & (bits << 3)
    for s in (H1, H1 - 1, H1 + 1):
        p = (bits << s) & (bits << (2 * s))
        r |= p & (bits << (3 * s))
        r |= p & (bits >> s)
        p = (bits >> s) & (bits >> (2 * s))
        r |= p & (bits << s)
        r |= p & (bits >> (3 * s))
    return r & (BOARD ^ mask)


def ones(x):
    return bin(x).count("1")


def evaluate(me, other, mask):
    """A position for the player to move, at the depth the search stops."""
    return (
        4 * (ones(threats(me, mask)) - ones(threats(other, mask)))
        + 2 * (ones(me & CENTRE) - ones(other & CENTRE))
        + (ones(me & NEAR_CENTRE) - ones(other & NEAR_CENTRE))
    )


def negamax(me, other, mask, depth, alpha, beta):
    """The worth of the position for `me`, the player to move."""
    cells = [(mask + BOTTOM[c]) & COLUMN[c] for c in ORDER if not mask & TOP[c]]
    if not cells:
        return 0  # the board is full: a draw
    for cell in cells:
        if four(me | cell):
            return WIN + depth
    if depth == 0:
        return evaluate(me, other, mask)
    best = -WIN - DEPTH - 1
    for cell in cells:
        score = -negamax(other, me | cell, mask | cell, depth - 1, -beta, -alpha)
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    return best


def decide(state):
    """The column to play: the best by the search, the centre's among equals."""
    me = other = mask = 0
    mine = str(state["you"])
    for r, row in enumerate(state["board"]):
        for c, ch in enumerate(row):
            if ch == ".":
                continue
            bit = 1 << (c * H1 + HEIGHT - 1 - r)
            mask |= bit
            if ch == mine:
                me |= bit
            else:
                other |= bit
    legal = [c for c in ORDER if not mask & TOP[c]]
    cells = {c: (mask + BOTTOM[c]) & COLUMN[c] for c in legal}
    for c in legal:
        if four(me | cells[c]):
            return c  # win now
    # Block: where the other player would complete four with its next disc (when it
    # has two such cells the game is lost, and it still blocks one).
    blocks = [c for c in legal if four(other | cells[c])]
    best, best_col = None, None
    for c in blocks or legal:
        cell = cells[c]
        bound = WIN + DEPTH + 1
        alpha = -bound if best is None else best
        score = -negamax(other, me | cell, mask | cell, DEPTH - 1, -bound, -alpha)
        if best is None or score > best:
            best, best_col = score, c
    return best_col


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write("%d\n" % decide(json.loads(line)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
