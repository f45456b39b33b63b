"""Engine speed of multiplayer games next to two-player ones: decisions per CPU second of random
legal play, the same decks in both, one process.

    python benchmarks/multiplayer_speed.py --games 60 --runs 3

Each run plays ``--games`` two-player games (the four starter decks in pairs) and ``--games``
Free-for-All games of 3 and of 4 players (the same decks, attack left, right and multiple in
turn), seeded, with ``skip_trivial`` as the simulator plays; prints decisions per CPU second and
games per CPU second for each table size, medians over the runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mtg_env.engine.deck import Deck
from mtg_env.engine.game import Game
from mtg_env.engine.seating import ATTACK_OPTIONS

DECKS = ["starter_green", "starter_red", "starter_white", "starter_blue_black"]


def play(n_players: int, games: int, seed: int) -> tuple[int, float]:
    """Decisions and CPU seconds of ``games`` random games of ``n_players``."""
    decks = [Deck.builtin(d) for d in DECKS]
    decisions = 0
    t0 = time.process_time()
    for k in range(games):
        seats = [decks[(k + i) % len(decks)] for i in range(n_players)]
        opts = None if n_players == 2 else {"attack": ATTACK_OPTIONS[k % len(ATTACK_OPTIONS)]}
        g = Game.new(seats, seed=seed + k, max_turns=60, skip_trivial=True, options=opts)
        rng = random.Random(seed + k)
        while not g.is_over:
            d = g.decision
            g.apply(d.options[rng.randrange(len(d.options))])
        decisions += g.decisions_made
    return decisions, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows: dict[int, list[tuple[float, float]]] = {2: [], 3: [], 4: []}
    for r in range(args.runs):
        for n in rows:  # interleaved, so drift in the machine's speed hits every size alike
            dec, cpu = play(n, args.games, args.seed + 1000 * r)
            rows[n].append((dec / cpu, args.games / cpu))
    print(f"{'players':>8} {'dec/s':>10} {'games/s':>9} {'vs 2':>6}")
    base = statistics.median(x[0] for x in rows[2])
    for n, xs in rows.items():
        dps = statistics.median(x[0] for x in xs)
        gps = statistics.median(x[1] for x in xs)
        print(f"{n:>8} {dps:>10.0f} {gps:>9.2f} {dps / base:>6.2f}")


if __name__ == "__main__":
    main()
