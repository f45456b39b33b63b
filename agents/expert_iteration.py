"""Expert iteration: the network-guided search plays itself, the network learns the search's
improved policy and the games' results, a gate keeps the stronger network (AlphaGo Zero style).

::

    python -m agents.expert_iteration --config configs/exit.yaml
    python -m agents.expert_iteration --config configs/exit.yaml --set games_per_generation=8
    python -m agents.expert_iteration --config configs/exit.yaml --resume --set generations=20
    python -m agents.expert_iteration --config configs/exit.yaml --backend ray

One typed config (:class:`ExItConfig`, YAML in ``configs/exit.yaml``, ``--set key=value``
overrides, read by :func:`agents.ppo.load_config`). The run starts from the network
``init_from`` (the shipped one by default), saved as generation 0. Generation ``g`` (1, 2, ...):

1. **Self-play.** ``games_per_generation`` games, each on two decks drawn independently from
   ``decks`` and with a random seat for the learner; the opponent seat is the best network's
   search again (self-play: both seats are recorded), the search of a past best network, or the
   heuristic (then only the learner's seat is recorded), drawn with the probabilities
   ``opponents``. Everything random about game ``i`` (decks, seats, opponent, engine and agent
   seeds) is derived from ``(seed, g, i)``, so a generation is the same for any number of
   workers, chunking, ``games_at_once`` or backend. A worker plays its games ``games_at_once`` at
   a time: the searches are generators (:mod:`agents.guided_search`), and the positions every
   waiting game asks of the same network are evaluated in one batch. Every searched decision of
   a recorded seat is a sample: the observation (the network's base capacities; positions that
   need grown capacities are skipped and counted), the legal env indices, the target (the
   search's improved policy, :attr:`~agents.guided_search.SearchResult.policy`, on those
   indices: 0 for options it did not consider, summing to 1), the decision kind, the player,
   and the game's result for that player ``z`` (+1 win, -1 loss, 0 draw or turn limit).
   ``data/gen_NNN.npz`` holds them (CSR observations).
2. **Learner.** From the learner's latest weights (``train_from``), ``epochs`` passes of Adam
   over the samples of the last ``replay_generations`` generations: soft cross-entropy between
   the target and the log-softmax of the masked logits, plus ``value_coef`` times the squared
   error of the value against ``z``. A fixed ``holdout`` fraction of the games (chosen per game,
   so a held-out game is never trained on) measures the held-out losses and the top-1 agreement
   of the policy with the target's most likely option. The result is ``gen_NNN.zip``.
3. **Gate.** The new network against the best one on ``gate_games`` seat-swapped paired deals,
   each playing by the argmax of its priors (``gate_agent: policy``) or by its search without
   noise (``search``). It becomes the best (``best.zip``, used by the next self-play) when its
   win rate over decisive games is at least ``gate_threshold``.
4. **Evaluation.** The best network's policy alone (argmax of its priors) against the heuristic
   on ``eval_games`` paired deals over random deck pairings (the same deals every generation, so
   an unchanged best network keeps its result, which is then reused).

Files in ``run_dir``: ``gen_NNN.zip`` (every generation's network, :func:`~agents.checkpoint.
save_net_checkpoint`: ``ppo:PATH``, ``mcts:net=PATH`` and ``init_from`` read them),
``best.zip``, ``exit.csv`` (a row per generation: throughput, losses, agreement, gate and
evaluation with 95% Wilson intervals), ``exit_curve.png``, ``data/gen_NNN.npz`` and
``state.json`` (the config, the last completed generation, the best generation and the history
of best ones). All randomness derives from ``seed`` and the generation, and every network is
read back from its file, so ``--resume`` continues after the last completed generation and
gives the result an uninterrupted run gives (up to float rounding of batched evaluations, which
may differ in the last bits between batch sizes and devices).

Gate and evaluation games are played in the same workers as self-play; unlike
:func:`agents.training.evaluate_paired` (the env, its base capacities), the network evaluates any
position here (grown capacities, :mod:`agents.policy_value`) and the deals are drawn from
``decks``.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import math
import multiprocessing as mp
import os
import random
import shutil
import time
import uuid
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

__all__ = ["EXIT_FIELDS", "ExItConfig", "ExItError", "GameSpec", "Samples", "SeatSpec", "load",
           "load_window", "main", "match_result", "net_key", "paired_specs", "play_games",
           "plot_exit", "run", "run_games", "samples_from_games", "selfplay_specs",
           "train_generation"]

OPPONENTS = ("self", "past", "heuristic")
GATE_AGENTS = ("policy", "search")
BACKENDS = ("process", "ray")
TRAIN_FROM = ("latest", "best")
STATE_FORMAT = 1
_GAME_ID = 1_000_000  # sample game ids: generation * _GAME_ID + game index

# Config keys that change nothing in the results: --resume may change them.
_FREE_KEYS = ("run_dir", "generations", "workers", "backend", "ray_address", "games_at_once",
              "chunk_games", "threads", "device", "play_device", "verbose")

EXIT_FIELDS = (
    "generation", "wall_s", "generation_s", "games", "failed", "positions", "skipped",
    "selfplay_s", "selfplay_positions_per_s", "selfplay_games_per_s", "net_positions",
    "opponent_self", "opponent_past", "opponent_heuristic", "learner_wins", "learner_losses",
    "learner_draws", "window_generations", "train_samples", "holdout_samples", "learner_s",
    "learner_samples_per_s", "policy_loss", "value_loss", "holdout_policy_loss",
    "holdout_value_loss", "agreement", "anchor", "gate_games", "gate_wins", "gate_losses", "gate_draws",
    "gate_rate", "gate_ci_low", "gate_ci_high", "accepted", "best", "gate_s", "eval_games",
    "eval_wins", "eval_losses", "eval_draws", "eval_rate", "eval_ci_low", "eval_ci_high",
    "eval_s")


class ExItError(ValueError):
    """A bad config value or a run directory that doesn't fit (a one-line message)."""


