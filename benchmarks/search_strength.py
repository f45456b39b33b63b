"""Strength and cost of search agents: each agent spec against the heuristic and random agents
over every ordered pairing of the theme decks (the searcher plays the row deck), seat-balanced
paired seeds, with 95% Wilson intervals; then the search cost measured in this process.

    python benchmarks/search_strength.py                               # mcts (6 iterations)
    python benchmarks/search_strength.py --agents mcts:iters=2,mcts:iters=6,mcts:ms=500 \\
        --games 4 --opponents heuristic,random --workers 2
    python benchmarks/search_strength.py --agents mcts --games 8 --cost-games 4

``--games`` is per ordered deck pairing and must be even (each seed is played twice, seats
swapped). The cost part plays ``--cost-games`` games against the heuristic in this process and
reports the median and 90th percentile CPU time per searched decision (a decision with several
candidates; single-option decisions are free), searched decisions per game, iterations
(determinizations) per searched decision, how often search overrode the heuristic's choice,
and rollouts per CPU second. Prints markdown tables.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from agents import MctsAgent, make_agent
from mtg_env.engine.deck import Deck, expand_deck_groups
from mtg_env.sim import default_deck_names, wilson_interval
from mtg_env.sim.matchup import matchup_specs
from mtg_env.sim.parallel import run_games
from mtg_env.sim.runner import play_game


def strength(spec: str, opponent: str, decks: list[str], games: int, seed: int,
             workers: int | None) -> dict:
    """Win rate of ``spec`` against ``opponent`` over every ordered deck pairing."""
    specs = []
    for a, b in itertools.product(decks, repeat=2):
        specs += matchup_specs(Deck.builtin(a), Deck.builtin(b), (spec, opponent), games, seed,
                               start_index=len(specs), stream=f"{a}|{b}")
    t0 = time.perf_counter()
    results = run_games(specs, workers)
    seconds = time.perf_counter() - t0
    ok = [r for r in results if r.error is None]
    wins = sum(r.winner == "a" for r in ok)
    losses = sum(r.winner == "b" for r in ok)
    lo, hi = wilson_interval(wins, wins + losses) if wins + losses else (0.0, 1.0)
    return {"games": len(ok), "wins": wins, "losses": losses, "draws": len(ok) - wins - losses,
            "errors": len(results) - len(ok), "rate": wins / max(wins + losses, 1),
            "lo": lo, "hi": hi, "games_per_s": len(results) / seconds, "seconds": seconds}


class _Timed:
    """Wraps a search agent to time each searched decision in CPU seconds."""

    def __init__(self, agent: MctsAgent) -> None:
        self.agent = agent
        self.times: list[float] = []
        self.iterations: list[int] = []

    def reset(self, player: int, seed: int) -> None:
        self.agent.reset(player, seed)

    def act(self, view):
        before = self.agent.searched
        t0 = time.process_time()
        action = self.agent.act(view)
        if self.agent.searched > before:
            self.times.append(time.process_time() - t0)
            self.iterations.append(self.agent.last_iterations)
        return action


def cost(spec: str, decks: list[str], games: int, seed: int) -> dict:
    """CPU time per searched decision, measured in this process against the heuristic."""
    timed = _Timed(make_agent(spec))
    searched = overridden = rollouts = 0
    pairs = list(itertools.product(decks, repeat=2))
    for k in range(games):
        a, b = pairs[k % len(pairs)]
        seat = k % 2
        agents = [make_agent("heuristic"), make_agent("heuristic")]
        agents[seat] = timed
        play_game([Deck.builtin(a), Deck.builtin(b)] if seat == 0 else
                  [Deck.builtin(b), Deck.builtin(a)], agents, seed=seed + k)
        searched += timed.agent.searched
        overridden += timed.agent.overridden
        rollouts += timed.agent.rollouts
    t = sorted(timed.times)
    return {"decisions": len(t), "per_game": len(t) / games,
            "median_ms": 1000 * statistics.median(t) if t else 0.0,
            "p90_ms": 1000 * t[int(0.9 * (len(t) - 1))] if t else 0.0,
            "iterations": statistics.median(timed.iterations) if t else 0,
            "overridden": overridden / max(searched, 1),
            "rollouts_per_s": rollouts / max(sum(t), 1e-9)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", default="mcts", help="comma-separated agent specs to measure")
    ap.add_argument("--opponents", default="heuristic,random")
    ap.add_argument("--games", type=int, default=8, help="games per ordered deck pairing (even)")
    ap.add_argument("--cost-games", type=int, default=4)
    ap.add_argument("--cost-only", action="store_true", help="skip the strength games")
    ap.add_argument("--decks", default=None, help="decks or groups (default: the theme decks)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.games < 2 or args.games % 2:
        ap.error("--games must be an even number of at least 2 (seat-balanced pairs)")
    decks = expand_deck_groups(args.decks.split(",")) if args.decks else default_deck_names()
    specs = [s for s in args.agents.split(",") if s]
    opponents = [o for o in args.opponents.split(",") if o]
    for s in specs + opponents:
        make_agent(s)  # a bad name fails before any game is played
    print(f"decks: {', '.join(decks)}; {args.games} games per ordered pairing "
          f"({args.games * len(decks) ** 2} per row)\n")
    if not args.cost_only:
        print("| agent | opponent | games | wins | losses | draws | win rate (95% Wilson) | games/s |")
        print("|---|---|---:|---:|---:|---:|---|---:|")
    for s in specs if not args.cost_only else ():
        for o in opponents:
            r = strength(s, o, decks, args.games, args.seed, args.workers)
            err = f" ({r['errors']} engine errors)" if r["errors"] else ""
            print(f"| {s} | {o} | {r['games']} | {r['wins']} | {r['losses']} | {r['draws']} | "
                  f"{r['rate']:.1%} [{r['lo']:.1%}, {r['hi']:.1%}]{err} | {r['games_per_s']:.2f} |",
                  flush=True)
    if args.cost_games > 0:
        print("\n| agent | searched decisions/game | CPU ms per searched decision (median, p90) "
              "| iterations (median) | rollouts/CPU s | overrides heuristic |")
        print("|---|---:|---|---:|---:|---:|")
        for s in specs:
            c = cost(s, decks, args.cost_games, args.seed)
            print(f"| {s} | {c['per_game']:.0f} | {c['median_ms']:.0f}, {c['p90_ms']:.0f} | "
                  f"{c['iterations']:.0f} | {c['rollouts_per_s']:.0f} | {c['overridden']:.1%} |", flush=True)


if __name__ == "__main__":
    main()
