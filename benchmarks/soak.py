"""Soak benchmark: many random and heuristic games over every built-in deck pairing, on all cores,
with the soak invariants (:func:`mtg_env.testing.check_invariants`: card counts conserved, a
decision with unique option texts in every unfinished game) checked after every action, and at
randomly drawn decisions a JSON round trip (``from_json(to_json())`` reproduces the state) and
every option applied on a copy.

    python benchmarks/soak.py --games 100000              # the full soak
    python benchmarks/soak.py --games 100000 --seconds 600  # as many as fit in ten minutes

Game ``k`` plays pairing ``k mod P`` of the built-in decks (mirrors included), with uniformly
random players on even rounds over the pairings and heuristic agents on odd ones, from a seed
derived from ``--seed`` and ``k``; so any failure is reproducible from the printed game number.
Prints games, decisions, errors and time; exits 1 if any game failed (or 3 if none finished).

``--players N`` (3 to 6) soaks multiplayer Free-for-All games instead: game ``k`` seats ``N``
built-in decks drawn (with repeats) from those a multiplayer game accepts, with the attack
option ``left``, ``right`` and ``multiple`` in turn (2012 802-803).

    python benchmarks/soak.py --games 2000 --players 4

``--range N`` adds the limited range of influence option to those Free-for-All games (2012 801).
``--variant two_headed_giant`` soaks Two-Headed Giant games (four players, two teams; 2012 810),
``--variant emperor`` Emperor games (six players; 809), over the same decks.

    python benchmarks/soak.py --games 2000 --variant two_headed_giant
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing as mp
import os
import random
import sys
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mtg_env.engine.deck import Deck
from mtg_env.engine.errors import MtgError
from mtg_env.engine.game import Game
from mtg_env.engine.seating import ATTACK_OPTIONS
from mtg_env.sim.decks import loadable_builtin_names
from mtg_env.sim.runner import derive_seed
from mtg_env.testing import play_checked_game, random_chooser

KINDS = ("random", "heuristic")


@dataclass
class Tally:
    """What a batch of games (or the whole run) did."""

    games: int = 0
    decisions: int = 0
    json_checks: int = 0
    option_checks: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    end_reasons: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.json_checks += other.json_checks
        self.option_checks += other.option_checks
        for k, v in other.by_kind.items():
            self.by_kind[k] = self.by_kind.get(k, 0) + v
        for k, v in other.end_reasons.items():
            self.end_reasons[k] = self.end_reasons.get(k, 0) + v
        self.errors += other.errors


def pairings() -> list[tuple[str, str]]:
    """Every pairing of the built-in decks the engine can play, mirrors included."""
    return list(itertools.combinations_with_replacement(loadable_builtin_names(), 2))


def game_plan(k: int, pairs: list[tuple[str, str]], seed: int) -> tuple[tuple[str, str], str, int]:
    """Game ``k``: its decks, its kind of player and its engine seed."""
    kind = KINDS[(k // len(pairs)) % len(KINDS)]
    return pairs[k % len(pairs)], kind, derive_seed(seed, "soak", k)


def multiplayer_decks() -> list[str]:
    """The built-in decks a multiplayer game accepts (none of its cards reads "the opponent"
    as one player)."""
    names = loadable_builtin_names()
    ok = []
    for n in names:
        try:
            Game.new([n, n, n], seed=0)
        except MtgError:
            continue
        ok.append(n)
    return ok


def multiplayer_plan(k: int, names: list[str], players: int, seed: int
                     ) -> tuple[list[str], str, str, int]:
    """Multiplayer game ``k``: its decks by seat, kind of player, attack option and seed."""
    rng = random.Random(derive_seed(seed, "soak-multiplayer", k))
    decks = [rng.choice(names) for _ in range(players)]
    return decks, KINDS[(k // 3) % len(KINDS)], ATTACK_OPTIONS[k % len(ATTACK_OPTIONS)], \
        derive_seed(seed, "soak", players, k)


def _heuristic_chooser(seed: int, players: int = 2):
    from agents import HeuristicAgent
    from mtg_env.engine.view import view_for

    agents = [HeuristicAgent() for _ in range(players)]
    for seat, a in enumerate(agents):
        a.reset(seat, derive_seed(seed, "agent", seat))

    def choose(g: Game, rng: random.Random) -> str:
        p = g.decision.player
        return agents[p].act(view_for(g, p)).text

    return choose


_DECKS: dict[str, Deck] = {}
_CONF: dict = {}


def _init(conf: dict) -> None:
    _CONF.update(conf)
    for name in loadable_builtin_names():
        _DECKS[name] = Deck.builtin(name)


def play_batch(ks: list[int]) -> Tally:
    """Play games ``ks`` and tally them; a failure is recorded, never raised."""
    t = Tally()
    pairs = pairings()
    players = _CONF.get("players", 2)
    for k in ks:
        options = None
        if players == 2:
            (a, b), kind, seed = game_plan(k, pairs, _CONF["seed"])
            names = [a, b]
        else:
            names, kind, attack, seed = multiplayer_plan(k, _CONF["multiplayer_decks"], players,
                                                         _CONF["seed"])
            if _CONF.get("variant") in (None, "free_for_all"):
                options = {"attack": attack}
                if _CONF.get("range"):
                    options["range"] = _CONF["range"]
        choose = random_chooser() if kind == "random" else _heuristic_chooser(seed, players)
        counts: Counter = Counter()
        try:
            g = play_checked_game([_DECKS[n] for n in names], seed, choose,
                                  max_turns=_CONF["max_turns"],
                                  try_all_options=_CONF["options_rate"], check_json=_CONF["json_rate"],
                                  counts=counts, options=options, variant=_CONF.get("variant"))
        except Exception as exc:  # an engine bug or a broken invariant: record, go on
            last = traceback.extract_tb(exc.__traceback__)[-1]
            t.errors.append(f"game {k} ({kind}, {' vs '.join(names)}, {options or ''}, seed {seed}): "
                            f"{type(exc).__name__}: {exc} [{Path(last.filename).name}:{last.lineno}]")
            t.games += 1
            continue
        t.games += 1
        t.decisions += g.decisions_made
        t.json_checks += counts["json"]
        t.option_checks += counts["options"]
        t.by_kind[kind] = t.by_kind.get(kind, 0) + 1
        t.end_reasons[g.end_reason] = t.end_reasons.get(g.end_reason, 0) + 1
    return t


def _write(path: str | None, total: Tally, seconds: float, workers: int, stopped: bool, conf: dict,
           final: bool = False) -> None:
    """The tally so far as JSON (rewritten every 30 s, so an interrupted run keeps its count)."""
    if path:
        Path(path).write_text(json.dumps({**asdict(total), "seconds": seconds, "workers": workers,
                                          "stopped_by_time_limit": stopped, "finished": final,
                                          **conf}, indent=2))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games to play (default 100000)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="stop starting new batches after this much wall time")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--first", type=int, default=0,
                    help="number of the first game (to split one soak into ranges run separately)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=100)
    ap.add_argument("--json-rate", type=float, default=0.02,
                    help="fraction of decisions with a JSON round trip (default 0.02)")
    ap.add_argument("--options-rate", type=float, default=0.01,
                    help="fraction of decisions at which every option is applied on a copy")
    ap.add_argument("--batch", type=int, default=20, help="games per task")
    ap.add_argument("--out", default=None, help="also write the tally as JSON here")
    ap.add_argument("--players", type=int, default=None,
                    help="players per game: 2, or 3 to 6 for a multiplayer Free-for-All")
    ap.add_argument("--variant", choices=("free_for_all", "two_headed_giant", "emperor"),
                    default=None, help="a multiplayer variant: free_for_all (with --players), "
                                       "two_headed_giant (four players) or emperor (six)")
    ap.add_argument("--range", type=int, default=None,
                    help="Free-for-All: the limited range of influence option, in seats (2012 801)")
    args = ap.parse_args(argv)
    if args.range is not None and (args.variant in ("two_headed_giant", "emperor")
                                   or args.players in (None, 2)
                                   or not 1 <= args.range <= args.players // 2):
        ap.error("--range is a number of seats from 1 to players/2 for a Free-for-All of "
                 "--players 3 or more")
    if args.variant in ("two_headed_giant", "emperor"):
        seats = 4 if args.variant == "two_headed_giant" else 6
        if args.players not in (None, seats):
            ap.error(f"--variant {args.variant} plays {seats} players")
        args.players = seats
    elif args.players is None:
        args.players = 3 if args.variant == "free_for_all" else 2
    if args.games < 1 or args.max_turns < 1 or args.batch < 1 or args.first < 0:
        ap.error("--games, --max-turns and --batch must be at least 1, --first at least 0")
    if not (0.0 <= args.json_rate <= 1.0 and 0.0 <= args.options_rate <= 1.0):
        ap.error("--json-rate and --options-rate must be between 0 and 1")
    workers = args.workers or len(os.sched_getaffinity(0))
    if not 2 <= args.players <= 6:
        ap.error("--players must be 2 to 6")
    conf = {"first": args.first, "seed": args.seed, "max_turns": args.max_turns, "json_rate": args.json_rate,
            "options_rate": args.options_rate, "players": args.players,
            "variant": args.variant if args.players > 2 else None, "range": args.range}
    pairs = pairings()
    end = args.first + args.games
    if args.players > 2:
        conf["multiplayer_decks"] = multiplayer_decks()
        what = {"two_headed_giant": "Two-Headed Giant games", "emperor": "Emperor games"}.get(
            args.variant or "", f"Free-for-All games of {args.players}")
        attack = ("" if args.variant in ("two_headed_giant", "emperor")
                  else f"attack {'/'.join(ATTACK_OPTIONS)}, "
                  + (f"range of influence {args.range}, " if args.range else ""))
        print(f"soak: up to {args.games} {what} (numbers {args.first}..{end - 1}) over "
              f"{len(conf['multiplayer_decks'])} built-in decks, {attack}{', '.join(KINDS)} "
              f"players, {workers} workers", flush=True)
    else:
        print(f"soak: up to {args.games} games (numbers {args.first}..{end - 1}) over {len(pairs)} "
              f"pairings of {len(loadable_builtin_names())} "
              f"built-in decks, {', '.join(KINDS)} players, {workers} workers", flush=True)
    batches = [list(range(i, min(i + args.batch, end))) for i in range(args.first, end, args.batch)]
    total = Tally()
    t0 = time.perf_counter()
    stopped = False
    ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ctx.Pool(workers, initializer=_init, initargs=(conf,)) as pool:
        last_report = t0
        for t in pool.imap_unordered(play_batch, batches):
            total.add(t)
            now = time.perf_counter()
            if now - last_report > 30:
                print(f"  {total.games} games, {total.decisions} decisions, {len(total.errors)} errors, "
                      f"{now - t0:.0f}s", flush=True)
                last_report = now
                _write(args.out, total, now - t0, workers, stopped, conf)
            if args.seconds is not None and now - t0 > args.seconds:
                stopped = True
                pool.terminate()
                break
    seconds = time.perf_counter() - t0
    for e in total.errors[:20]:
        print("ERROR", e)
    print(f"games {total.games}  decisions {total.decisions}  errors {len(total.errors)}  "
          f"time {seconds:.1f}s  ({total.games / seconds:.1f} games/s, "
          f"{total.decisions / seconds:.0f} decisions/s)" + ("  [time limit reached]" if stopped else ""))
    print(f"by player: {total.by_kind}; end reasons: {total.end_reasons}; "
          f"JSON round trips: {total.json_checks}; all-options checks: {total.option_checks}")
    _write(args.out, total, seconds, workers, stopped, conf, final=True)
    if total.errors:
        return 1
    return 0 if total.games else 3


if __name__ == "__main__":
    sys.exit(main())
