"""Imitation warm start: behaviour cloning of :class:`~agents.heuristic.HeuristicAgent` into the
structured policy (:class:`agents.policy_net.MtgPolicy`), then PPO fine-tuning from it.

Three steps, one typed config (:class:`BCConfig`, YAML in ``configs/bc.yaml``, ``--set k=v``
overrides, read by :func:`agents.ppo.load_config`)::

    python -m agents.imitation generate --config configs/bc.yaml --set games=2000
    python -m agents.imitation train --config configs/bc.yaml
    python -m agents.imitation evaluate results/bc/best.zip --games 200
    python -m agents.imitation dagger --config configs/bc.yaml --set epochs=2
    python -m agents.ppo --config configs/ppo.yaml --set init_from=results/bc/best.zip

**Dataset** (``generate``): ``games`` games of HeuristicAgent against HeuristicAgent, each on a
random theme-deck pairing (the two decks drawn independently, so the seats are random too) with
its own engine and agent seeds, all derived from ``seed``: the dataset is the same for any
number of workers. For every decision with more than one legal option it records the deciding
player's observation and action mask exactly as the env gives them (``Observer``, the env's
capacities), the index of the heuristic's choice in the env's action layout, the decision kind,
and for the value target the final outcome for that player (+1 win, -1 loss, 0 draw or
turn-limit) and how many more decisions that player made before the end. Games are played in
shards of ``shard_games`` over ``workers`` processes; each shard is one compressed
``shard_NNNNN.npz`` in ``data_dir`` (observations as CSR sparse rows: about 225 of the 19,358
values are non-zero; masks as the lists of legal indices), and ``manifest.json`` records the
games, samples, seed, decks, capacities, the card vocabulary and layout versions and signatures,
and the time taken. A game the engine or the encoder fails on is left out (and counted).

**Training** (``train``): the network of ``MtgPolicy`` (the same sizes as the PPO config's
``net``) is trained with cross-entropy of its masked action logits against the heuristic's
index plus ``value_coef`` times the squared error of its value against the outcome discounted by
``value_gamma`` per remaining decision of that player (PPO's discounted return, so fine-tuning
starts with a sensible critic). The split is by game: ``val_fraction`` of the games are held
out. Each epoch logs train/validation loss and top-1 accuracy to ``run_dir/bc.csv`` and the
validation accuracy per decision kind to ``run_dir/bc_kinds.csv``. ``best.zip`` (best
validation loss) and ``final.zip`` are :mod:`agents.checkpoint` files of a MaskablePPO model
(the PPO config: capacities, ``net``, ``max_turns``), so ``--agent ppo:PATH`` plays them and
``init_from=PATH`` starts PPO from them; their metadata has a ``behaviour_cloning`` entry (the
dataset manifest's summary, epochs, accuracies).

**DAgger** (``dagger``, :func:`dagger`): rounds in which the current policy plays the heuristic,
every decision of its seat is labelled with the expert's choice from the same view
(:func:`play_recorded` with a ``learner``; the expert is ``dagger_expert``, the heuristic by
default, or a search such as ``mcts:iters=1`` that beats it), and a policy is retrained from its
weights on all the data so far (``extra_data``, ``init_from``), so the clone learns what to do in
the states its own mistakes lead to.

**Evaluation** (``evaluate``): seat-balanced paired-seed games of the deterministic policy (or,
with ``--sample``, of the policy sampled) against ``random`` and ``heuristic``
(:func:`agents.training.evaluate_paired`, 95% Wilson intervals).
"""

from __future__ import annotations

import dataclasses
import json
import math
import multiprocessing as mp
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer

from mtg_env.engine.actions import DecisionKind

__all__ = ["BCConfig", "Dataset", "dagger", "evaluate_checkpoint", "generate", "load_dataset",
           "load_datasets", "play_recorded", "train_bc"]

DATASET_FORMAT = 1
KINDS = tuple(k.value for k in DecisionKind)
BC_FIELDS = ("epoch", "wall_s", "train_samples", "train_loss", "train_ce", "train_value_loss",
             "train_acc", "val_samples", "val_loss", "val_ce", "val_value_loss", "val_acc",
             "val_random_acc", "lr")
KIND_FIELDS = ("epoch", "kind", "samples", "acc", "random_acc")


@dataclass
class BCConfig:
    """Everything behaviour cloning depends on (saved in the checkpoint's metadata)."""

    # dataset
    data_dir: str = "results/bc/data"
    games: int = 500
    seed: int = 0
    decks: tuple[str, ...] = ()  # the deck pool pairings are drawn from; () = the theme decks
    max_turns: int = 40
    capacities: dict[str, int] = field(default_factory=dict)  # env capacity keys; {} = defaults
    workers: int = 2  # processes playing the games; 0 = in this process
    shard_games: int = 25  # games per shard file (a unit of work)
    # training
    run_dir: str = "results/bc"
    epochs: int = 8
    batch_size: int = 256
    learning_rate: float = 1e-3
    lr_decay: bool = True  # cosine decay to 0 over the epochs
    weight_decay: float = 0.0
    val_fraction: float = 0.1  # of the games
    value_coef: float = 0.5
    value_gamma: float = 0.995  # per remaining decision of the player (PPO's gamma)
    max_samples: int = 0  # train on a random N of the training samples (0 = all)
    extra_data: tuple[str, ...] = ()  # more datasets trained on with data_dir (e.g. DAgger's)
    init_from: str = ""  # start from this checkpoint's weights instead of a new network
    kind_weights: dict[str, float] = field(default_factory=dict)  # cross-entropy weight per kind
    net: dict[str, int] = field(default_factory=lambda: {"embed": 16, "d_row": 64, "d_ctx": 128,
                                                         "hidden": 64})
    threads: int = 1  # torch threads
    # evaluation (seat-balanced paired seeds)
    eval_games: int = 100  # per opponent, half in each seat; 0 = none
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    eval_seed: int = 1_000_003
    # DAgger (``dagger``): rounds of the current policy playing the heuristic, its decisions
    # labelled with the heuristic's, then training on everything so far from its weights
    dagger_rounds: int = 3
    dagger_games: int = 200  # per round, the policy in each seat half of them
    dagger_dir: str = "results/bc/dagger"  # round_N/data and round_N/run
    dagger_init: str = ""  # the first round's policy; "" = train one on data_dir first
    dagger_expert: str = "heuristic"  # the agent spec whose choices label the policy's decisions

    def env_config(self) -> dict[str, Any]:
        """The env config of the evaluation games (and of the PPO model's spaces)."""
        return {"max_turns": self.max_turns, **self.capacities}

    def pool(self) -> tuple[str, ...]:
        from mtg_env.env.config import default_deck_names

        return tuple(self.decks) or default_deck_names()


