"""Strength of the search agent at multiplayer tables: one seat played by ``--agent`` (mcts),
the others by the heuristic, in Free-for-All pods of three and in Two-Headed Giant pods (the
searcher and a heuristic teammate against two heuristic players).

    python benchmarks/mcts_multiplayer.py --games 30 --giant-games 20 --workers 2
    python benchmarks/mcts_multiplayer.py --agent mcts:iters=12 --decks kamahls_temper,...

Deck strength is balanced by rotation: the Free-for-All part plays one seat-rotated pod
(:func:`mtg_env.sim.pod.run_pod`) per deck with the searcher on that deck, so every deck is the
searcher's equally often (an even table gives it 1/N of the games); the Two-Headed Giant part
plays one pod per deck of the four with the searcher on it (so each team has the searcher in
half of the pods: an even table gives its team 1/2). Prints the searcher's win share with its
95% Wilson interval next to the even share, the draws and the time taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mtg_env.sim import wilson_interval
from mtg_env.sim.pod import run_pod

FFA_DECKS = "kamahls_temper,molimos_might,arcaniss_guile"
GIANT_DECKS = "kamahls_temper,molimos_might,arcaniss_guile,evincars_tyranny"


def pods(agent: str, decks: list[str], games: int, seed: int, workers: int, variant: str,
         max_turns: int) -> dict:
    """The searcher's wins over one pod per deck (the searcher on that deck, the heuristic on
    the others): games, wins, draws, errors, seconds."""
    total = {"games": 0, "wins": 0, "draws": 0, "errors": 0}
    t0 = time.perf_counter()
    for k, deck in enumerate(decks):
        agents = [agent if i == k else "heuristic" for i in range(len(decks))]
        r = run_pod(decks, games=games, agents=agents, seed=seed + k, workers=workers,
                    variant=variant, max_turns=max_turns)
        played = r.played
        total["games"] += len(played)
        total["wins"] += sum(1 for g in played if deck in g.winners)
        total["draws"] += r.draws
        total["errors"] += r.errors
    total["seconds"] = time.perf_counter() - t0
    return total


def report(name: str, row: dict, even: float) -> None:
    lo, hi = wilson_interval(row["wins"], row["games"])
    print(f"| {name} | {row['games']} | {row['wins']} | {row['wins'] / row['games']:.1%} "
          f"| {lo:.1%} - {hi:.1%} | {even:.1%} | {row['draws']} | {row['errors']} "
          f"| {row['seconds']:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="mcts:iters=6")
    ap.add_argument("--decks", default=FFA_DECKS, help="the Free-for-All decks (3 to 6)")
    ap.add_argument("--giant-decks", default=GIANT_DECKS, help="the Two-Headed Giant decks (4)")
    ap.add_argument("--games", type=int, default=30, help="Free-for-All games per pod")
    ap.add_argument("--giant-games", type=int, default=20, help="Two-Headed Giant games per pod")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-turns", type=int, default=60)
    args = ap.parse_args()
    ffa = args.decks.split(",")
    giant = args.giant_decks.split(",")
    print(f"{args.agent} with heuristic players (turn cap {args.max_turns})\n")
    print("| table | games | searcher's wins | share | 95% Wilson | even share | draws | errors | s |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|")
    if args.games:
        row = pods(args.agent, ffa, args.games, args.seed, args.workers, "free_for_all",
                   args.max_turns)
        report(f"Free-for-All, {len(ffa)} players", row, 1 / len(ffa))
    if args.giant_games:
        row = pods(args.agent, giant, args.giant_games, args.seed, args.workers,
                   "two_headed_giant", args.max_turns)
        report("Two-Headed Giant (searcher's team)", row, 0.5)


if __name__ == "__main__":
    main()
