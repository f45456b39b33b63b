"""The agent evaluation protocol: one agent against an opponent over every ordered pairing of a
deck set (mirrors included), the agent playing the row deck, in seat-swapped paired deals.

    python benchmarks/agent_strength.py --agent heuristic --opponent random
    python benchmarks/agent_strength.py --agent ppo:checkpoints/ppo_baseline.zip --opponent heuristic \\
        --games 4 --workers 2 --json results/ppo_vs_heuristic.json
    python benchmarks/agent_strength.py --agent mcts:iters=4 --decks theme,red_burn --games 2
    python benchmarks/agent_strength.py --agent heuristic --opponent heuristic \\
        --deck-dir benchmarks/decks_unseen --games 2          # decks no training config uses
    python benchmarks/agent_strength.py --agent heuristic --opponent random --limit-pairings 40

The same protocol gives every number we report:

* agents are specs :func:`agents.make_agent` accepts (``heuristic``, ``random``, ``mcts:iters=4``,
  ``ppo:PATH``);
* decks: ``--decks all`` (the default: every built-in deck), a comma list of deck names, groups
  (``theme``, ``starter``, ``constructed``) or deck-file paths, or ``--deck-dir DIR`` (every
  ``*.txt`` deck file in a folder);
* every ordered pairing of the deck set, mirrors included, ``--games`` games each (even): the
  pairs of :func:`mtg_env.sim.matchup.matchup_specs`, each seed dealt twice with the seats
  swapped, so the agent's deck is on the play as often as on the draw. The seeds depend only on
  ``--seed`` and the two deck names, so two agents measured with the same options play the same
  deals;
* ``--limit-pairings K`` plays a random subset of K ordered pairings (drawn with ``--seed``),
  for quick checks; the output says so;
* win rates are over decisive games with 95% Wilson intervals, overall and per agent deck
  (over its opponents; ``--per-opponent`` adds the table per opponent deck, and
  ``--per-pairing`` every pairing); draws (turn-limit games among them) are counted apart;
  games the engine failed on are counted as errors, listed with the exception text, and left
  out of every rate (a failed game does not stop the run).

Prints markdown tables; ``--json PATH`` writes everything (overall, per deck, per opponent deck,
per pairing, errors, the options and the timing). ``--strict`` exits 1 when a game failed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mtg_env.engine.deck import Deck, expand_deck_groups
from mtg_env.engine.errors import MtgError
from mtg_env.sim import GameResult, GameSpec, run_games, wilson_interval
from mtg_env.sim.decks import load_deck
from mtg_env.sim.matchup import json_safe, matchup_specs
from mtg_env.sim.progress import game_progress

# A played game from the agent's side: (agent's deck, opponent's deck, result). In every
# result the agent is side "a" and the opponent side "b".
Played = tuple[str, str, GameResult]


def tally(games: Iterable[Played]) -> dict[str, Any]:
    """Counts and the agent's win rate (decisive games, 95% Wilson) of some played games."""
    games = list(games)
    ok = [r for _, _, r in games if r.error is None]
    wins = sum(r.winner == "a" for r in ok)
    losses = sum(r.winner == "b" for r in ok)
    decisive = wins + losses
    lo, hi = wilson_interval(wins, decisive)
    return {"games": len(games), "finished": len(ok), "wins": wins, "losses": losses,
            "draws": len(ok) - decisive,
            "turn_limit": sum(r.end_reason == "turn limit" for r in ok),
            "errors": len(games) - len(ok),
            "win_rate": wins / decisive if decisive else math.nan, "ci_low": lo, "ci_high": hi,
            "avg_turns": sum(r.turns for r in ok) / len(ok) if ok else math.nan}


def aggregate(games: Sequence[Played]) -> dict[str, Any]:
    """The tables of a run: ``overall``, ``per_deck`` (the agent's deck over its opponents),
    ``per_opponent_deck``, ``per_pairing`` (keyed ``"agent_deck|opponent_deck"``), each a
    :func:`tally`, decks in first-seen order; and ``errors``, one entry per failed game."""
    def by(key) -> dict[str, dict[str, Any]]:
        groups: dict[str, list[Played]] = {}
        for g in games:
            groups.setdefault(key(g), []).append(g)
        return {k: tally(v) for k, v in groups.items()}

    errors = [{"index": r.index, "agent_deck": a, "opponent_deck": b, "seed": r.seed,
               "agent_seat": r.seats.index("a"), "turn": r.turns, "error": r.error}
              for a, b, r in games if r.error is not None]
    return {"overall": tally(games), "per_deck": by(lambda g: g[0]),
            "per_opponent_deck": by(lambda g: g[1]), "per_pairing": by(lambda g: f"{g[0]}|{g[1]}"),
            "errors": errors}


