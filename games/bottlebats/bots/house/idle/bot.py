#!/usr/bin/python3
"""Bottle Bats house bot `idle`.

Strategy: none. It reads every state and answers `0 commands:`, so its forts only
grow (+1 soldier a turn) and wait. Use it as the easiest opponent, or to check that a
bot of yours can take a whole map.
"""
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


def skip_section():
    """Reads one `COUNT WORD:` (or `? WORD:` ... `end`) section; False at the end."""
    while True:
        header = read_line()
        if header is None:
            return False
        parts = header.split()
        if len(parts) == 2 and parts[1].endswith(":"):
            break  # anything else before a header is ignored
    if parts[0] == "?":
        while True:
            line = read_line()
            if line is None:
                return False
            if line == "end":
                return True
    try:
        count = int(parts[0])
    except ValueError:
        count = 0
    for _ in range(count):
        if read_line() is None:
            return False
    return True


def main():
    while all(skip_section() for _ in range(3)):
        sys.stdout.write("0 commands:\n")
        sys.stdout.flush()


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
