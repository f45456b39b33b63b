"""HeuristicAgent against RandomAgent over every ordered pairing of the default decks (the five
theme decks when they load): the heuristic plays the row deck, the random agent the column deck,
seat-balanced paired seeds. Prints a markdown table of the heuristic's win rates with 95% Wilson
intervals, and exits 1 if any pairing is below the bar (default 90%).

    python benchmarks/heuristic_vs_random.py                  # 200 games per pairing
    python benchmarks/heuristic_vs_random.py --games 400 --workers 2
    python benchmarks/heuristic_vs_random.py --decks starter_green,starter_red,starter_white
    python benchmarks/heuristic_vs_random.py --decks all --games 20    # every built-in deck
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

from mtg_env.engine.deck import expand_deck_groups
from mtg_env.sim import default_deck_names, run_matchup, wilson_interval


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per ordered pairing")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bar", type=float, default=0.90)
    ap.add_argument("--decks", default=None, help="comma-separated decks or groups: theme, starter, "
                    "constructed, all (default: the theme decks)")
    args = ap.parse_args()
    decks = expand_deck_groups(args.decks.split(",")) if args.decks else default_deck_names()
    t0 = time.perf_counter()
    print("| heuristic's deck | random's deck | games | heuristic wins | losses | draws "
          "| win rate (95% Wilson) |")
    print("|---|---|---:|---:|---:|---:|---|")
    worst = 1.0
    total_w = total_n = 0
    for a, b in itertools.product(decks, repeat=2):
        m = run_matchup(a, b, args.games, ("heuristic", "random"), args.seed, args.workers)
        s = m.summary
        rate = s["wins_a"] / s["games"] if s["games"] else 0.0  # draws count as non-wins here
        lo, hi = wilson_interval(s["wins_a"], s["games"])
        worst = min(worst, rate)
        total_w += s["wins_a"]
        total_n += s["games"]
        err = f" ({s['errors']} engine errors)" if s["errors"] else ""
        print(f"| {a} | {b} | {s['games']} | {s['wins_a']} | {s['wins_b']} | {s['draws']} | "
              f"{rate:.1%} [{lo:.1%}, {hi:.1%}]{err} |")
    print(f"\noverall: {total_w}/{total_n} = {total_w / total_n:.2%}; lowest pairing {worst:.1%}; "
          f"{time.perf_counter() - t0:.0f}s")
    sys.exit(0 if worst >= args.bar else 1)


if __name__ == "__main__":
    main()
