"""Vindinium house bot `random`: a random direction each move (Stay included)."""
import random
import sys

for line in sys.stdin:
    print(random.choice(["Stay", "North", "South", "East", "West"]), flush=True)
