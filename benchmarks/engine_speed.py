"""Engine speed: seeded games with uniformly random legal actions, one process.

Reports games/s, decisions/s (every decision counted, trivial passes included), decisions per game,
and the cost of ``game.copy()`` and ``to_json()`` on mid-game states; medians of several runs.
Rates divide by the process's CPU time (``time.process_time``), so other jobs sharing the machine
don't distort them; ``--wall`` uses wall-clock time instead.

    python benchmarks/engine_speed.py                 # starter pair + every theme-deck pairing
    python benchmarks/engine_speed.py --games 200 --runs 5 --pairs starter
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from mtg_env import Deck, Game

STARTER_PAIR = ("starter_green", "starter_red")
THEME = ["arcaniss_guile", "cho_mannos_resolve", "evincars_tyranny", "kamahls_temper", "molimos_might"]


def play(decks: list[Deck], seed: int) -> tuple[int, list[Game]]:
    """One random game; returns its decision count and a few mid-game snapshots."""
    g = Game.new(decks, seed=seed, max_turns=200)
    rng = random.Random(seed)
    n = 0
    mids = []
    while not g.is_over:
        g.apply(rng.choice(g.decision.options))
        n += 1
        if n in (60, 120):
            mids.append(g)
            g = g.copy()
    return n, mids


CLOCK = time.process_time


def bench_pair(a: str, b: str, games: int, runs: int) -> dict:
    decks = [Deck.builtin(a), Deck.builtin(b)]
    gps, dps, dpg = [], [], []
    mids: list[Game] = []
    for r in range(runs):
        t = CLOCK()
        total = 0
        for s in range(games):
            n, m = play(decks, r * games + s)
            total += n
            if r == 0:
                mids.extend(m)
        dt = CLOCK() - t
        gps.append(games / dt)
        dps.append(total / dt)
        dpg.append(total / games)
    copy_us, json_us = [], []
    for _ in range(runs):
        t = CLOCK()
        for g in mids:
            g.copy()
        copy_us.append((CLOCK() - t) / max(len(mids), 1) * 1e6)
        t = CLOCK()
        for g in mids:
            g.to_json()
        json_us.append((CLOCK() - t) / max(len(mids), 1) * 1e6)
    return {"pair": f"{a} vs {b}", "games/s": statistics.median(gps),
            "decisions/s": statistics.median(dps), "decisions/game": statistics.median(dpg),
            "copy_us": statistics.median(copy_us), "to_json_us": statistics.median(json_us)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per run per pairing")
    ap.add_argument("--runs", type=int, default=5, help="runs (the median is reported)")
    ap.add_argument("--pairs", choices=["all", "starter", "theme"], default="all")
    ap.add_argument("--wall", action="store_true", help="time with the wall clock, not CPU time")
    args = ap.parse_args()
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    pairs = []
    if args.pairs in ("all", "starter"):
        pairs.append(STARTER_PAIR)
    if args.pairs in ("all", "theme"):
        pairs += list(itertools.combinations_with_replacement(THEME, 2))
    print(f"{'pairing':<42} {'games/s':>8} {'dec/s':>9} {'dec/game':>9} {'copy µs':>8} {'json µs':>8}")
    rows = []
    for a, b in pairs:
        row = bench_pair(a, b, args.games, args.runs)
        rows.append(row)
        print(f"{row['pair']:<42} {row['games/s']:8.1f} {row['decisions/s']:9.0f} "
              f"{row['decisions/game']:9.1f} {row['copy_us']:8.1f} {row['to_json_us']:8.0f}")
    if len(rows) > 1:
        print(f"{'median over pairings':<42} {statistics.median(r['games/s'] for r in rows):8.1f} "
              f"{statistics.median(r['decisions/s'] for r in rows):9.0f} "
              f"{statistics.median(r['decisions/game'] for r in rows):9.1f} "
              f"{statistics.median(r['copy_us'] for r in rows):8.1f} "
              f"{statistics.median(r['to_json_us'] for r in rows):8.0f}")


if __name__ == "__main__":
    main()
