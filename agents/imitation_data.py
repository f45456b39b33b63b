"""The imitation dataset: games recorded for behaviour cloning and DAgger
(:mod:`agents.imitation`), written to disk in shards and loaded back.

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

**DAgger games** (:func:`generate` with a ``policy``): a checkpoint's deterministic policy plays
one seat against the heuristic, and each of its decisions is labelled with the choice of the
config's ``dagger_expert`` from the same view (:func:`play_recorded`).
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mtg_env.engine.actions import DecisionKind

if TYPE_CHECKING:
    from .training_common import BCConfig

__all__ = ["DATASET_FORMAT", "KINDS", "Dataset", "game_plan", "generate", "load_dataset",
           "load_datasets", "play_recorded"]

DATASET_FORMAT = 1
KINDS = tuple(k.value for k in DecisionKind)


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
    if learner is not None:
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
    ``game % 2`` against the heuristic and its decisions are labelled with the choices of the
    config's ``dagger_expert``."""
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


