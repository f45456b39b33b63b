"""One agent against another over every ordered pairing of the default decks (the five theme
decks when they load): the first agent plays the row deck, the second the column deck,
seat-balanced paired seeds. Prints a markdown table of the first agent's win rates over decisive
games (draws, turn-limit games included, are counted apart) with 95% Wilson intervals, per
pairing and overall, and exits 1 if any pairing is below the bar. By default HeuristicAgent
against RandomAgent with a 90% bar; ``--agents ppo:checkpoints/ppo_baseline.zip,heuristic``
measures a trained policy the way the training issue asks (every ordered pairing, 1,000 games
in all with ``--games 40``).

    python benchmarks/heuristic_vs_random.py                  # 200 games per pairing
    python benchmarks/heuristic_vs_random.py --games 400 --workers 2
    python benchmarks/heuristic_vs_random.py --decks starter_green,starter_red,starter_white
    python benchmarks/heuristic_vs_random.py --decks all --games 20    # every built-in deck
    python benchmarks/heuristic_vs_random.py --agents ppo:checkpoints/ppo_baseline.zip,heuristic \\
        --games 40 --max-turns 40 --bar 0 --out results/baseline_vs_heuristic.csv
"""

from __future__ import annotations

import argparse
import csv
import itertools
import sys
import time
from pathlib import Path

from mtg_env.engine.deck import expand_deck_groups
from mtg_env.sim import default_deck_names, run_matchup, wilson_interval


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per ordered pairing")
    ap.add_argument("--agents", default="heuristic,random",
                    help="the two agents, comma-separated (any name make_agent takes)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=100)
    ap.add_argument("--bar", type=float, default=0.90,
                    help="lowest acceptable win rate of any pairing (exit 1 below it)")
    ap.add_argument("--decks", default=None, help="comma-separated decks or groups: theme, starter, "
                    "constructed, all (default: the theme decks)")
    ap.add_argument("--out", default=None, help="also write the per-pairing rows as CSV here")
    args = ap.parse_args()
    agents = tuple(a.strip() for a in args.agents.split(","))
    if len(agents) != 2 or not all(agents):
        ap.error(f"--agents must name two agents, got {args.agents!r}")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    decks = expand_deck_groups(args.decks.split(",")) if args.decks else default_deck_names()
    a_name, b_name = agents
    t0 = time.perf_counter()
    print(f"| {a_name}'s deck | {b_name}'s deck | games | wins | losses | draws "
          "| win rate (95% Wilson) |")
    print("|---|---|---:|---:|---:|---:|---|")
    worst = 1.0
    total = {"wins": 0, "losses": 0, "draws": 0, "errors": 0}
    rows = []
    for a, b in itertools.product(decks, repeat=2):
        m = run_matchup(a, b, args.games, agents, args.seed, args.workers,
                        max_turns=args.max_turns)
        s = m.summary
        wins, losses, draws = s["wins_a"], s["wins_b"], s["draws"]
        decisive = wins + losses
        rate = wins / decisive if decisive else 0.0
        lo, hi = wilson_interval(wins, decisive)
        worst = min(worst, rate)
        for k, v in (("wins", wins), ("losses", losses), ("draws", draws), ("errors", s["errors"])):
            total[k] += v
        rows.append({"deck_a": a, "deck_b": b, "games": s["games"], "wins": wins,
                     "losses": losses, "draws": draws, "win_rate": round(rate, 4),
                     "ci_low": round(lo, 4), "ci_high": round(hi, 4), "errors": s["errors"]})
        err = f" ({s['errors']} engine errors)" if s["errors"] else ""
        print(f"| {a} | {b} | {s['games']} | {wins} | {losses} | {draws} | "
              f"{rate:.1%} [{lo:.1%}, {hi:.1%}]{err} |", flush=True)
    decisive = total["wins"] + total["losses"]
    lo, hi = wilson_interval(total["wins"], decisive)
    games = decisive + total["draws"]
    print(f"\noverall ({a_name} vs {b_name}): {total['wins']}-{total['losses']}-{total['draws']} "
          f"in {games} games, {total['wins'] / max(decisive, 1):.1%} [{lo:.1%}, {hi:.1%}] of "
          f"decisive games; lowest pairing {worst:.1%}; {time.perf_counter() - t0:.0f}s")
    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    sys.exit(0 if worst >= args.bar and not total["errors"] else 1)


if __name__ == "__main__":
    main()