def resolve_decks(decks: str | None, deck_dir: str | None) -> dict[str, Deck]:
    """The deck set by name (in order, each once): a folder's ``*.txt`` files, or names,
    groups and deck-file paths (``None``: every built-in deck)."""
    if deck_dir is not None:
        folder = Path(deck_dir)
        if not folder.is_dir():
            raise MtgError(f"--deck-dir {deck_dir!r} is not a folder")
        loaded = [Deck.from_file(p) for p in sorted(folder.glob("*.txt"))]
        if not loaded:
            raise MtgError(f"no *.txt deck files in {deck_dir!r}")
    else:
        names = [n.strip() for n in (decks or "all").split(",") if n.strip()]
        loaded = [load_deck(n) for n in dict.fromkeys(expand_deck_groups(names))]
    out: dict[str, Deck] = {}
    for d in loaded:
        if d.name in out:
            raise MtgError(f"two decks are named {d.name!r}; deck names must differ")
        out[d.name] = d
    return out


def choose_pairings(names: Sequence[str], limit: int | None, seed: int) -> list[tuple[str, str]]:
    """Every ordered pairing of ``names`` (mirrors included), or a random ``limit`` of them
    drawn with ``seed``, kept in the full list's order."""
    pairs = list(itertools.product(names, repeat=2))
    if limit is None or limit >= len(pairs):
        return pairs
    keep = set(random.Random(seed).sample(range(len(pairs)), limit))
    return [p for i, p in enumerate(pairs) if i in keep]


def build_specs(agent: str, opponent: str, decks: dict[str, Deck], pairs: Sequence[tuple[str, str]],
                games: int, seed: int,
                max_turns: int | None) -> tuple[list[GameSpec], dict[int, tuple[str, str]]]:
    """The games of the protocol and the pairing of each game index."""
    specs: list[GameSpec] = []
    pairing: dict[int, tuple[str, str]] = {}
    for a, b in pairs:
        new = matchup_specs(decks[a], decks[b], (agent, opponent), games, seed, max_turns,
                            start_index=len(specs), stream=f"{a}|{b}")
        pairing.update((s.index, (a, b)) for s in new)
        specs += new
    return specs, pairing


def evaluate(agent: str, opponent: str, decks: dict[str, Deck], pairs: Sequence[tuple[str, str]],
             games: int = 4, seed: int = 0, max_turns: int | None = 60, workers: int | None = 1,
             backend: str = "local", address: str | None = None,
             progress: bool = False) -> dict[str, Any]:
    """Play the protocol's games and return :func:`aggregate`'s tables plus ``seconds`` and
    ``games_per_s`` (wall time, all workers)."""
    specs, pairing = build_specs(agent, opponent, decks, pairs, games, seed, max_turns)
    t0 = time.perf_counter()
    with game_progress(len(specs), f"{agent} vs {opponent}", progress) as advance:
        results = run_games(specs, workers, backend, address, advance)
    seconds = time.perf_counter() - t0
    out = aggregate([(*pairing[r.index], r) for r in results])
    out["seconds"] = seconds
    out["games_per_s"] = len(results) / seconds if seconds > 0 else math.nan
    return out


def _rate(t: dict[str, Any]) -> str:
    if not t["wins"] + t["losses"]:
        return "-"
    return f"{t['win_rate']:.1%} [{t['ci_low']:.1%}, {t['ci_high']:.1%}]"


def _row(label: str, t: dict[str, Any]) -> str:
    turns = "-" if math.isnan(t["avg_turns"]) else f"{t['avg_turns']:.1f}"
    return (f"| {label} | {t['games']} | {t['wins']} | {t['losses']} | {t['draws']} ({t['turn_limit']}) "
            f"| {t['errors']} | {_rate(t)} | {turns} |")