# -- the dataset ---------------------------------------------------------------------------

def _signature(caps: dict[str, int]) -> dict[str, Any]:
    from .checkpoint import install_signature

    sig = install_signature(caps)
    return {k: sig[k] for k in ("vocab_version", "vocab_signature", "layout_version",
                                "layout_signature", "observation_shape", "action_size",
                                "capacities")}


def game_plan(seed: int, index: int, pool: Sequence[str]) -> tuple[tuple[str, str], int]:
    """The deck names (seat 0, seat 1) and engine seed of game ``index`` of a dataset."""
    from mtg_env.sim.runner import derive_seed

    rng = random.Random(derive_seed(seed, "bc-decks", index))
    decks = (pool[rng.randrange(len(pool))], pool[rng.randrange(len(pool))])
    return decks, derive_seed(seed, "bc-game", index)


def play_recorded(decks: Sequence[str], seed: int, max_turns: int | None,
                  caps: dict[str, int] | None = None, learner: Any = None,
                  learner_seat: int = 0, expert: str = "heuristic") -> dict[str, np.ndarray]:
    """Play one game and return its samples (see the module docstring): ``obs`` (N, D)
    float32, ``legal`` (a list of index arrays), ``action``, ``kind``, ``player``, ``outcome``,
    ``remaining``, plus ``winner`` and ``turns``.

    Without ``learner`` it is HeuristicAgent against HeuristicAgent and every decision with
    more than one option is a sample. With ``learner`` (a function ``(observation, mask) ->
    env index``, e.g. :meth:`agents.policy_agent.PPOAgent.choose`) seat ``learner_seat`` is
    played by the learner against a HeuristicAgent (DAgger): only that seat's decisions are
    samples, each labelled with what a HeuristicAgent in that seat, asked at every decision of
    the seat, would have chosen (it is deterministic and keeps its per-turn plans, so the label
    is the choice it would make from the same view), while the learner's choice is the one
    played. ``agree`` then counts, per decision kind, the samples where both chose the same
    index, and ``confusion`` the disagreements by kind and the two choices' verbs."""
    from mtg_env.encoding import Capacities, Observer
    from mtg_env.engine.game import Game
    from mtg_env.engine.view import view_for
    from mtg_env.env.config import load_deck
    from mtg_env.sim.runner import MAX_DECISIONS, derive_seed

    from .heuristic import HeuristicAgent

    game = Game.new([load_deck(d) for d in decks], seed=seed, skip_trivial=True,
                    max_turns=max_turns, max_decisions=MAX_DECISIONS)
    observer = Observer(Capacities(**(caps or {})), flatten=True)
    agents: list[Any] = [HeuristicAgent(), HeuristicAgent()]
    if learner is not None and expert != "heuristic":
        from . import make_agent

        agents[learner_seat] = make_agent(expert)
    for seat, agent in enumerate(agents):
        agent.reset(seat, derive_seed(seed, "agent", seat))
    obs, legal, action, kind, player, step = [], [], [], [], [], []
    counts = [0, 0]
    agree: dict[str, list[int]] = {}
    confusion: dict[str, int] = {}
    kind_index = {k: i for i, k in enumerate(DecisionKind)}
    while not game.is_over:
        d = game.decision
        p = d.player
        chosen = agents[p].act(view_for(game, p))
        options = observer.legal(game)
        if len(options) > 1 and (learner is None or p == learner_seat):
            o, mask = observer.observe(game, p)
            text = chosen.text
            idx = [i for i, a in options.items() if a.text == text]
            if len(idx) != 1:
                raise ValueError(f"the expert's {text!r} maps to {len(idx)} env indices")
            obs.append(o)
            legal.append(np.fromiter(sorted(options), np.int32, len(options)))
            action.append(idx[0])
            kind.append(kind_index[d.kind])
            player.append(p)
            step.append(counts[p])
            if learner is not None:
                mine = int(learner(o, mask))
                if mine not in options:
                    raise ValueError(f"the learner chose index {mine}, not a legal option")
                tally = agree.setdefault(d.kind.value, [0, 0])
                tally[0] += mine == idx[0]
                tally[1] += 1
                if mine != idx[0]:
                    key = f"{d.kind.value}: expert {chosen.verb} / learner {options[mine].verb}"
                    confusion[key] = confusion.get(key, 0) + 1
                chosen = options[mine]
        counts[p] += 1
        game.apply(chosen)
    winner = -1 if game.winner is None else int(game.winner)
    pl = np.asarray(player, np.int8)
    outcome = np.where(winner < 0, 0, np.where(pl == winner, 1, -1)).astype(np.int8)
    remaining = np.asarray(counts, np.int32)[pl.astype(np.int64)] - np.asarray(step, np.int32) - 1 \
        if len(pl) else np.zeros(0, np.int32)
    d_obs = observer.obs_layout.size
    out = {"obs": np.stack(obs) if obs else np.zeros((0, d_obs), np.float32), "legal": legal,
           "action": np.asarray(action, np.int32), "kind": np.asarray(kind, np.int8),
           "player": pl, "outcome": outcome, "remaining": remaining.astype(np.int32),
           "winner": np.int8(winner), "turns": np.int32(game.turn)}
    if learner is not None:
        out.update(agree=agree, confusion=confusion)
    return out