@dataclass
class ExItConfig:
    """Everything an expert-iteration run depends on (saved in ``state.json`` and every
    checkpoint's metadata)."""

    run_dir: str = "results/exit"
    """Where the checkpoints, data, log, curve and state go."""
    seed: int = 0
    """Every deal, seat, opponent draw, search and training order derives from it."""
    decks: tuple[str, ...] = ("all",)
    """The deck pool: built-in deck names or groups (theme, starter, constructed, all)."""
    generations: int = 10
    """Generations to run (with --resume: up to this many in all)."""
    games_per_generation: int = 64
    """Self-play games per generation."""
    workers: int = 2
    """Processes (or Ray tasks at once) playing games; 0 = in this process."""
    backend: str = "process"
    """process (a pool of forked processes) or ray (Ray tasks; a local Ray when none runs)."""
    ray_address: str = ""
    """The Ray cluster to join ("" = the running one, else a new local one)."""
    games_at_once: int = 8
    """Games one worker plays concurrently (their network requests are batched together)."""
    chunk_games: int = 0
    """Games per unit of work (a pool task or a Ray task); 0 = the games split evenly over the
    workers. Changes the scheduling only, never the games."""
    max_turns: int = 60
    """Turn limit of every game (a draw at the limit; z = 0)."""
    # -- the search (self-play, and the gate with gate_agent: search) --------------------------
    iterations: int = 8
    """Sampled worlds per searched decision."""
    turns: int = 2
    """Turn boundaries each heuristic rollout plays before the leaf is scored."""
    width: int = 8
    """Candidates searched per decision (Gumbel top-k)."""
    mix: float = 0.5
    """Leaf score: mix * network value + (1 - mix) * the hand-written evaluation."""
    c_scale: float = 1.0
    """Scale of the completed Q-values in the improved policy."""
    noise: float = 1.0
    """Gumbel noise of the candidate draw in self-play (the gate's search uses 0)."""
    h_prior: float = 0.0
    """The heuristic's choice's share of the search's prior (0: the network's prior alone; the
    agent ``mcts:net=...`` plays with 0.5)."""
    # -- opponents -----------------------------------------------------------------------------
    opponents: dict[str, float] = field(default_factory=lambda: {"self": 0.8, "past": 0.1,
                                                                 "heuristic": 0.1})
    """Probability of the opponent seat being the best network's search (self: both seats
    recorded), a past best network's search (past; self-play until there is one) or the
    heuristic; missing keys are 0; they must sum to 1."""
    init_from: str = "trained"
    """The first network: "trained" (the shipped one) or a checkpoint path."""
    anchor: float = 0.0
    """The heuristic choice's logit bonus (:func:`agents.policy_value.anchored_priors`): 0 = the
    network plays alone (and ``init_from``'s own anchor, if it has one, is kept unlearned); more
    than 0 = the starting anchor when ``init_from`` has none, then learned with the network
    on the samples that name the heuristic's choice, so the network learns where to depart
    from the scripted player."""
    # -- the learner ---------------------------------------------------------------------------
    epochs: int = 2
    """Passes over the window's training samples per generation."""
    batch_size: int = 256
    """Samples per Adam step."""
    lr: float = 3e-4
    """Adam's learning rate."""
    value_coef: float = 0.5
    """Weight of the value's squared error against the policy's cross-entropy."""
    value_target: float = 1.0
    """Weight of the game's result ``z`` in the value target; the rest is the search's own
    value of the position (``2 q - 1``, ``q`` the best candidate's mean leaf score in [0, 1]).
    1: the result alone. Less than 1 lowers the target's variance: every position of a game
    shares one result, and a value trained on a few hundred games learns them by heart."""
    weight_decay: float = 0.0
    """Adam's weight decay."""
    grad_clip: float = 1.0
    """Gradient norm clip (0 = none)."""
    replay_generations: int = 4
    """The learner trains on the samples of this many latest generations."""
    holdout: float = 0.1
    """Fraction of the games held out of training (each game decided once, by its seed)."""
    train_from: str = "latest"
    """The weights each generation's training starts from: latest (the previous generation's
    network, accepted or not, as in AlphaGo Zero's continual training) or best."""
    device: str = "auto"
    """The learner's torch device ("auto": CUDA when present)."""
    play_device: str = "cpu"
    """The device of the networks in the game workers ("auto": CUDA when present)."""
    threads: int = 1
    """Torch threads of this process (learner; games when workers = 0). Workers use 1."""
    # -- the gate ------------------------------------------------------------------------------
    gate_games: int = 40
    """Games of the new network against the best (paired, seat-swapped deals); 0 = always
    accept."""
    gate_threshold: float = 0.5
    """The new network becomes the best when its win rate over decisive games is at least this
    (no decisive game: rejected)."""
    gate_agent: str = "policy"
    """How the two networks play the gate: policy (argmax of the priors) or search (noise 0)."""
    # -- the evaluation ------------------------------------------------------------------------
    eval_games: int = 40
    """Games of the best network's policy against the heuristic per generation (paired deals);
    0 = none."""
    eval_seed: int = 1_000_003
    """Seed of the evaluation deals (the same every generation)."""
    verbose: bool = True
    """Print a line per stage."""

    def pool(self) -> tuple[str, ...]:
        """The deck names games are drawn from (groups expanded)."""
        from mtg_env.engine.deck import expand_deck_groups

        return tuple(expand_deck_groups(list(self.decks)))

    def search_kwargs(self, noise: float) -> dict[str, Any]:
        """The keyword arguments of the search's :class:`~agents.mcts.MctsAgent`."""
        return {"iterations": self.iterations, "turns": self.turns, "width": self.width,
                "mix": self.mix, "c_scale": self.c_scale, "noise": noise, "h_prior": self.h_prior}

    def validate(self) -> None:
        """Raise :class:`ExItError` naming the first bad value."""
        from mtg_env.engine.deck import DECK_GROUPS, builtin_names

        def need(ok: bool, msg: str) -> None:
            if not ok:
                raise ExItError(msg)

        for key in ("generations", "games_per_generation", "games_at_once", "max_turns",
                    "iterations", "width", "epochs", "batch_size", "replay_generations",
                    "threads"):
            need(getattr(self, key) >= 1, f"{key} must be at least 1, got {getattr(self, key)!r}")
        need(self.games_per_generation < _GAME_ID,
             f"games_per_generation must be below {_GAME_ID}, got {self.games_per_generation}")
        for key in ("workers", "chunk_games", "turns", "gate_games", "eval_games"):
            need(getattr(self, key) >= 0, f"{key} must be at least 0, got {getattr(self, key)!r}")
        for key in ("c_scale", "noise", "value_coef", "weight_decay", "grad_clip", "anchor"):
            need(getattr(self, key) >= 0, f"{key} must be >= 0, got {getattr(self, key)!r}")
        need(0.0 <= self.mix <= 1.0, f"mix must be between 0 and 1, got {self.mix!r}")
        need(self.lr > 0, f"lr must be > 0, got {self.lr!r}")
        need(0.0 <= self.holdout < 1.0, f"holdout must be in [0, 1), got {self.holdout!r}")
        need(0.0 <= self.gate_threshold <= 1.0,
             f"gate_threshold must be between 0 and 1, got {self.gate_threshold!r}")
        for key, allowed in (("backend", BACKENDS), ("gate_agent", GATE_AGENTS),
                             ("train_from", TRAIN_FROM)):
            need(getattr(self, key) in allowed,
                 f"{key} must be one of {', '.join(allowed)}, got {getattr(self, key)!r}")
        for key in ("device", "play_device"):
            dev = getattr(self, key)
            need(dev in ("auto", "cpu") or dev.split(":")[0] in ("cuda", "mps"),
                 f"{key} must be auto, cpu or cuda[:N], got {dev!r}")
        need(bool(self.decks), "decks must name at least one deck")
        names = set(builtin_names())
        for name in self.pool():
            need(name in names, f"unknown deck {name!r} in decks; built-in decks: "
                 f"{', '.join(sorted(names))}; groups: {', '.join([*DECK_GROUPS, 'all'])}")
        for key, p in self.opponents.items():
            need(key in OPPONENTS, f"unknown opponent {key!r} in opponents; one of "
                 f"{', '.join(OPPONENTS)}")
            need(isinstance(p, int | float) and not isinstance(p, bool) and p >= 0,
                 f"opponents[{key}] must be a probability >= 0, got {p!r}")
        total = sum(float(p) for p in self.opponents.values())
        need(abs(total - 1.0) < 1e-6, f"opponents' probabilities must sum to 1, got {total:g} "
             f"({self.opponents})")
        if self.init_from != "trained":
            need(Path(self.init_from).expanduser().is_file(),
                 f"init_from: no checkpoint file at {self.init_from!r}")


