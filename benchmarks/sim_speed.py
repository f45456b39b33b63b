"""Simulation throughput: matchup games per second, heuristic vs heuristic and random vs random,
with 1 and 2 worker processes; medians of several runs, and the speedup of 2 workers over 1.

Each run plays the same seat-balanced games (a round robin of the default decks: the theme decks
when they load), through the same code path as ``mtg-env matrix`` (process pool start included).

    python benchmarks/sim_speed.py                       # 600 games per run, 3 runs
    python benchmarks/sim_speed.py --games 400 --runs 5 --workers 1,2
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import statistics
import time

from mtg_env import Deck
from mtg_env.sim import default_deck_names, run_games
from mtg_env.sim.matchup import matchup_specs


def specs_for(agent: str, games: int, seed: int) -> list:
    decks = [Deck.builtin(n) for n in default_deck_names()]
    pairings = list(itertools.combinations(decks, 2))
    per = max(2, games // len(pairings))
    specs = []
    for a, b in pairings:
        specs += matchup_specs(a, b, (agent, agent), per, seed, start_index=len(specs),
                               stream=f"{a.name}|{b.name}")
    return specs


def _busy(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def machine_parallelism(workers: int = 2, n: int = 3_000_000) -> float:
    """How many times one busy loop's work ``workers`` processes get done at once right now: a
    control for the speedups below (other load on the machine lowers it)."""
    t0 = time.perf_counter()
    _busy(n)
    one = time.perf_counter() - t0
    with mp.get_context("fork").Pool(workers) as pool:
        pool.map(_busy, [1000] * workers)  # start the workers first
        t0 = time.perf_counter()
        pool.map(_busy, [n] * workers)
        many = time.perf_counter() - t0
    return workers * one / many


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=600, help="games per run (spread over the pairings)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--agents", default="heuristic,random")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    print(f"decks: {', '.join(default_deck_names())}; {args.games} games per run, median of {args.runs} runs")
    print(f"control: a pure-CPU busy loop runs {machine_parallelism(max(workers)):.2f}x as fast on "
          f"{max(workers)} processes as on one (other load on the machine lowers this)")
    print(f"{'agents':<24}{'workers':>8}{'games/s':>10}{'turns/game':>12}{'speedup':>9}")
    for agent in args.agents.split(","):
        specs = specs_for(agent, args.games, args.seed)
        base = None
        reference = None
        for w in workers:
            rates = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                results = run_games(specs, workers=w)
                rates.append(len(results) / (time.perf_counter() - t0))
                if reference is None:
                    reference = results
                assert results == reference, "results differ between worker counts"
            rate = statistics.median(rates)
            base = base or rate
            turns = statistics.mean(r.turns for r in results)
            print(f"{agent + ' vs ' + agent:<24}{w:>8}{rate:>10.1f}{turns:>12.1f}{rate / base:>8.2f}x")


if __name__ == "__main__":
    main()
