"""Env speed: uniformly random masked actions through the PettingZoo AEC API, one process.

Every step calls ``last()`` (which encodes the acting agent's observation and mask) and picks a
uniformly random legal index from the mask, the way an RL rollout does; ``skip_trivial`` is on.
Reports games/s, agent steps/s and the cost of one ``observe`` (observation + mask) on the env's
default decks (the theme decks once they load), for the wrapped env (``mtg_env.env``) and the
bare one, in Dict and flat observation mode, and the bare one with its speed options
(``copy_obs=False``, ``legal_indices=True``: the agent reads the legal indices from ``info``
instead of scanning the mask); medians of several runs.

Two rows bound what encoding can gain: ``engine only`` plays the same kind of games with no env,
and ``API, no encoding`` runs the bare env's PettingZoo calls with an observer that encodes
nothing (its legal indices are the options' positions, its observation and mask the same zero
buffers every step): what the AEC API itself costs per step. Their gap to ``raw_env() fast`` is
the observation and the action mapping. The last line times the part of that paid even when
nothing changed: an observer update of an unchanged game and the mapping of options seen before.

    python benchmarks/env_speed.py                   # 200 games x 5 runs per configuration
    python benchmarks/env_speed.py --games 50 --runs 3 --profile   # also a pyinstrument profile
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

import mtg_env
from mtg_env.encoding import Observer
from mtg_env.engine.actions import Action
from mtg_env.engine.game import Game
from mtg_env.env import raw_env


class NullObserver(Observer):
    """Encodes nothing: the legal indices are the options' positions and the observation and
    mask are the same zero buffers every step (the ``API, no encoding`` row)."""

    def observe(self, game: Game, player: int, copy: bool = True):
        view = self._views[player]
        return view.buf, view.mask

    def legal(self, game: Game) -> dict[int, Action]:
        d = game.decision
        if d is None:
            return {}
        if d is not self._legal_decision or game.decisions_made != self._legal_stamp:
            self._legal = dict(enumerate(d.options))
            self._legal_decision = d
            self._legal_stamp = game.decisions_made
        return self._legal


def api_only():
    """The bare env with the speed options and a :class:`NullObserver`."""
    e = raw_env(flatten=True, copy_obs=False, legal_indices=True)
    e.observer = NullObserver(e.config.capacities, flatten=True)
    return e


def run(make, games: int, seed: int) -> tuple[float, float, float, float, float]:
    """Play ``games`` games; return (games/s, steps/s, µs per last(), steps per game,
    CPU-time games/s)."""
    e = make()
    rng = random.Random(seed)  # the agent's choice costs ~0.3 µs; numpy's integers() ~2 µs
    steps = 0
    t_obs = 0.0
    n_obs = 0
    clock = time.perf_counter
    t0 = clock()
    c0 = time.process_time()
    for g in range(games):
        e.reset(seed=seed + g)
        while e.agents:
            t = clock()
            obs, _reward, term, trunc, info = e.last()
            t_obs += clock() - t
            n_obs += 1
            if term or trunc:
                e.step(None)
                continue
            legal = info.get("legal_actions")  # set with legal_indices=True
            if legal is None:
                legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    dt = clock() - t0
    cpu = time.process_time() - c0
    return games / dt, steps / dt, t_obs / n_obs * 1e6, steps / games, games / cpu


def run_engine(games: int, seed: int) -> tuple[float, float, float, float, float]:
    """The same games with no env: the engine applying uniformly random options (the floor)."""
    from mtg_env import Game
    from mtg_env.env.config import load_deck

    e = raw_env()
    pool = e.config.pool()
    rng = random.Random(seed)
    steps = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for _ in range(games):
        decks = [load_deck(rng.choice(pool)) for _ in range(2)]
        g = Game.new(decks, seed=rng.getrandbits(62), skip_trivial=True,
                     max_turns=e.config.max_turns)
        while not g.is_over:
            g.apply(rng.choice(g.decision.options))
            steps += 1
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return games / dt, steps / dt, 0.0, steps / games, games / cpu


def observe_cost(flatten: bool, states: int, seed: int) -> float:
    """µs per ``observe()`` of the acting agent on states of random games (observer only,
    the bare env, so no wrapper overhead)."""
    e = raw_env(seed=seed, flatten=flatten)
    rng = random.Random(seed)
    total = 0.0
    n = 0
    clock = time.perf_counter
    while n < states:
        e.reset()
        while e.agents and n < states:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                continue
            t = clock()
            obs = e.observe(agent)
            total += clock() - t
            n += 1
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
    return total / n * 1e6


def unchanged_cost(states: int, seed: int) -> tuple[float, float]:
    """µs to bring an acting agent's observation up to date when nothing changed since the last
    update, and to map the options of a decision seen before to their indices: what checking every
    table and option costs before any row is written (the observer compares what each table
    shows with the game, so this is paid every step)."""
    e = raw_env(flatten=True, copy_obs=False, legal_indices=True)
    rng = random.Random(seed)
    clock = time.perf_counter
    t_update = t_legal = 0.0
    n = 0
    e.reset(seed=seed)
    while n < states:
        if not e.agents:
            e.reset()
        _obs, _r, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        game, obs = e.game, e.observer
        view = obs._views[game.decision.player]
        view.stamp = -1  # forget that it is up to date
        t = clock()
        view.update(game)
        t_update += clock() - t
        obs._legal_decision = None
        t = clock()
        obs.legal(game)
        t_legal += clock() - t
        n += 1
        legal = info["legal_actions"]
        e.step(int(legal[rng.randrange(len(legal))]))
    return t_update / n * 1e6, t_legal / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per run")
    ap.add_argument("--runs", type=int, default=5, help="runs per configuration (median shown)")
    ap.add_argument("--profile", action="store_true", help="print a pyinstrument profile")
    args = ap.parse_args()
    configs = {
        "env() dict": lambda: mtg_env.env(),
        "env() flat": lambda: mtg_env.env(flatten=True),
        "raw_env() flat": lambda: raw_env(flatten=True),
        # The env's options for speed: its own buffers (valid until the next step) and the legal
        # indices in info, so the agent doesn't scan the mask.
        "raw_env() fast": lambda: raw_env(flatten=True, copy_obs=False, legal_indices=True),
    }
    decks = raw_env().config.pool()
    run(configs["raw_env() flat"], 3, 0)  # load the card registry and warm the caches first
    print(f"decks: {', '.join(str(d) for d in decks)}; {args.games} games x {args.runs} runs")
    print("medians over runs; 'cpu games/s' divides by the process's CPU time (robust when other "
          "processes share the machine)")
    print(f"{'configuration':<17} {'games/s':>8} {'steps/s':>9} {'µs/last()':>10} "
          f"{'steps/game':>11} {'cpu games/s':>12}")
    runs = {name: (lambda make=make, r=0: run(make, args.games, 1000 * r))
            for name, make in configs.items()}
    runs["API, no encoding"] = lambda r=0: run(api_only, args.games, 1000 * r)
    runs["engine only"] = lambda r=0: run_engine(args.games, 1000 * r)
    for name, fn in runs.items():
        rows = [fn(r=r) for r in range(args.runs)]
        med = [statistics.median(r[i] for r in rows) for i in range(5)]
        print(f"{name:<17} {med[0]:8.1f} {med[1]:9.0f} {med[2]:10.1f} {med[3]:11.1f} {med[4]:12.1f}")
    for flatten in (False, True):
        us = statistics.median(observe_cost(flatten, 5000, r) for r in range(args.runs))
        print(f"observe() only, {'flat' if flatten else 'dict'}: {us:.1f} µs per call")
    costs = [unchanged_cost(5000, r) for r in range(args.runs)]
    print(f"observer, nothing changed: {statistics.median(c[0] for c in costs):.1f} µs to update, "
          f"{statistics.median(c[1] for c in costs):.1f} µs to map the options")
    if args.profile:
        from pyinstrument import Profiler

        with Profiler() as prof:
            run(configs["env() flat"], args.games, 0)
        print(prof.output_text(unicode=True, color=False))


if __name__ == "__main__":
    main()