# -- games ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat: ``kind`` search (a network's search), policy (a network's priors,
    argmax) or heuristic; ``net`` the network's key; ``record``: its searched decisions are
    samples; ``seed`` of the agent."""

    kind: str
    net: str = ""
    record: bool = False
    seed: int = 0


@dataclass(frozen=True)
class GameSpec:
    """One game: its index in its stage, decks (seat 0, seat 1), engine seed and seats;
    ``opponent`` and ``learner`` say what a self-play game was drawn as (``learner`` -1 when the
    game is not self-play)."""

    index: int
    decks: tuple[str, str]
    seed: int
    seats: tuple[SeatSpec, SeatSpec]
    opponent: str = ""
    learner: int = -1


def net_key(generation: int) -> str:
    """The key (and file stem) of a generation's network."""
    return f"gen_{generation:03d}"


def selfplay_specs(cfg: ExItConfig, generation: int, best: int,
                   past: Sequence[int]) -> list[GameSpec]:
    """The self-play games of ``generation``: the best network (generation ``best``) searches
    for the learner's seat; ``past``: the earlier best generations a ``past`` opponent is drawn
    from (self-play when empty)."""
    from mtg_env.sim.runner import derive_seed

    pool = cfg.pool()
    names = [k for k in OPPONENTS if cfg.opponents.get(k, 0.0) > 0]
    cum = np.cumsum([float(cfg.opponents[k]) for k in names])
    specs = []
    for i in range(cfg.games_per_generation):
        rng = random.Random(derive_seed(cfg.seed, "exit-game", generation, i))
        decks = (pool[rng.randrange(len(pool))], pool[rng.randrange(len(pool))])
        learner = rng.randrange(2)
        u = rng.random() * cum[-1]
        opponent = names[min(int(np.searchsorted(cum, u, side="right")), len(names) - 1)]
        pick = rng.randrange(len(past)) if past else 0
        if opponent == "past" and not past:
            opponent = "self"
        seeds = [derive_seed(cfg.seed, "exit-agent", generation, i, s) for s in (0, 1)]
        me = SeatSpec("search", net_key(best), True, seeds[learner])
        if opponent == "self":
            other = SeatSpec("search", net_key(best), True, seeds[1 - learner])
        elif opponent == "past":
            other = SeatSpec("search", net_key(past[pick]), False, seeds[1 - learner])
        else:
            other = SeatSpec("heuristic", "", False, seeds[1 - learner])
        seats = (me, other) if learner == 0 else (other, me)
        specs.append(GameSpec(i, decks, derive_seed(cfg.seed, "exit-engine", generation, i),
                              seats, opponent, learner))
    return specs


def paired_specs(cfg: ExItConfig, games: int, seed: Any, first: SeatSpec,
                 second: SeatSpec) -> list[GameSpec]:
    """``games`` (rounded up to even) games on ``ceil(games / 2)`` deals (random decks from the
    pool and an engine seed, derived from ``seed``), each dealt twice with the seats swapped:
    game ``2k`` has ``first`` in seat 0, game ``2k + 1`` in seat 1. ``first`` is the side whose
    results count (see :func:`match_result`)."""
    from mtg_env.sim.runner import derive_seed

    pool = cfg.pool()
    specs = []
    for k in range(math.ceil(games / 2)):
        rng = random.Random(derive_seed(seed, "exit-deal", k))
        decks = (pool[rng.randrange(len(pool))], pool[rng.randrange(len(pool))])
        engine = derive_seed(seed, "exit-deal-engine", k)
        for swap in (0, 1):
            a = dataclasses.replace(first, seed=derive_seed(seed, "exit-deal-agent", k, swap, 0))
            b = dataclasses.replace(second, seed=derive_seed(seed, "exit-deal-agent", k, swap, 1))
            specs.append(GameSpec(2 * k + swap, decks, engine, (a, b) if swap == 0 else (b, a)))
    return specs


def _policy_steps(game: Any, seat: int, anchor: float = 0.0) -> Generator[list, list, Any]:
    """A network playing alone: the legal option it gives the largest prior (first of equals);
    ``anchor``: the network's bonus for the heuristic's choice."""
    from .policy_value import anchored_priors, heuristic_choice

    options = game.decision.options
    if len(options) == 1:
        return options[0]
    (ev,) = yield [(game, seat)]
    priors = ev.priors
    if anchor:
        priors = anchored_priors(priors, heuristic_choice(game.view(seat)).text, anchor)
    return max(options, key=lambda o: priors.get(o.text, -1.0))


class _Playing:
    """One game the driver is playing: its agents, the deciding seat's pending generator and the
    samples recorded so far."""

    def __init__(self, spec: GameSpec, nets: Mapping[str, Any], search: Mapping[str, Any],
                 max_turns: int) -> None:
        from mtg_env.engine.game import Game
        from mtg_env.env.config import load_deck
        from mtg_env.sim.runner import MAX_DECISIONS

        from .heuristic import HeuristicAgent
        from .imitation_data import KINDS
        from .mcts import MctsAgent

        self.spec = spec
        self.nets = nets
        self.kinds = {k: i for i, k in enumerate(KINDS)}
        self.game = Game.new([load_deck(d) for d in spec.decks], seed=spec.seed,
                             skip_trivial=True, max_turns=max_turns, max_decisions=MAX_DECISIONS)
        self.agents: list[Any] = []
        for seat, s in enumerate(spec.seats):
            if s.kind == "heuristic":
                agent: Any = HeuristicAgent()
            elif s.kind == "search":
                agent = MctsAgent(net=nets[s.net], **search)
            elif s.kind == "policy":
                agent = None
            else:
                raise ValueError(f"unknown seat kind {s.kind!r}")
            if agent is not None:
                agent.reset(seat, s.seed)
            self.agents.append(agent)
        self.steps: Generator | None = None
        self.seat = -1
        self.request: list = []
        self.net = ""
        self.samples: list[tuple] = []  # (cols, vals, legal, target, kind, player, q, heuristic)
        self.skipped = 0
        self.searched = 0

    def advance(self, answer: list | None = None) -> bool:
        """Play on (sending ``answer`` to the pending search first) until a network evaluation is
        needed (True: ``request`` and ``net`` say which) or the game is over (False)."""
        game = self.game
        while True:
            if self.steps is not None:
                try:
                    self.request = self.steps.send(answer)
                    return True
                except StopIteration as stop:
                    self.steps = None
                    self._decided(stop.value)
                answer = None
            if game.is_over:
                return False
            seat = game.decision.player
            s = self.spec.seats[seat]
            if s.kind == "heuristic":
                game.apply(self.agents[seat].act(game.view(seat)))
                continue
            self.seat, self.net = seat, s.net
            self.steps = (self.agents[seat].act_steps(game.view(seat)) if s.kind == "search"
                          else _policy_steps(game, seat, self.nets[s.net].anchor))

    def _decided(self, action: Any) -> None:
        seat = self.seat
        s = self.spec.seats[seat]
        result = self.agents[seat].last_search if s.kind == "search" else None
        if result is not None:
            self.searched += 1
            if s.record:
                self._record(seat, result.policy, max(result.q.values(), default=0.5),
                             result.default)
        self.game.apply(action)

    def _record(self, seat: int, policy: Mapping[str, float], q: float, default: str) -> None:
        tier, obs, legal = self.nets[self.net].encode(self.game, seat)
        if tier != 0:  # needs grown capacities: the learner's network has the base ones
            self.skipped += 1
            return
        idx = np.fromiter(sorted(legal), np.int32, len(legal))
        texts = [legal[int(i)].text for i in idx]
        count = collections.Counter(texts)
        target = np.array([policy.get(t, 0.0) / count[t] for t in texts], np.float64)
        total = target.sum()
        if not total > 0:
            self.skipped += 1
            return
        cols = np.flatnonzero(obs).astype(np.int32)
        heuristic = next((int(i) for i, t in zip(idx, texts, strict=True) if t == default), -1)
        self.samples.append((cols, obs[cols].astype(np.float32), idx,
                             (target / total).astype(np.float32),
                             self.kinds[self.game.decision.kind.value], seat, q, heuristic))

    def result(self, error: str | None = None) -> dict[str, Any]:
        game = self.game
        winner = -1 if error or game.winner is None else int(game.winner)
        return {"index": self.spec.index, "decks": self.spec.decks, "opponent": self.spec.opponent,
                "learner": self.spec.learner, "winner": winner, "turns": int(game.turn),
                "error": error, "samples": [] if error else self.samples,
                "skipped": self.skipped, "searched": self.searched}