_LEARNERS: dict[str, Any] = {}


def _learner(path: str) -> Any:
    """The deterministic policy of checkpoint ``path`` as ``(observation, mask) -> index``
    (loaded once per process)."""
    if path not in _LEARNERS:
        from .checkpoint import load_checkpoint
        from .policy_agent import PPOAgent

        model, meta = load_checkpoint(path)
        _LEARNERS[path] = PPOAgent(model=model, meta=meta, deterministic=True).choose
    return _LEARNERS[path]


def _shard(job: tuple[BCConfig, int, Path, str]) -> dict[str, Any]:
    """Play the games of shard ``index`` and write ``shard_<index>.npz``; returns its summary.
    With a ``policy`` checkpoint path the games are DAgger games: the policy plays seat
    ``game % 2`` against the heuristic and its decisions are labelled with the heuristic's."""
    cfg, index, out_dir, policy = job
    import torch

    torch.set_num_threads(1)
    t = time.perf_counter()
    pool = cfg.pool()
    first = index * cfg.shard_games
    games = range(first, min(cfg.games, first + cfg.shard_games))
    parts: dict[str, list] = {k: [] for k in ("indptr", "idx", "val", "legal_ptr", "legal", "action",
                                             "kind", "player", "outcome", "remaining", "game")}
    n_samples, failed, nnz, n_legal = 0, [], 0, 0
    agree: dict[str, list[int]] = {}
    confusion: dict[str, int] = {}
    results = [0, 0, 0]  # the learner's wins, losses, draws
    parts["indptr"].append(np.zeros(1, np.int64))
    parts["legal_ptr"].append(np.zeros(1, np.int64))
    for g in games:
        decks, seed = game_plan(cfg.seed, g, pool)
        try:
            rec = play_recorded(decks, seed, cfg.max_turns, cfg.capacities,
                                learner=_learner(policy) if policy else None,
                                learner_seat=g % 2, expert=cfg.dagger_expert)
        except Exception as exc:  # an engine or encoder failure: the game is left out
            failed.append({"game": g, "decks": list(decks), "seed": seed,
                           "error": f"{type(exc).__name__}: {exc}"})
            continue
        if policy:
            _add_tallies(agree, confusion, rec)
            w = int(rec["winner"])
            results[0 if w == g % 2 else 2 if w < 0 else 1] += 1
        o = rec["obs"]
        rows, cols = np.nonzero(o)
        parts["idx"].append(cols.astype(np.int32))
        parts["val"].append(o[rows, cols])
        parts["indptr"].append(nnz + np.cumsum(np.bincount(rows, minlength=len(o))))
        nnz += len(cols)
        lens = np.array([len(x) for x in rec["legal"]], np.int64)
        parts["legal"].extend(rec["legal"])
        parts["legal_ptr"].append(n_legal + np.cumsum(lens))
        n_legal += int(lens.sum())
        for k in ("action", "kind", "player", "outcome", "remaining"):
            parts[k].append(rec[k])
        parts["game"].append(np.full(len(o), g, np.int32))
        n_samples += len(o)
    arrays = {k: (np.concatenate(v) if v else np.zeros(0, np.int32)) for k, v in parts.items()}
    path = out_dir / f"shard_{index:05d}.npz"
    tmp = out_dir / f".shard_{index:05d}.tmp.npz"
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)
    return {"file": path.name, "first_game": first, "games": len(games) - len(failed),
            "samples": n_samples, "failed": failed, "seconds": time.perf_counter() - t,
            "agree": agree, "confusion": confusion, "learner_results": results}


def _reusable_shards(cfg: BCConfig, out: Path, pool: Sequence[str],
                     policy: str = "") -> dict[str, dict[str, Any]]:
    """The complete shards of an earlier dataset in ``out`` made with the same seed, decks,
    turn limit, shard size, policy (DAgger) and install signature (its games are the same
    games)."""
    mpath = out / "manifest.json"
    if not mpath.is_file():
        return {}
    old = json.loads(mpath.read_text())
    same = (old.get("format") == DATASET_FORMAT and old.get("seed") == cfg.seed
            and old.get("decks") == list(pool) and old.get("max_turns") == cfg.max_turns
            and old.get("shard_games") == cfg.shard_games and (old.get("policy") or "") == policy
            and (not policy or old.get("expert", "heuristic") == cfg.dagger_expert)
            and all(old.get(k) == v for k, v in _signature(cfg.capacities).items()))
    if not same:
        return {}
    kept = {}
    for sh in old.get("shards", ()):
        first = sh["first_game"]
        full = min(cfg.games, first + cfg.shard_games) - first
        failed = [f for f in old.get("failed_games", ()) if first <= f["game"] < first + full]
        if full == cfg.shard_games and sh["games"] + len(failed) == full \
                and (out / sh["file"]).is_file():
            kept[sh["file"]] = {**sh, "failed": failed, "seconds": sh.get("seconds", 0.0)}
    return kept


