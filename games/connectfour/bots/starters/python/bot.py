#!/usr/bin/env python3
"""Bottle Bats starter bot: Connect Four in Python 3 (standard library only).

Before each of our moves the arbiter writes one line of JSON on stdin, the board and
which player we are, and we answer one line on stdout: a column from 0 to 6. This bot
wins at once when it can, else blocks the other player's four, else plays the column
nearest the centre that is not full. Copy it, then make it smarter: see README.md for
ideas.
"""
import json
import sys

COLUMNS, ROWS = 7, 6
# The centre column first: more lines of four pass through it.
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)


def landing_row(board, col):
    """The row a disc dropped in `col` lands in (row 0 is the top), or None when the
    column is full."""
    for row in range(ROWS - 1, -1, -1):
        if board[row][col] == ".":
            return row
    return None


def makes_four(board, row, col, disc):
    """Whether a disc `disc` at (row, col) would make four in a row: across, up, or on
    either diagonal."""
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < ROWS and 0 <= c < COLUMNS and board[r][c] == disc:
                count += 1
                r, c = r + sign * dr, c + sign * dc
        if count >= 4:
            return True
    return False


def decide(state):
    """Our column for one state: {"board": [six rows, top first], "you": 1 or 2,
    "turn": moves played so far}."""
    board = state["board"]
    me = str(state["you"])
    other = "2" if me == "1" else "1"
    legal = [(col, landing_row(board, col)) for col in CENTRE_FIRST]
    legal = [(col, row) for col, row in legal if row is not None]
    for disc in (me, other):  # first a win of ours, then a block of theirs
        for col, row in legal:
            if makes_four(board, row, col, disc):
                return col
    return legal[0][0]


def main():
    # sys.argv[1] is our player's name; "you" in the state says which player we are.
    for line in sys.stdin:
        if not line.strip():
            continue
        print(decide(json.loads(line)))
        # Flush, or the arbiter waits for our answer until we time out.
        sys.stdout.flush()


if __name__ == "__main__":
    main()