def play_games(specs: Sequence[GameSpec], nets: Mapping[str, Any], games_at_once: int,
               search: Mapping[str, Any], max_turns: int) -> list[dict[str, Any]]:
    """Play ``specs`` in this process, ``games_at_once`` at a time (a new game starts as one
    ends), the pending requests of all games waiting on the same network evaluated in one
    :meth:`~agents.policy_value.PolicyValueNet.evaluate` call per network and step. ``nets``:
    key -> :class:`~agents.policy_value.PolicyValueNet`; ``search``: the searches' settings.
    Returns a result per game (sorted by index): winner (-1 none), turns, recorded samples,
    skipped positions, searched decisions, and ``error`` for a game the engine or the encoder
    failed on (its samples dropped)."""
    queue = collections.deque(specs)
    running: list[_Playing] = []
    done: list[dict[str, Any]] = []

    def step(g: _Playing, answer: list | None) -> None:
        try:
            if g.advance(answer):
                running.append(g)
            else:
                done.append(g.result())
        except Exception as exc:  # an engine or encoder failure: the game is left out
            done.append(g.result(f"{type(exc).__name__}: {exc}"))

    while queue or running:
        while queue and len(running) < games_at_once:
            spec = queue.popleft()
            try:
                g = _Playing(spec, nets, search, max_turns)
            except Exception as exc:
                done.append({"index": spec.index, "decks": spec.decks, "opponent": spec.opponent,
                             "learner": spec.learner, "winner": -1, "turns": 0, "samples": [],
                             "skipped": 0, "searched": 0,
                             "error": f"{type(exc).__name__}: {exc}"})
                continue
            step(g, None)
        waiting, running = running, []
        by_net: dict[str, list[_Playing]] = {}
        for g in waiting:
            by_net.setdefault(g.net, []).append(g)
        for key, games in by_net.items():
            try:
                evals = nets[key].evaluate([p for g in games for p in g.request])
            except Exception:  # find the game at fault: evaluate each alone
                for g in games:
                    try:
                        answer = nets[key].evaluate(g.request)
                    except Exception as exc:
                        done.append(g.result(f"{type(exc).__name__}: {exc}"))
                        continue
                    step(g, answer)
                continue
            at = 0
            for g in games:
                n = len(g.request)
                step(g, evals[at:at + n])
                at += n
    done.sort(key=lambda r: r["index"])
    return done


# -- running games on workers --------------------------------------------------------------

_WORKER: dict[str, Any] = {"token": None, "nets": {}}


def _worker_nets(token: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The networks of a stage in this process, built once per stage (``token``)."""
    if _WORKER["token"] != token:
        from .policy_value import PolicyValueNet

        _WORKER["nets"] = {k: PolicyValueNet.from_state(sd, payload["capacities"],
                                                        payload["net_kwargs"],
                                                        device=payload["device"])
                           for k, sd in payload["states"].items()}
        _WORKER["token"] = token
    return _WORKER["nets"]


def _play_chunk(token: str, payload: Mapping[str, Any], specs: Sequence[GameSpec],
                settings: Mapping[str, Any]) -> dict[str, Any]:
    """A unit of work: play ``specs`` with the stage's networks; the results and the count of
    positions the networks evaluated."""
    import torch

    torch.set_num_threads(settings["threads"])
    nets = _worker_nets(token, payload)
    before = sum(n.positions for n in nets.values())
    results = play_games(specs, nets, settings["games_at_once"], settings["search"],
                         settings["max_turns"])
    return {"results": results, "net_positions": sum(n.positions for n in nets.values()) - before}


_POOL_STAGE: dict[str, Any] = {}


def _pool_init(token: str, payload: Mapping[str, Any]) -> None:
    _POOL_STAGE["token"] = token
    _POOL_STAGE["payload"] = payload


def _pool_chunk(job: tuple[list[GameSpec], dict[str, Any]]) -> dict[str, Any]:
    return _play_chunk(_POOL_STAGE["token"], _POOL_STAGE["payload"], *job)


def _chunks(specs: Sequence[GameSpec], workers: int, chunk_games: int) -> list[list[GameSpec]]:
    size = chunk_games or math.ceil(len(specs) / max(workers, 1))
    return [list(specs[i:i + size]) for i in range(0, len(specs), max(size, 1))]


def run_games(cfg: ExItConfig, specs: Sequence[GameSpec], states: Mapping[str, Any],
              net_kwargs: Mapping[str, int], capacities: Mapping[str, int],
              search: Mapping[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """Play ``specs`` (:func:`play_games`) with the networks of ``states`` (key -> state dict) on
    ``cfg``'s workers and backend: the same chunks and seeds everywhere, so the results (sorted
    by game index) do not depend on where they ran. Returns them and the positions the
    networks evaluated."""
    from .policy_value import resolve_device

    device = resolve_device(cfg.play_device)
    payload = {"states": {k: {n: t.detach().cpu() for n, t in sd.items()}
                          for k, sd in states.items()},
               "net_kwargs": dict(net_kwargs), "capacities": dict(capacities), "device": device}
    token = uuid.uuid4().hex
    chunks = _chunks(specs, cfg.workers, cfg.chunk_games)
    here = cfg.backend != "ray" and (cfg.workers == 0 or (cfg.workers == 1 and len(chunks) <= 1))
    settings = {"games_at_once": cfg.games_at_once, "search": dict(search),
                "max_turns": cfg.max_turns, "threads": cfg.threads if here else 1}
    if cfg.backend == "ray":
        outs = _run_ray(cfg, token, payload, chunks, settings)
    elif here:  # in this process
        outs = [_play_chunk(token, payload, c, settings) for c in chunks]
        _WORKER.update(token=None, nets={})
    else:
        from mtg_env.env.config import load_deck

        for name in cfg.pool():  # loaded once here: forked workers inherit the card database
            load_deck(name)
        method = "fork" if device == "cpu" and os.name == "posix" else "spawn"
        with mp.get_context(method).Pool(min(cfg.workers, len(chunks)), initializer=_pool_init,
                                         initargs=(token, payload)) as pool:
            outs = pool.map(_pool_chunk, [(c, settings) for c in chunks], chunksize=1)
    results = sorted((r for o in outs for r in o["results"]), key=lambda r: r["index"])
    return results, sum(o["net_positions"] for o in outs)


def _ray_chunk(token: str, payload: Mapping[str, Any], specs: Sequence[GameSpec],
               settings: Mapping[str, Any]) -> dict[str, Any]:
    return _play_chunk(token, payload, specs, settings)


_RAY = {"started": False}


def _run_ray(cfg: ExItConfig, token: str, payload: Mapping[str, Any],
             chunks: Sequence[list[GameSpec]], settings: Mapping[str, Any]) -> list[dict[str, Any]]:
    try:
        import ray
    except ImportError:
        raise ExItError("backend ray needs Ray: pip install 'mtg_env[ray]'") from None
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "ignore_reinit_error": True,
                                  "log_to_driver": False}
        if cfg.ray_address:
            kwargs["address"] = cfg.ray_address
        elif cfg.workers:
            kwargs["num_cpus"] = cfg.workers
        ray.init(**kwargs)
        _RAY["started"] = True
    # a task without GPUs sees none (Ray hides them): the workers share the GPU when asked to
    gpus = 1.0 / max(cfg.workers, 1) if str(payload["device"]).startswith("cuda") else 0
    remote = ray.remote(num_cpus=1, num_gpus=gpus)(_ray_chunk)
    ref = ray.put(dict(payload))
    return ray.get([remote.remote(token, ref, c, dict(settings)) for c in chunks])


# -- samples -------------------------------------------------------------------------------

_SAMPLE_KEYS = ("indptr", "idx", "val", "legal_ptr", "legal", "target", "z", "kind", "player",
                "game", "q", "heuristic")


@dataclass
class Samples:
    """Training samples: CSR observations (``indptr``, ``idx``, ``val``), CSR legal indices
    with their target probabilities (``legal_ptr``, ``legal``, ``target``), and per sample the
    result ``z`` for its player, the decision ``kind`` (index into
    :data:`agents.imitation_data.KINDS`), the ``player``, the ``game`` id (generation *
    1,000,000 + game index), the search's value ``q`` and the action index of the heuristic's
    choice (``heuristic``; -1 when it is unknown)."""

    indptr: np.ndarray
    idx: np.ndarray
    val: np.ndarray
    legal_ptr: np.ndarray
    legal: np.ndarray
    target: np.ndarray
    z: np.ndarray
    kind: np.ndarray
    player: np.ndarray
    game: np.ndarray
    q: np.ndarray
    heuristic: np.ndarray

    def __len__(self) -> int:
        return len(self.z)

    def arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in _SAMPLE_KEYS}

    def batch(self, rows: np.ndarray, obs_size: int, action_size: int, value_target: float = 1.0
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Dense ``(observations, legal mask, target, value target)`` of the samples ``rows``:
        the value target is ``value_target * z + (1 - value_target) * (2 q - 1)``."""
        obs = np.zeros((len(rows), obs_size), np.float32)
        r, c = csr_cells(self.indptr, rows)
        obs[r, self.idx[c]] = self.val[c]
        mask = np.zeros((len(rows), action_size), np.bool_)
        target = np.zeros((len(rows), action_size), np.float32)
        r, c = csr_cells(self.legal_ptr, rows)
        mask[r, self.legal[c]] = True
        target[r, self.legal[c]] = self.target[c]
        z = self.z[rows].astype(np.float32)
        if value_target < 1.0:
            z = value_target * z + (1.0 - value_target) * (2.0 * self.q[rows] - 1.0)
        return obs, mask, target, z


