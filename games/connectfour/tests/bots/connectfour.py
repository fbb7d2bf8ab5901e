"""Fixture bots for games/connectfour/tests/engine.rs, one per mode (the first
argument; the player's name comes last):

- `centre`: the column nearest the centre that is not full;
- `column N`: always column N (forfeits once it is full);
- `garbage`: answers `x`;
- `slow_at K`: as `centre`, but its K-th answer comes 1.5 s late;
- `crash_at K`: as `centre`, but exits with status 3 instead of its K-th answer.
"""
import json
import sys
import time

mode = sys.argv[1]
arg = int(sys.argv[2]) if len(sys.argv) > 3 else None
answers = 0
for line in sys.stdin:
    state = json.loads(line)
    answers += 1
    top = state["board"][0]
    centre = next(c for c in (3, 2, 4, 1, 5, 0, 6) if top[c] == ".")
    print("turn %d, I am player %d" % (state["turn"], state["you"]), file=sys.stderr)
    if mode == "column":
        answer = str(arg)
    elif mode == "garbage":
        answer = "x"
    elif mode == "crash_at" and answers == arg:
        sys.exit(3)
    else:
        if mode == "slow_at" and answers == arg:
            time.sleep(1.5)
        answer = str(centre)
    sys.stdout.write(answer + "\n")
    sys.stdout.flush()