def print_table(title: str, column: str, rows: dict[str, dict[str, Any]]) -> None:
    """One markdown table of :func:`tally` rows."""
    print(f"\n### {title}\n")
    print(f"| {column} | games | wins | losses | draws (turn limit) | errors | win rate (95% Wilson) "
          "| avg turns |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for label, t in rows.items():
        print(_row(label, t))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agent", required=True, help="the agent measured (any make_agent spec)")
    ap.add_argument("--opponent", default="heuristic", help="its opponent (default: heuristic)")
    ap.add_argument("--decks", default=None, help="comma-separated deck names, groups (theme, "
                    "starter, constructed, all) or deck-file paths (default: all built-in decks)")
    ap.add_argument("--deck-dir", default=None, help="every *.txt deck file in this folder instead")
    ap.add_argument("--games", type=int, default=4, help="games per ordered pairing (even; default 4)")
    ap.add_argument("--limit-pairings", type=int, default=None, metavar="K",
                    help="play a random subset of K ordered pairings (drawn with --seed)")
    ap.add_argument("--max-turns", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--backend", default="local", choices=("local", "ray"))
    ap.add_argument("--address", default=None, help="Ray cluster address (--backend ray)")
    ap.add_argument("--per-opponent", action="store_true", help="also the table per opponent deck")
    ap.add_argument("--per-pairing", action="store_true", help="also the table per ordered pairing")
    ap.add_argument("--json", default=None, metavar="PATH", help="write every table and the options here")
    ap.add_argument("--progress", action="store_true", help="a progress bar on stderr")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any game failed")
    args = ap.parse_args(argv)
    if args.games < 2 or args.games % 2:
        ap.error("--games must be an even number of at least 2 (seat-swapped pairs)")
    if args.limit_pairings is not None and args.limit_pairings < 1:
        ap.error("--limit-pairings must be at least 1")
    if args.max_turns < 1:
        ap.error("--max-turns must be at least 1")
    if args.deck_dir is not None and args.decks is not None:
        ap.error("give --decks or --deck-dir, not both")
    from agents import make_agent

    for spec in (args.agent, args.opponent):
        try:
            make_agent(spec)  # a bad spec fails before any game is played
        except ValueError as exc:
            ap.error(str(exc))
    try:
        decks = resolve_decks(args.decks, args.deck_dir)
    except MtgError as exc:
        ap.error(str(exc))
    names = list(decks)
    all_pairs = len(names) ** 2
    pairs = choose_pairings(names, args.limit_pairings, args.seed)
    source = f"the *.txt files of {args.deck_dir}" if args.deck_dir else (args.decks or "all built-in decks")
    print(f"**{args.agent}** (row deck) vs **{args.opponent}**: {len(names)} decks ({source}): "
          f"{', '.join(names)}")
    subset = (f"a random {len(pairs)} of the {all_pairs} ordered pairings (drawn with seed {args.seed})"
              if len(pairs) < all_pairs else f"all {all_pairs} ordered pairings, mirrors included")
    print(f"\n{subset}; {args.games} games per pairing in seat-swapped pairs ({len(pairs) * args.games} "
          f"games); max turns {args.max_turns}; seed {args.seed}; workers {args.workers or 'all cores'}"
          f"{'; backend ray' if args.backend == 'ray' else ''}")
    if len(pairs) < all_pairs:
        print(f"\npairings played: {', '.join(f'{a}/{b}' for a, b in pairs)}")
    try:
        out = evaluate(args.agent, args.opponent, decks, pairs, args.games, args.seed, args.max_turns,
                       args.workers, args.backend, args.address, args.progress)
    except MtgError as exc:
        ap.error(str(exc))
    overall = out["overall"]
    print("\n### Overall\n")
    print("| agent | opponent | games | wins | losses | draws (turn limit) | errors "
          "| win rate (95% Wilson) | avg turns | games/s | seconds |")
    print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    print(f"| {args.agent} {_row(args.opponent, overall)} {out['games_per_s']:.2f} | {out['seconds']:.2f} |")
    print_table("Per deck (the agent's deck, over its opponents)", "agent's deck", out["per_deck"])
    if args.per_opponent:
        print_table("Per opponent deck", "opponent's deck", out["per_opponent_deck"])
    if args.per_pairing:
        print_table("Per pairing", "agent's deck / opponent's deck",
                    {k.replace("|", " / "): v for k, v in out["per_pairing"].items()})
    if out["errors"]:
        print(f"\n### Errors ({len(out['errors'])} games failed; left out of every rate)\n")
        for e in out["errors"]:
            print(f"- game {e['index']} ({e['agent_deck']} vs {e['opponent_deck']}, seed {e['seed']}, "
                  f"agent in seat {e['agent_seat']}, turn {e['turn']}): {e['error']}")
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        doc = {"agent": args.agent, "opponent": args.opponent, "args": vars(args), "decks": names,
               "pairings": [list(p) for p in pairs], "all_pairings": all_pairs,
               "limited": len(pairs) < all_pairs, **out}
        path.write_text(json.dumps(json_safe(doc), indent=2) + "\n")
        print(f"\nwrote {path}")
    return 1 if args.strict and out["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