def _add_tallies(agree: dict[str, list[int]], confusion: dict[str, int],
                 src: dict[str, Any]) -> None:
    """Add ``src``'s ``agree`` (kind -> [agreed, samples]) and ``confusion`` counts (a game's
    or a shard's) to the totals."""
    for k, (a, n) in (src.get("agree") or {}).items():
        tally = agree.setdefault(k, [0, 0])
        tally[0] += a
        tally[1] += n
    for k, n in (src.get("confusion") or {}).items():
        confusion[k] = confusion.get(k, 0) + n


def _dagger_summary(shards: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The learner's results, its agreement with the heuristic's labels per kind and the most
    frequent disagreements over the shards of a DAgger dataset."""
    agree: dict[str, list[int]] = {}
    confusion: dict[str, int] = {}
    res = [0, 0, 0]
    for r in shards:
        _add_tallies(agree, confusion, r)
        res = [x + y for x, y in zip(res, r.get("learner_results") or (0, 0, 0), strict=True)]
    return {"learner_results": dict(zip(("wins", "losses", "draws"), res, strict=True)),
            "agreement": {k: {"agree": a, "samples": n, "rate": round(a / n, 4)}
                          for k, (a, n) in sorted(agree.items())},
            "disagreements": dict(sorted(confusion.items(), key=lambda kv: -kv[1])[:40])}


def generate(cfg: BCConfig, verbose: bool = False, reuse: bool = True,
             policy: str | Path | None = None) -> dict[str, Any]:
    """Write the dataset of ``cfg`` to ``cfg.data_dir`` (shards and ``manifest.json``); returns
    the manifest. The result depends on ``seed``, ``games``, ``decks``, ``max_turns``,
    ``capacities`` and ``shard_games``, not on ``workers``. With ``reuse``, complete shards of
    an earlier dataset in ``data_dir`` made with the same settings are kept (a larger dataset
    extends a smaller one; an interrupted run continues).

    With ``policy`` (a checkpoint path) the games are DAgger games: the checkpoint's
    deterministic policy plays seat ``game % 2`` against HeuristicAgent, and every decision of
    its seat is labelled with the heuristic's choice from the same view (:func:`play_recorded`).
    The manifest then also records the policy, its results and its agreement with the labels
    per decision kind, and the most frequent disagreements."""
    from mtg_env.env.config import load_deck

    out = Path(cfg.data_dir)
    out.mkdir(parents=True, exist_ok=True)
    pool = cfg.pool()
    n_shards = math.ceil(cfg.games / cfg.shard_games)
    policy = str(Path(policy).resolve()) if policy else ""
    kept = _reusable_shards(cfg, out, pool, policy) if reuse else {}
    for old in out.glob("shard_*.npz"):
        if old.name not in kept:
            old.unlink()
    for name in pool:  # loaded once here: forked workers inherit the card database
        load_deck(name)
    jobs = [(cfg, i, out, policy) for i in range(n_shards) if f"shard_{i:05d}.npz" not in kept]
    t = time.perf_counter()
    before = sum(r.get("seconds", 0.0) for r in kept.values())
    results: list[dict[str, Any]] = list(kept.values())

    def manifest(complete: bool) -> dict[str, Any]:
        done = sorted(results, key=lambda r: r["first_game"])
        m = {
            "format": DATASET_FORMAT,
            "kind": "dagger" if policy else "heuristic-vs-heuristic behaviour cloning",
            "policy": policy or None,
            **({"expert": cfg.dagger_expert} if policy else {}),
            "complete": complete,
            "games": sum(r["games"] for r in done),
            "samples": sum(r["samples"] for r in done),
            "failed_games": [f for r in done for f in r["failed"]],
            "seed": cfg.seed,
            "games_requested": cfg.games,
            "decks": list(pool),
            "max_turns": cfg.max_turns,
            "shard_games": cfg.shard_games,
            **_signature(cfg.capacities),
            "kinds": list(KINDS),
            "shards": [{k: r[k] for k in ("file", "first_game", "games", "samples", "seconds",
                                          "agree", "confusion", "learner_results") if k in r}
                       for r in done],
            "workers": cfg.workers,
            **(_dagger_summary(done) if policy else {}),
            "seconds": round(time.perf_counter() - t + before, 2),
        }
        # written after every shard, so an interrupted run continues where it stopped
        (out / "manifest.json").write_text(json.dumps(m, indent=2))
        return m

    def finished(res: dict[str, Any]) -> None:
        results.append(res)
        manifest(complete=False)
        if verbose:
            print(f"shard {res['file']}: {res['games']} games, {res['samples']} samples, "
                  f"{res['seconds']:.1f}s", flush=True)

    if cfg.workers > 0 and jobs:
        with mp.get_context("fork").Pool(min(cfg.workers, len(jobs))) as workers:
            for res in workers.imap_unordered(_shard, jobs):
                finished(res)
    else:
        for job in jobs:
            finished(_shard(job))
    return manifest(complete=True)


@dataclass
class Dataset:
    """A loaded dataset: CSR observations, CSR legal indices, and per-sample arrays."""

    manifest: dict[str, Any]
    indptr: np.ndarray
    idx: np.ndarray
    val: np.ndarray
    legal_ptr: np.ndarray
    legal: np.ndarray
    action: np.ndarray
    kind: np.ndarray
    outcome: np.ndarray
    remaining: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return len(self.action)

    @property
    def obs_size(self) -> int:
        return int(self.manifest["observation_shape"][0])

    @property
    def action_size(self) -> int:
        return int(self.manifest["action_size"])

    def batch(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Dense observations ``(B, D)`` and boolean masks ``(B, A)`` of the samples ``rows``."""
        obs = np.zeros((len(rows), self.obs_size), np.float32)
        mask = np.zeros((len(rows), self.action_size), np.bool_)
        for j, r in enumerate(rows):
            a, b = self.indptr[r], self.indptr[r + 1]
            obs[j, self.idx[a:b]] = self.val[a:b]
            mask[j, self.legal[self.legal_ptr[r]:self.legal_ptr[r + 1]]] = True
        return obs, mask


_CSR_ROWS = ("idx", "val", "legal", "action", "kind", "outcome", "remaining", "game")
_CSR_KEYS = ("indptr", "legal_ptr", *_CSR_ROWS)


def _concat(pieces: Iterable[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays of one dataset from pieces that each have their own ``indptr`` and
    ``legal_ptr`` (shards of a dataset, or whole datasets): the pointers are shifted past the
    pieces before them, every other array is concatenated."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in _CSR_KEYS}
    nnz = n_legal = 0
    for z in pieces:
        parts["indptr"].append(z["indptr"][1:] + nnz)
        parts["legal_ptr"].append(z["legal_ptr"][1:] + n_legal)
        nnz += len(z["idx"])
        n_legal += len(z["legal"])
        for k in _CSR_ROWS:
            parts[k].append(z[k])
    cat = {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}
    cat["indptr"] = np.concatenate([np.zeros(1, np.int64), cat["indptr"]]).astype(np.int64)
    cat["legal_ptr"] = np.concatenate([np.zeros(1, np.int64), cat["legal_ptr"]]).astype(np.int64)
    return cat


def load_dataset(data_dir: str | Path, caps: dict[str, int] | None = None) -> Dataset:
    """Load a dataset written by :func:`generate`. Raises ``ValueError`` when its card
    vocabulary, layout or capacities differ from this install's (or from ``caps``)."""
    data_dir = Path(data_dir)
    mpath = data_dir / "manifest.json"
    if not mpath.is_file():
        raise ValueError(f"no dataset at {str(data_dir)!r} (no manifest.json): run "
                         "python -m agents.imitation generate first")
    manifest = json.loads(mpath.read_text())
    if not manifest.get("complete", False):
        raise ValueError(f"dataset {str(data_dir)!r} is incomplete (an interrupted generate): "
                         "run generate again with the same settings to finish it")
    here = _signature(caps if caps is not None else manifest.get("capacities") or {})
    for key in ("vocab_version", "vocab_signature", "layout_version", "layout_signature",
                "observation_shape", "action_size"):
        if manifest.get(key) != here[key]:
            raise ValueError(f"dataset {str(data_dir)!r} was made with {key} "
                             f"{manifest.get(key)!r} but this install has {here[key]!r}: "
                             "regenerate it")

    def shards() -> Iterator[dict[str, np.ndarray]]:
        for shard in manifest["shards"]:
            with np.load(data_dir / shard["file"]) as z:
                yield {k: z[k] for k in _CSR_KEYS}

    cat = _concat(shards())
    return Dataset(manifest=manifest, **cat)


def load_datasets(data_dirs: Sequence[str | Path], caps: dict[str, int] | None = None) -> Dataset:
    """Several datasets as one (:func:`load_dataset` each; the games of each later dataset are
    numbered after the earlier ones', so a split by game keeps every game whole). The manifest
    is the first dataset's with the totals of all and ``parts``, each dataset's summary."""
    sets = [load_dataset(d, caps) for d in data_dirs]
    if len(sets) == 1:
        return sets[0]

    def pieces() -> Iterator[dict[str, np.ndarray]]:
        game_base = 0
        for ds in sets:
            piece = {k: getattr(ds, k) for k in _CSR_KEYS}
            piece["game"] = ds.game.astype(np.int64) + game_base
            game_base += int(ds.game.max()) + 1 if len(ds.game) else 0
            yield piece

    cat = _concat(pieces())
    manifest = {**sets[0].manifest, "games": sum(d.manifest["games"] for d in sets),
                "samples": sum(len(d) for d in sets),
                "parts": [{"data_dir": str(p), **{k: d.manifest.get(k) for k in
                                                  ("kind", "games", "samples", "seed", "policy")}}
                          for p, d in zip(data_dirs, sets, strict=True)]}
    return Dataset(manifest=manifest, **cat)


# -- training ------------------------------------------------------------------------------

def ppo_config(cfg: BCConfig) -> Any:
    """The PPO config a behaviour-cloned checkpoint records (so ``--resume``/``init_from``
    rebuild the same network and env)."""
    from .ppo import PPOConfig

    return PPOConfig(seed=cfg.seed, max_turns=cfg.max_turns, capacities=dict(cfg.capacities),
                     policy="structured", net=dict(cfg.net), num_envs=1, num_workers=0,
                     threads=cfg.threads, opponent="heuristic")


def new_model(cfg: BCConfig) -> Any:
    """An untrained MaskablePPO model with the structured policy, for ``cfg``'s env."""
    from mtg_env.vector import MtgVectorEnv, Sb3VecEnv

    from .ppo import _new_model

    env = Sb3VecEnv(MtgVectorEnv(1, seed=cfg.seed, **cfg.env_config()))
    try:
        return _new_model(ppo_config(cfg), env, 0)
    finally:
        env.close()


def split_by_game(ds: Dataset, val_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample indices of the training and validation games (a fraction of the games, at least
    one when there are two or more)."""
    games = np.unique(ds.game)
    rng = np.random.default_rng(seed)
    n_val = round(len(games) * val_fraction)
    if val_fraction > 0 and len(games) > 1:
        n_val = min(max(n_val, 1), len(games) - 1)
    val_games = rng.choice(games, size=n_val, replace=False) if n_val else np.zeros(0, games.dtype)
    is_val = np.isin(ds.game, val_games)
    return np.flatnonzero(~is_val), np.flatnonzero(is_val)


def _losses(net: Any, ds: Dataset, rows: np.ndarray, cfg: BCConfig) -> tuple[Any, ...]:
    import torch as th

    obs, mask = ds.batch(rows)
    logits, value = net(th.from_numpy(obs))
    m = th.from_numpy(mask)
    logits = logits.masked_fill(~m, -1e8)
    target = th.from_numpy(ds.action[rows].astype(np.int64))
    ce = th.nn.functional.cross_entropy(logits, target, reduction="none")
    ret = th.from_numpy((ds.outcome[rows] * cfg.value_gamma ** ds.remaining[rows])
                        .astype(np.float32))
    vl = (value - ret) ** 2
    correct = logits.argmax(-1) == target
    return ce, vl, correct, m.sum(-1)


def _evaluate_split(net: Any, ds: Dataset, rows: np.ndarray, cfg: BCConfig) -> dict[str, Any]:
    import torch as th

    ce_sum = vl_sum = 0.0
    correct = np.zeros(len(rows), np.bool_)
    n_legal = np.zeros(len(rows), np.int64)
    with th.no_grad():
        for a in range(0, len(rows), 1024):
            r = rows[a:a + 1024]
            ce, vl, c, n = _losses(net, ds, r, cfg)
            ce_sum += float(ce.sum())
            vl_sum += float(vl.sum())
            correct[a:a + len(r)] = c.numpy()
            n_legal[a:a + len(r)] = n.numpy()
    n = max(len(rows), 1)
    kinds = ds.kind[rows]
    per_kind = {KINDS[k]: {"samples": int((kinds == k).sum()),
                           "acc": float(correct[kinds == k].mean()),
                           "random_acc": float((1 / n_legal[kinds == k]).mean())}
                for k in np.unique(kinds)}
    return {"samples": len(rows), "ce": ce_sum / n, "value_loss": vl_sum / n,
            "loss": (ce_sum + cfg.value_coef * vl_sum) / n, "acc": float(correct.mean()) if
            len(rows) else math.nan, "random_acc": float((1 / np.maximum(n_legal, 1)).mean())
            if len(rows) else math.nan, "kinds": per_kind}


def train_bc(cfg: BCConfig, verbose: bool = False, dataset: Dataset | None = None) -> dict[str, Any]:
    """Behaviour-clone the dataset in ``cfg.data_dir`` into a new structured policy; writes
    ``bc.csv``, ``bc_kinds.csv``, ``best.zip`` and ``final.zip`` to ``cfg.run_dir`` and returns
    ``{"model", "best", "history"}``."""
    import torch as th

    from .checkpoint import save_checkpoint
    from .training import CsvLog

    th.set_num_threads(cfg.threads)
    th.manual_seed(cfg.seed)
    ds = dataset if dataset is not None else load_datasets((cfg.data_dir, *cfg.extra_data),
                                                           cfg.capacities)
    train_rows, val_rows = split_by_game(ds, cfg.val_fraction, cfg.seed)
    if cfg.max_samples and cfg.max_samples < len(train_rows):  # a random subset, all games
        pick = np.random.default_rng(cfg.seed + 1).choice(len(train_rows), cfg.max_samples,
                                                          replace=False)
        train_rows = train_rows[np.sort(pick)]
    if not len(train_rows):
        raise ValueError("the dataset has no training samples")
    model = new_model(cfg)
    if cfg.init_from:
        from .ppo import init_weights

        init_weights(model, dataclasses.replace(ppo_config(cfg), init_from=cfg.init_from))
    net = model.policy.net
    weights = np.ones(len(KINDS), np.float32)
    for k, w in cfg.kind_weights.items():
        if k not in KINDS:
            raise ValueError(f"kind_weights: unknown decision kind {k!r} (one of {KINDS})")
        weights[KINDS.index(k)] = w
    kind_w = th.from_numpy(weights)
    opt = th.optim.Adam(net.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay)
    steps_per_epoch = math.ceil(len(train_rows) / cfg.batch_size)
    total = steps_per_epoch * cfg.epochs
    sched = th.optim.lr_scheduler.LambdaLR(
        opt, (lambda s: 0.5 * (1 + math.cos(math.pi * s / total))) if cfg.lr_decay
        else (lambda s: 1.0))
    run_dir = Path(cfg.run_dir)
    log = CsvLog(run_dir / "bc.csv", BC_FIELDS)
    klog = CsvLog(run_dir / "bc_kinds.csv", KIND_FIELDS)
    rng = np.random.default_rng(cfg.seed)
    config = dataclasses.asdict(ppo_config(cfg))
    summary = {"dataset": {k: ds.manifest.get(k) for k in ("games", "samples", "seed", "decks",
                                                           "max_turns", "vocab_signature",
                                                           "layout_signature")},
               "data_dir": str(cfg.data_dir), "extra_data": [str(d) for d in cfg.extra_data],
               "init_from": cfg.init_from, "bc_config": dataclasses.asdict(cfg),
               "train_samples": len(train_rows), "val_samples": len(val_rows)}
    history: list[dict[str, Any]] = []
    best_loss = math.inf
    best_path = run_dir / "best.zip"
    t0 = time.perf_counter()
    for epoch in range(1, cfg.epochs + 1):
        net.train()
        order = rng.permutation(train_rows)
        t_epoch = time.perf_counter()
        ce_sum = vl_sum = 0.0
        n_correct = 0
        for a in range(0, len(order), cfg.batch_size):
            rows = order[a:a + cfg.batch_size]
            ce, vl, correct, _ = _losses(net, ds, rows, cfg)
            w = kind_w[th.from_numpy(ds.kind[rows].astype(np.int64))]
            loss = (w * ce).sum() / w.sum() + cfg.value_coef * vl.mean()
            opt.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            sched.step()
            ce_sum += float(ce.detach().sum())
            vl_sum += float(vl.detach().sum())
            n_correct += int(correct.sum())
            done = a + len(rows)
            if verbose and (a // cfg.batch_size + 1) % 100 == 0:
                print(f"  epoch {epoch}: {done}/{len(order)} samples, loss "
                      f"{(ce_sum + cfg.value_coef * vl_sum) / done:.4f}, acc "
                      f"{n_correct / done:.3f} ({done / (time.perf_counter() - t_epoch):.0f} "
                      "samples/s)", flush=True)
        net.eval()
        val = _evaluate_split(net, ds, val_rows, cfg) if len(val_rows) else None
        n = len(order)
        row = {"epoch": epoch, "wall_s": time.perf_counter() - t0, "train_samples": n,
               "train_loss": (ce_sum + cfg.value_coef * vl_sum) / n, "train_ce": ce_sum / n,
               "train_value_loss": vl_sum / n, "train_acc": n_correct / n,
               "lr": sched.get_last_lr()[0]}
        if val is not None:
            row.update({"val_samples": val["samples"], "val_loss": val["loss"],
                        "val_ce": val["ce"], "val_value_loss": val["value_loss"],
                        "val_acc": val["acc"], "val_random_acc": val["random_acc"]})
            for k, v in sorted(val["kinds"].items()):
                klog.write({"epoch": epoch, "kind": k, **v})
        log.write(row)
        history.append({**row, "val_kinds": val["kinds"] if val else {}})
        if verbose:
            msg = (f"epoch {epoch}: train loss {row['train_loss']:.4f} acc {row['train_acc']:.3f}")
            if val is not None:
                msg += f" | val loss {val['loss']:.4f} acc {val['acc']:.3f}"
            print(msg + f" ({row['wall_s']:.0f}s)", flush=True)
        score = val["loss"] if val is not None else row["train_loss"]
        meta = {"behaviour_cloning": {**summary, "epoch": epoch, "train_acc": row["train_acc"],
                                      "val_acc": val["acc"] if val else None,
                                      "val_loss": val["loss"] if val else None}}
        if score < best_loss:
            best_loss = score
            save_checkpoint(model, best_path, config=config, extra=meta)
    save_checkpoint(model, run_dir / "final.zip", config=config, extra=meta)
    return {"model": model, "best": best_path, "history": history}


class _Sampling:
    """A policy whose ``predict`` samples from the masked distribution whatever it is asked."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def predict(self, obs: Any, action_masks: Any = None, deterministic: bool = True) -> Any:
        return self.policy.predict(obs, action_masks=action_masks, deterministic=False)


def evaluate_checkpoint(path: str | Path, games: int, opponents: Sequence[str] = ("random",
                                                                                   "heuristic"),
                        seed: int = 1_000_003, threads: int = 1,
                        deterministic: bool = True) -> dict[str, dict[str, Any]]:
    """Seat-balanced paired-seed games of a checkpoint's policy against each opponent (its
    config's ``max_turns`` and capacities): ``{opponent: result}``. ``deterministic=False``
    samples from the masked policy (torch's RNG seeded with ``seed``) instead of taking the
    most likely action."""
    import torch as th

    from .checkpoint import load_checkpoint
    from .training import evaluate_paired

    th.set_num_threads(threads)
    model, meta = load_checkpoint(path)
    conf = meta.get("config") or {}
    env_config = {"max_turns": conf.get("max_turns", 40), **(conf.get("capacities") or {})}
    policy = model.policy if deterministic else _Sampling(model.policy)
    out = {}
    for opp in opponents:
        th.manual_seed(seed)
        t = time.perf_counter()
        out[opp] = {**evaluate_paired(policy, opp, games, seed, env_config),
                    "seconds": time.perf_counter() - t}
    return out


# -- DAgger --------------------------------------------------------------------------------

DAGGER_FIELDS = ("round", "policy", "games", "samples", "wins", "losses", "draws",
                 "agreement", "collect_s", "train_s", "train_samples", "val_acc", "checkpoint")


def dagger(cfg: BCConfig, verbose: bool = False) -> dict[str, Any]:
    """DAgger (dataset aggregation) from the heuristic-vs-heuristic dataset in ``data_dir``.

    Round ``r`` (1 .. ``dagger_rounds``): the current policy plays ``dagger_games`` games
    against HeuristicAgent (:func:`generate` with ``policy``, seed derived from ``seed`` and
    ``r``; ``dagger_dir/round_r/data``), every decision of its seat labelled with the
    heuristic's choice; then a policy is trained from the current one's weights on
    ``data_dir``, ``extra_data`` and every round's data so far (``epochs`` epochs,
    ``dagger_dir/round_r/run``) and its ``best.zip`` becomes the current policy. The first
    policy is ``dagger_init``, or one trained on ``data_dir`` alone (``dagger_dir/round_0``).
    Writes ``dagger_dir/dagger.csv`` (per round: the policy's results in the collected games,
    its agreement with the labels, times, validation accuracy); returns ``{"best", "rounds"}``,
    ``best`` being the last round's checkpoint."""
    from mtg_env.sim.runner import derive_seed

    from .training import CsvLog

    root = Path(cfg.dagger_dir)
    log = CsvLog(root / "dagger.csv", DAGGER_FIELDS)
    policy = cfg.dagger_init
    rows: list[dict[str, Any]] = []
    if not policy:
        t = time.perf_counter()
        res = train_bc(dataclasses.replace(cfg, run_dir=str(root / "round_0" / "run")), verbose)
        policy = str(res["best"])
        row = {"round": 0, "games": 0, "samples": 0, "train_s": time.perf_counter() - t,
               "train_samples": res["history"][-1]["train_samples"],
               "val_acc": res["history"][-1].get("val_acc"), "checkpoint": policy}
        log.write(row)
        rows.append(row)
    data = list(cfg.extra_data)
    for r in range(1, cfg.dagger_rounds + 1):
        rdir = root / f"round_{r}"
        t = time.perf_counter()
        gcfg = dataclasses.replace(cfg, data_dir=str(rdir / "data"), games=cfg.dagger_games,
                                   seed=derive_seed(cfg.seed, "dagger", r) % 2**31)
        m = generate(gcfg, verbose=verbose, policy=policy)
        collect_s = time.perf_counter() - t
        data.append(gcfg.data_dir)
        t = time.perf_counter()
        res = train_bc(dataclasses.replace(cfg, run_dir=str(rdir / "run"), extra_data=tuple(data),
                                           init_from=policy), verbose)
        agreed = sum(a["agree"] for a in m["agreement"].values())
        row = {"round": r, "policy": policy, "games": m["games"], "samples": m["samples"],
               **m["learner_results"], "agreement": agreed / max(m["samples"], 1),
               "collect_s": collect_s, "train_s": time.perf_counter() - t,
               "train_samples": res["history"][-1]["train_samples"],
               "val_acc": res["history"][-1].get("val_acc"), "checkpoint": str(res["best"])}
        log.write(row)
        rows.append(row)
        if verbose:
            print(f"round {r}: the policy went {row['wins']}-{row['losses']}-{row['draws']} "
                  f"against the heuristic, agreed with it on {row['agreement']:.1%} of "
                  f"{m['samples']} decisions; retrained in {row['train_s']:.0f}s -> "
                  f"{res['best']}", flush=True)
        policy = str(res["best"])
    return {"best": policy, "rounds": rows}


# -- the command line ----------------------------------------------------------------------

_Config = Annotated[str | None, typer.Option(help="a YAML config (see configs/bc.yaml)")]
_Set = Annotated[list[str] | None, typer.Option("--set", help="override a key: key=value")]


def _load(config: str | None, set_: list[str] | None) -> BCConfig:
    from .ppo import load_config

    try:
        return load_config(config, set_ or (), cls=BCConfig)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def main() -> None:
    app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])

    @app.command("generate")
    def generate_cmd(config: _Config = None, set_: _Set = None) -> None:
        """Play heuristic-vs-heuristic games and write the dataset to data_dir."""
        cfg = _load(config, set_)
        m = generate(cfg, verbose=True)
        typer.echo(f"{m['games']} games ({len(m['failed_games'])} failed), {m['samples']} "
                   f"samples in {m['seconds']:.0f}s with {cfg.workers} workers -> {cfg.data_dir}")

    @app.command("train")
    def train_cmd(config: _Config = None, set_: _Set = None) -> None:
        """Behaviour-clone the dataset; then evaluate best.zip if eval_games > 0."""
        cfg = _load(config, set_)
        res = train_bc(cfg, verbose=True)
        typer.echo(f"best checkpoint: {res['best']}")
        _evaluate_after(cfg, res["best"])

    @app.command("dagger")
    def dagger_cmd(config: _Config = None, set_: _Set = None) -> None:
        """DAgger rounds: the policy plays the heuristic, its decisions get the heuristic's
        labels, retrain on everything; then evaluate the last policy if eval_games > 0."""
        cfg = _load(config, set_)
        res = dagger(cfg, verbose=True)
        typer.echo(f"last checkpoint: {res['best']}")
        _evaluate_after(cfg, res["best"])

    @app.command("evaluate")
    def evaluate_cmd(path: str, games: int = typer.Option(100, help="per opponent"),
                     opponents: str = typer.Option("random,heuristic"),
                     seed: int = typer.Option(1_000_003),
                     sample: bool = typer.Option(False, help="sample from the policy instead "
                                                 "of its most likely action")) -> None:
        """Seat-balanced paired-seed games of a checkpoint against each opponent."""
        _report(evaluate_checkpoint(path, games, opponents.split(","), seed,
                                    deterministic=not sample))

    app()


def _evaluate_after(cfg: BCConfig, path: str | Path) -> None:
    """Evaluate a command's checkpoint as the config asks (``eval_games`` > 0) and print it."""
    if cfg.eval_games:
        _report(evaluate_checkpoint(path, cfg.eval_games, cfg.eval_opponents, cfg.eval_seed,
                                    cfg.threads))


def _report(results: dict[str, dict[str, Any]]) -> None:
    for opp, r in results.items():
        typer.echo(f"vs {opp}: win rate {r['win_rate']:.1%} [{r['ci_low']:.1%}, "
                   f"{r['ci_high']:.1%}] ({r['wins']}-{r['losses']}, {r['draws']} draws) "
                   f"in {r['seconds']:.0f}s")


if __name__ == "__main__":
    main()