def csr_cells(ptr: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For CSR rows ``rows``: the batch row of each stored cell and the cell's position."""
    starts, ends = ptr[rows], ptr[rows + 1]
    lens = ends - starts
    batch_row = np.repeat(np.arange(len(rows)), lens)
    offsets = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    return batch_row, np.repeat(starts, lens) + offsets


def samples_from_games(results: Sequence[dict[str, Any]], generation: int) -> dict[str, np.ndarray]:
    """The arrays of ``data/gen_NNN.npz`` from a generation's game results: the samples
    (:class:`Samples`) and per game its index, opponent (an index into ``OPPONENTS``), learner
    seat, winner (-1 none), turns and whether it failed."""
    parts: dict[str, list] = {k: [] for k in ("idx", "val", "legal", "target", "z", "kind",
                                             "player", "game", "q", "heuristic")}
    nnz, n_legal = [0], [0]
    for r in results:
        w = r["winner"]
        for cols, vals, legal, target, kind, player, q, heuristic in r["samples"]:
            parts["idx"].append(cols)
            parts["val"].append(vals)
            parts["legal"].append(legal)
            parts["target"].append(target)
            nnz.append(nnz[-1] + len(cols))
            n_legal.append(n_legal[-1] + len(legal))
            parts["z"].append(0 if w < 0 else 1 if w == player else -1)
            parts["kind"].append(kind)
            parts["player"].append(player)
            parts["game"].append(generation * _GAME_ID + r["index"])
            parts["q"].append(q)
            parts["heuristic"].append(heuristic)

    def cat(k: str, dtype: Any) -> np.ndarray:
        return np.concatenate(parts[k]).astype(dtype) if parts[k] else np.zeros(0, dtype)

    return {"indptr": np.asarray(nnz, np.int64), "idx": cat("idx", np.int32),
            "val": cat("val", np.float32), "legal_ptr": np.asarray(n_legal, np.int64),
            "legal": cat("legal", np.int32), "target": cat("target", np.float32),
            "z": np.asarray(parts["z"], np.int8), "kind": np.asarray(parts["kind"], np.int8),
            "player": np.asarray(parts["player"], np.int8),
            "game": np.asarray(parts["game"], np.int64),
            "q": np.asarray(parts["q"], np.float32),
            "heuristic": np.asarray(parts["heuristic"], np.int32),
            "game_index": np.asarray([r["index"] for r in results], np.int32),
            "game_opponent": np.asarray([OPPONENTS.index(r["opponent"]) if r["opponent"] else -1
                                         for r in results], np.int8),
            "game_learner": np.asarray([r["learner"] for r in results], np.int8),
            "game_winner": np.asarray([r["winner"] for r in results], np.int8),
            "game_turns": np.asarray([r["turns"] for r in results], np.int32),
            "game_failed": np.asarray([bool(r["error"]) for r in results], np.bool_)}


def load_window(data_dir: str | Path, generations: Sequence[int]) -> Samples:
    """The samples of ``data_dir/gen_NNN.npz`` for ``generations``, as one :class:`Samples`."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in _SAMPLE_KEYS}
    nnz = n_legal = 0
    for g in generations:
        with np.load(Path(data_dir) / f"{net_key(g)}.npz") as z:
            a = {k: z[k] for k in _SAMPLE_KEYS if k in z.files}
        if "q" not in a:  # data written before the search's value was kept: the result stands in
            a["q"] = (a["z"].astype(np.float32) + 1.0) / 2.0
        if "heuristic" not in a:  # data written before the heuristic's choice was kept
            a["heuristic"] = np.full(len(a["z"]), -1, np.int32)
        parts["indptr"].append(a["indptr"][1:] + nnz)
        parts["legal_ptr"].append(a["legal_ptr"][1:] + n_legal)
        nnz += len(a["idx"])
        n_legal += len(a["legal"])
        for k in _SAMPLE_KEYS:
            if k not in ("indptr", "legal_ptr"):
                parts[k].append(a[k])
    out = {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}
    out["indptr"] = np.concatenate([np.zeros(1, np.int64), out["indptr"]]).astype(np.int64)
    out["legal_ptr"] = np.concatenate([np.zeros(1, np.int64), out["legal_ptr"]]).astype(np.int64)
    for k, dt in (("idx", np.int32), ("legal", np.int32), ("game", np.int64),
                  ("heuristic", np.int32)):
        out[k] = out[k].astype(dt)
    return Samples(**out)


def _save_npz(path: Path, arrays: Mapping[str, np.ndarray]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def held_out_games(game: np.ndarray, seed: int, tag: str, fraction: float) -> np.ndarray:
    """Whether each sample's game (``game``: its id) is held out: decided by the seed, the
    run's ``tag`` and the game alone, so every sample of a game falls on the same side, and
    the same game on the same side in every generation."""
    from mtg_env.sim.runner import derive_seed

    ids = np.unique(game)
    out = {int(g): derive_seed(seed, tag, int(g)) % 1_000_000 < fraction * 1_000_000 for g in ids}
    return np.fromiter((out[int(g)] for g in game), np.bool_, len(game))


def _held_out(cfg: ExItConfig, game: np.ndarray) -> np.ndarray:
    return held_out_games(game, cfg.seed, "exit-holdout", cfg.holdout)


# -- the learner ---------------------------------------------------------------------------

def train_generation(cfg: ExItConfig, state: Mapping[str, Any], net_kwargs: Mapping[str, int],
                     capacities: Mapping[str, int], data: Samples,
                     generation: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """``epochs`` passes of Adam from the weights ``state`` over ``data``'s training samples;
    the new weights (CPU tensors) and the metrics (losses, held-out losses and agreement,
    samples per second)."""
    import torch as th

    from mtg_env.encoding import Capacities
    from mtg_env.sim.runner import derive_seed

    from .policy_net import MtgNet
    from .policy_value import resolve_device

    device = resolve_device(cfg.device)
    th.manual_seed(derive_seed(cfg.seed, "exit-torch", generation) % 2**63)
    net = MtgNet(Capacities(**dict(capacities)), **dict(net_kwargs))
    net.load_state_dict(dict(state))
    net.to(device)
    # The heuristic choice's bonus: learned beside the weights when the run is anchored, else
    # kept as the network has it (0 for a network that plays alone).
    anchor = th.nn.Parameter(net.heuristic_anchor.detach().clone(), requires_grad=cfg.anchor > 0)
    held = _held_out(cfg, data.game) if len(data) else np.zeros(0, np.bool_)
    train_rows, hold_rows = np.flatnonzero(~held), np.flatnonzero(held)
    metrics: dict[str, Any] = {"train_samples": len(train_rows), "holdout_samples": len(hold_rows)}
    sizes = (net.obs_size, net.n_actions)

    def losses(rows: np.ndarray) -> tuple[Any, Any, Any]:
        obs, mask, target, z = data.batch(rows, *sizes, cfg.value_target)
        logits, value = net(th.from_numpy(obs).to(device))
        if cfg.anchor > 0 or float(anchor.detach()) != 0.0:
            h = data.heuristic[rows]
            known = np.flatnonzero(h >= 0)
            bonus = th.zeros_like(logits)
            bonus[th.from_numpy(known).to(device), th.from_numpy(h[known].astype(np.int64)).to(device)] = 1.0
            logits = logits + anchor * bonus
        logits = logits.masked_fill(~th.from_numpy(mask).to(device), -1e8)
        logp = th.log_softmax(logits, -1)
        tgt = th.from_numpy(target).to(device)
        pl = -(tgt * logp).sum(-1)
        vl = (value - th.from_numpy(z).to(device)) ** 2
        agree = logits.argmax(-1) == tgt.argmax(-1)
        return pl, vl, agree

    t0 = time.perf_counter()
    if len(train_rows):
        params = [*net.parameters(), *([anchor] if anchor.requires_grad else [])]
        opt = th.optim.Adam(params, lr=cfg.lr, weight_decay=cfg.weight_decay)
        rng = np.random.default_rng(derive_seed(cfg.seed, "exit-order", generation))
        pl_sum = vl_sum = 0.0
        seen = 0
        net.train()
        for _ in range(cfg.epochs):
            order = rng.permutation(train_rows)
            pl_sum = vl_sum = 0.0  # the last epoch's means are reported
            seen = 0
            for a in range(0, len(order), cfg.batch_size):
                rows = order[a:a + cfg.batch_size]
                pl, vl, _ = losses(rows)
                loss = pl.mean() + cfg.value_coef * vl.mean()
                opt.zero_grad()
                loss.backward()
                if cfg.grad_clip > 0:
                    th.nn.utils.clip_grad_norm_(params, cfg.grad_clip)
                opt.step()
                pl_sum += float(pl.detach().sum())
                vl_sum += float(vl.detach().sum())
                seen += len(rows)
        dt = time.perf_counter() - t0
        metrics.update(policy_loss=pl_sum / seen, value_loss=vl_sum / seen, learner_s=dt,
                       learner_samples_per_s=cfg.epochs * len(train_rows) / max(dt, 1e-9))
    with th.no_grad():
        net.heuristic_anchor.copy_(anchor.detach())
    metrics["anchor"] = float(anchor.detach())
    net.eval()
    if len(hold_rows):
        pls, vls, agrees = [], [], []
        with th.no_grad():
            for a in range(0, len(hold_rows), 512):
                pl, vl, ag = losses(hold_rows[a:a + 512])
                pls.append(pl.cpu().numpy())
                vls.append(vl.cpu().numpy())
                agrees.append(ag.cpu().numpy())
        metrics.update(holdout_policy_loss=float(np.concatenate(pls).mean()),
                       holdout_value_loss=float(np.concatenate(vls).mean()),
                       agreement=float(np.concatenate(agrees).mean()))
    return {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}, metrics


# -- gate and evaluation -------------------------------------------------------------------

def match_result(results: Sequence[dict[str, Any]], side: Callable[[dict[str, Any]], int]
                 ) -> dict[str, Any]:
    """Wins, losses and draws of the side playing seat ``side(result)`` of each game (failed
    games left out), the win rate over decisive games and its 95% Wilson interval."""
    from mtg_env.sim.stats import wilson_interval

    wins = losses = draws = failed = 0
    for r in results:
        if r["error"]:
            failed += 1
        elif r["winner"] < 0:
            draws += 1
        elif r["winner"] == side(r):
            wins += 1
        else:
            losses += 1
    n = wins + losses
    lo, hi = wilson_interval(wins, n)
    return {"games": wins + losses + draws, "wins": wins, "losses": losses, "draws": draws,
            "failed": failed, "rate": wins / n if n else math.nan, "ci_low": lo, "ci_high": hi}


def _first_seat(r: dict[str, Any]) -> int:
    """The seat of ``first`` in a :func:`paired_specs` game."""
    return r["index"] % 2


# -- files ---------------------------------------------------------------------------------

def plot_exit(csv_path: str | Path, out_png: str | Path) -> Path | None:
    """The evaluation against the heuristic and the gate's win rate per generation (95% Wilson
    bands; a gate marker filled when the network was accepted) as a PNG; None with no rows."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from .training import CsvLog, save_win_rate_figure

    rows = CsvLog(csv_path, EXIT_FIELDS).rows()
    if not rows:
        return None

    def col(name: str) -> np.ndarray:
        return np.array([float(r[name]) if r.get(name) not in (None, "") else math.nan
                         for r in rows])

    x = col("generation")
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label in (("eval", "best policy vs heuristic"), ("gate", "new vs best (gate)")):
        rate = col(f"{key}_rate")
        if np.all(np.isnan(rate)):
            continue
        line, = ax.plot(x, rate, marker="o" if key == "eval" else "s", label=label,
                        markerfacecolor=None if key == "eval" else "none")
        ax.fill_between(x, col(f"{key}_ci_low"), col(f"{key}_ci_high"), color=line.get_color(),
                        alpha=0.15)
        if key == "gate":
            acc = np.array([r.get("accepted") in ("True", "1", "true") for r in rows])
            ax.plot(x[acc], rate[acc], "s", color=line.get_color(), label="accepted")
    if not ax.get_legend_handles_labels()[0]:
        ax.plot([], [], label="no gate or evaluation games")
    ax.set_xlabel("generation")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return save_win_rate_figure(fig, [ax], "Expert iteration: win rates over decisive games, "
                                "95% Wilson intervals", out_png)


def _write_json(path: Path, obj: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(obj, indent=2, default=_json_default))
    tmp.replace(path)


def _json_default(o: Any) -> Any:
    if isinstance(o, tuple | set):
        return list(o)
    if hasattr(o, "item"):
        return o.item()
    raise TypeError(f"{o!r} is not JSON-serialisable")


def _copy(src: Path, dst: Path) -> None:
    tmp = dst.with_name(f".{dst.name}.tmp")
    shutil.copyfile(src, tmp)
    tmp.replace(dst)


def _trim_csv(path: Path, generation: int) -> None:
    """Drop the rows after ``generation`` (an interrupted generation's) from the log."""
    import csv

    if not path.is_file():
        return
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return
    keep = [rows[0]] + [r for r in rows[1:] if r and int(r[0]) <= generation]
    if len(keep) != len(rows):
        with path.open("w", newline="") as f:
            csv.writer(f).writerows(keep)


def _comparable(config: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in json.loads(json.dumps(dict(config), default=_json_default)).items()
            if k not in _FREE_KEYS}


# -- the run -------------------------------------------------------------------------------

class _Nets:
    """The networks of the run's generations, read back from their files (kept in memory)."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.states: dict[int, dict[str, Any]] = {}

    def path(self, generation: int) -> Path:
        return self.run_dir / f"{net_key(generation)}.zip"

    def state(self, generation: int) -> dict[str, Any]:
        if generation not in self.states:
            from .policy_value import PolicyValueNet

            pv = PolicyValueNet.load(self.path(generation), device="cpu")
            self.states[generation] = {k: v.detach().cpu().clone()
                                       for k, v in pv.net.state_dict().items()}
        return self.states[generation]

    def save(self, generation: int, state: Mapping[str, Any], info: Mapping[str, Any],
             cfg: ExItConfig, extra: Mapping[str, Any]) -> Path:
        from .checkpoint import save_net_checkpoint

        path = save_net_checkpoint(state, self.path(generation), net=info["net_kwargs"],
                                   capacities=info["capacities"], max_turns=cfg.max_turns,
                                   seed=cfg.seed, opponent="expert_iteration",
                                   extra={"expert_iteration": {
                                       "generation": generation,
                                       "config": dataclasses.asdict(cfg), **extra}})
        self.states.pop(generation, None)
        return path


def _say(cfg: ExItConfig, msg: str) -> None:
    if cfg.verbose:
        print(msg, flush=True)


def run(cfg: ExItConfig, resume: bool = False) -> dict[str, Any]:
    """Run (or with ``resume`` continue) the expert iteration of ``cfg`` up to
    ``cfg.generations`` generations (see the module docstring); returns the final state
    (``generation``, ``best``, ``bests``, ``rows``: the CSV rows of this call)."""
    import torch

    from .training import CsvLog

    cfg.validate()
    run_dir = Path(cfg.run_dir)
    state_path = run_dir / "state.json"
    nets = _Nets(run_dir)
    torch.set_num_threads(cfg.threads)
    config = json.loads(json.dumps(dataclasses.asdict(cfg), default=_json_default))
    if state_path.is_file():
        if not resume:
            raise ExItError(f"{str(run_dir)!r} already holds a run (state.json): pass --resume "
                            "to continue it, or choose another run_dir")
        state = json.loads(state_path.read_text())
        old, new = _comparable(state["config"]), _comparable(config)
        diff = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
        if diff:
            raise ExItError(f"--resume: the config differs from the run's in {', '.join(diff)} "
                            f"(run: {', '.join(f'{k}={old.get(k)!r}' for k in diff)}); only "
                            f"{', '.join(_FREE_KEYS)} may change")
        state["config"] = config
        if not nets.path(state["best"]).is_file():
            raise ExItError(f"--resume: {nets.path(state['best'])} is missing")
        # an interrupted generation may have replaced best.zip before state.json said so
        _copy(nets.path(state["best"]), run_dir / "best.zip")
        _say(cfg, f"resuming {run_dir} after generation {state['generation']} "
                  f"(best: generation {state['best']})")
    else:
        from .checkpoint import CheckpointError
        from .policy_value import PolicyValueNet

        if resume:
            _say(cfg, f"no run to resume in {run_dir} (no state.json): starting one")
        run_dir.mkdir(parents=True, exist_ok=True)
        try:
            pv = PolicyValueNet.load(cfg.init_from, device="cpu")
        except CheckpointError as exc:
            raise ExItError(f"init_from: {exc}") from None
        info = {"net_kwargs": dict(pv.net_kwargs), "capacities": dataclasses.asdict(pv.caps)}
        init_state = {k: v.detach().cpu().clone() for k, v in pv.net.state_dict().items()}
        if cfg.anchor > 0 and pv.anchor == 0.0:
            init_state["heuristic_anchor"] = torch.tensor(float(cfg.anchor))
        nets.save(0, init_state, info, cfg, {"init_from": cfg.init_from})
        _copy(nets.path(0), run_dir / "best.zip")
        (run_dir / "exit.csv").unlink(missing_ok=True)
        state = {"format": STATE_FORMAT, "config": config, **info, "generation": 0, "best": 0,
                 "bests": [0], "eval": None}
        _write_json(state_path, state)
    _trim_csv(run_dir / "exit.csv", state["generation"])
    log = CsvLog(run_dir / "exit.csv", EXIT_FIELDS)
    wall0 = log.last_wall()
    t_run = time.perf_counter()
    rows = []
    try:
        for g in range(state["generation"] + 1, cfg.generations + 1):
            row = _generation(cfg, g, state, nets, run_dir)
            row["wall_s"] = wall0 + time.perf_counter() - t_run
            log.write(row)
            rows.append(row)
            plot_exit(log.path, run_dir / "exit_curve.png")
            state["generation"] = g
            _write_json(state_path, state)
    finally:
        if _RAY["started"]:  # a local Ray this run started: stopped with it
            import ray

            ray.shutdown()
            _RAY["started"] = False
    if state["generation"] >= cfg.generations and not rows:
        _say(cfg, f"nothing to do: {run_dir} has {state['generation']} generations "
                  f"(generations={cfg.generations})")
    return {**state, "rows": rows}


def _generation(cfg: ExItConfig, g: int, state: dict[str, Any], nets: _Nets,
                run_dir: Path) -> dict[str, Any]:
    """One generation: self-play, learner, gate, evaluation; updates ``state``; the CSV row."""
    t_gen = time.perf_counter()
    info = {"net_kwargs": state["net_kwargs"], "capacities": state["capacities"]}
    best, bests = state["best"], state["bests"]
    past = bests[:-1]
    row: dict[str, Any] = {"generation": g}

    # 1. self-play
    specs = selfplay_specs(cfg, g, best, past)
    used = {best} | {int(s.net[4:]) for sp in specs for s in sp.seats if s.net}
    t = time.perf_counter()
    results, net_positions = run_games(cfg, specs, {net_key(k): nets.state(k) for k in used},
                                       info["net_kwargs"], info["capacities"],
                                       cfg.search_kwargs(cfg.noise))
    selfplay_s = time.perf_counter() - t
    arrays = samples_from_games(results, g)
    _save_npz(run_dir / "data" / f"{net_key(g)}.npz", arrays)
    games = sum(1 for r in results if not r["error"])
    positions = len(arrays["z"])
    learner = match_result([r for r in results if r["opponent"] != "self"],
                           lambda r: r["learner"])
    row.update(games=games, failed=len(results) - games, positions=positions,
               skipped=sum(r["skipped"] for r in results), selfplay_s=selfplay_s,
               selfplay_positions_per_s=positions / max(selfplay_s, 1e-9),
               selfplay_games_per_s=games / max(selfplay_s, 1e-9), net_positions=net_positions,
               learner_wins=learner["wins"], learner_losses=learner["losses"],
               learner_draws=learner["draws"],
               **{f"opponent_{k}": sum(1 for r in results if r["opponent"] == k)
                  for k in OPPONENTS})
    _say(cfg, f"generation {g}: self-play {games} games ({row['failed']} failed), {positions} "
              f"positions ({row['skipped']} skipped) in {selfplay_s:.1f}s: "
              f"{row['selfplay_positions_per_s']:.2f} positions/s, "
              f"{row['selfplay_games_per_s']:.3f} games/s")
    for r in results:
        if r["error"]:
            _say(cfg, f"  game {r['index']} {r['decks']} failed: {r['error']}")

    # 2. learner
    window = list(range(max(1, g - cfg.replay_generations + 1), g + 1))
    data = load_window(run_dir / "data", window)
    start = g - 1 if cfg.train_from == "latest" else best
    new_state, metrics = train_generation(cfg, nets.state(start), info["net_kwargs"],
                                          info["capacities"], data, g)
    row.update(window_generations=len(window), **metrics)
    nets.save(g, new_state, info, cfg, {"trained_from": start, "metrics": metrics,
                                        "window": window})
    _say(cfg, f"  learner: {metrics['train_samples']} samples x {cfg.epochs} epochs "
              f"({metrics.get('learner_samples_per_s', 0):.0f} samples/s), policy loss "
              f"{metrics.get('policy_loss', math.nan):.4f}, value loss "
              f"{metrics.get('value_loss', math.nan):.4f}; held out "
              f"{metrics['holdout_samples']}: agreement {metrics.get('agreement', math.nan):.3f}"
              + (f"; anchor {metrics['anchor']:.3f}" if metrics["anchor"] else ""))

    # 3. gate
    t = time.perf_counter()
    if cfg.gate_games:
        kind = "search" if cfg.gate_agent == "search" else "policy"
        specs = paired_specs(cfg, cfg.gate_games, (cfg.seed, "exit-gate", g),
                             SeatSpec(kind, net_key(g)), SeatSpec(kind, net_key(best)))
        results, _ = run_games(cfg, specs, {net_key(g): nets.state(g),
                                            net_key(best): nets.state(best)},
                               info["net_kwargs"], info["capacities"], cfg.search_kwargs(0.0))
        gate = match_result(results, _first_seat)
        accepted = gate["rate"] >= cfg.gate_threshold  # nan (no decisive game): rejected
        row.update(gate_games=gate["games"], gate_wins=gate["wins"], gate_losses=gate["losses"],
                   gate_draws=gate["draws"], gate_rate=gate["rate"], gate_ci_low=gate["ci_low"],
                   gate_ci_high=gate["ci_high"])
    else:
        accepted = True
    row["gate_s"] = time.perf_counter() - t
    if accepted:
        best = state["best"] = g
        bests.append(g)
        _copy(nets.path(g), run_dir / "best.zip")
    row.update(accepted=accepted, best=best)
    if cfg.gate_games:
        _say(cfg, f"  gate: new vs best {row['gate_wins']}-{row['gate_losses']}-"
                  f"{row['gate_draws']}, rate {row['gate_rate']:.3f} [{row['gate_ci_low']:.3f}, "
                  f"{row['gate_ci_high']:.3f}] -> {'accepted' if accepted else 'rejected'} "
                  f"(best: generation {best})")

    # 4. evaluation
    t = time.perf_counter()
    if cfg.eval_games:
        prev = state.get("eval")
        if prev and prev.get("net") == best and prev.get("games") == cfg.eval_games:
            ev = prev["result"]  # the same network on the same deals: the same games
        else:
            specs = paired_specs(cfg, cfg.eval_games, (cfg.eval_seed, "exit-eval"),
                                 SeatSpec("policy", net_key(best)), SeatSpec("heuristic"))
            results, _ = run_games(cfg, specs, {net_key(best): nets.state(best)},
                                   info["net_kwargs"], info["capacities"], {})
            ev = match_result(results, _first_seat)
            state["eval"] = {"net": best, "games": cfg.eval_games, "result": ev}
        row.update(eval_games=ev["games"], eval_wins=ev["wins"], eval_losses=ev["losses"],
                   eval_draws=ev["draws"], eval_rate=ev["rate"], eval_ci_low=ev["ci_low"],
                   eval_ci_high=ev["ci_high"])
        _say(cfg, f"  eval: best policy vs heuristic {ev['wins']}-{ev['losses']}-{ev['draws']}, "
                  f"rate {ev['rate']:.3f} [{ev['ci_low']:.3f}, {ev['ci_high']:.3f}]")
    row["eval_s"] = time.perf_counter() - t
    row["generation_s"] = time.perf_counter() - t_gen
    return row


# -- the command line ----------------------------------------------------------------------

def load(config: str | None = None, overrides: Sequence[str] = ()) -> ExItConfig:
    """The config of a YAML file and ``key=value`` overrides, validated (``ExItError`` /
    ``ValueError`` with a one-line message)."""
    from .ppo import load_config

    cfg = load_config(config, overrides, cls=ExItConfig)
    cfg.validate()
    return cfg


def main(argv: Sequence[str] | None = None) -> None:
    from .checkpoint import checkpoint_errors_as_usage

    def command(
        config: Annotated[str | None, typer.Option(help="a YAML config (configs/exit.yaml)")] = None,
        set_: Annotated[list[str] | None, typer.Option("--set", help="override a key: key=value")]
        = None,
        resume: Annotated[bool, typer.Option(help="continue the run in run_dir after its last "
                                             "completed generation")] = False,
        backend: Annotated[str | None, typer.Option(help="process or ray (overrides the "
                                                    "config)")] = None,
    ) -> None:
        """Expert iteration: the network-guided search plays itself, the network learns its
        improved policy and the results, a gate keeps the stronger network."""
        overrides = list(set_ or ())
        if backend is not None:
            overrides.append(f"backend={backend}")
        try:
            cfg = load(config, overrides)
        except (ValueError, OSError) as exc:
            raise typer.BadParameter(str(exc)) from None
        with checkpoint_errors_as_usage():
            try:
                out = run(cfg, resume=resume)
            except ExItError as exc:
                raise typer.BadParameter(str(exc)) from None
        typer.echo(f"{out['generation']} generations in {cfg.run_dir}; best: generation "
                   f"{out['best']} ({Path(cfg.run_dir) / 'best.zip'})")

    app = typer.Typer(add_completion=False)
    app.command()(command)
    app(args=list(argv) if argv is not None else None)


if __name__ == "__main__":
    main()
