"""Self-play: the learner plays a pool of its own frozen past policies plus fixed agents.

**The pool** (:class:`OpponentPool`) has permanent members (agent names, by default ``random``
and ``heuristic``; a trained checkpoint ``ppo:PATH`` plays as a frozen policy, sampling unless
``ppo:PATH:deterministic=1``) and up to ``size`` snapshots of the learner. Every ``snapshot_every`` steps
the learner's current weights are frozen into a new snapshot (``snap_<steps>``); when there are
more than ``size``, the oldest is dropped. Each episode's opponent is drawn from the pool by
the game's own RNG (:class:`mtg_env.vector.OpponentMix`), and the game keeps it to the end of
the episode; the learner's seat and the deck pairing are random per episode as always.

**The sampling scheme** (``scheme``):

- ``pfsp`` (prioritised fictitious self-play, as in AlphaStar): member ``o`` is drawn with
  probability proportional to ``max((1 - p_o)^2, floor)``, where ``p_o`` is a running estimate
  of the learner's win probability against ``o``. Opponents the learner still loses to are
  played most; an opponent it always beats keeps weight ``floor`` (default 0.05, i.e. at least
  1/20 of the weight of an unbeaten opponent), so nothing starves and a regression against an
  old opponent is noticed.
- ``uniform``: every member equally often.

``p_o = (w + d/2 + 1) / (n + 2)`` over the games against ``o`` (``w`` wins, ``d`` draws and
turn-limit truncations, ``n`` games), a Beta(1, 1) prior, so a new member starts at 1/2. The counts
decay by ``1 - 1/memory`` at each game against ``o``, so the estimate follows the learner's
last ``memory`` (default 200) games against that member as it improves.

**Where the frozen policies run.** A snapshot is a :class:`FrozenPolicy`: the policy's weights
and constructor arguments as bytes, shipped to whichever process plays the games: the worker
processes of :class:`~mtg_env.vector.SubprocMtgVectorEnv` (``num_workers > 0``; each worker
builds its own torch copy with one thread when it first needs it) or the learner process
(``num_workers: 0``). Each worker decides all of its games that currently wait for the same
snapshot in one batched forward pass (:class:`~mtg_env.vector.BatchPolicy`). Frozen policies
sample from their masked action distribution (``deterministic=False``) with their own seeded RNG
(one per process: games against snapshots repeat for the same seed and number of workers).

**Files** in ``run_dir/pool/``: ``<snapshot>.pt`` (one per live snapshot; a dropped snapshot's
file is deleted) and ``pool.json`` (members, running estimates, episode counts, rewritten after
every rollout); ``run_dir/pool.csv`` gets one row per member per rollout (episodes, wins,
losses, draws and win rate in that rollout, the running ``p_win`` and the sampling probability).
A resumed run (``python -m agents.ppo --resume ...``) reloads the pool from ``pool.json``.
"""

from __future__ import annotations

import io
import json
import math
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mtg_env.vector import OpponentMix

from .training import CsvLog, _callback_base

__all__ = ["POOL_FIELDS", "SCHEMES", "FrozenPolicy", "OpponentPool", "SelfPlayCallback"]

SCHEMES = ("pfsp", "uniform")
POOL_FIELDS = ("timesteps", "wall_s", "opponent", "episodes", "wins", "losses", "draws",
               "win_rate", "p_win", "prob", "total_episodes")
POOL_FORMAT = 1


class FrozenPolicy:
    """A frozen copy of an SB3 policy that decides for a batch of games
    (:class:`~mtg_env.vector.BatchPolicy`).

    It holds the policy's class, constructor arguments and weights as bytes (cheap to pickle to
    worker processes) and builds the torch module on the first :meth:`act_batch` in each process.
    """

    def __init__(self, blob: bytes, name: str = "frozen", deterministic: bool = False,
                 seed: int = 0, threads: int = 1) -> None:
        self.blob = blob
        self.name = name
        self.deterministic = deterministic
        self.seed = seed
        self.threads = threads
        self._policy: Any = None
        self._rng = np.random.default_rng(seed)

    @classmethod
    def from_policy(cls, policy: Any, name: str = "frozen", **kwargs: Any) -> FrozenPolicy:
        """Freeze ``policy`` (an SB3 ``BasePolicy``, e.g. ``model.policy``) as it is now."""
        import torch

        state = {k: v.detach().cpu().clone() for k, v in policy.state_dict().items()}
        buf = io.BytesIO()
        torch.save({"class": f"{type(policy).__module__}.{type(policy).__qualname__}",
                    "data": policy._get_constructor_parameters(), "state_dict": state}, buf)
        return cls(buf.getvalue(), name, **kwargs)

    @classmethod
    def from_file(cls, path: str | Path, name: str | None = None, **kwargs: Any) -> FrozenPolicy:
        """A snapshot written by :meth:`save`."""
        path = Path(path)
        return cls(path.read_bytes(), name or path.stem, **kwargs)

    def save(self, path: str | Path) -> Path:
        """Write the snapshot (written to a temporary name, then renamed)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(self.blob)
        os.replace(tmp, path)
        return path

    @property
    def policy(self) -> Any:
        """The torch policy (built on first use in this process, in eval mode)."""
        if self._policy is None:
            import torch

            from .checkpoint import _import

            torch.set_num_threads(self.threads)
            saved = torch.load(io.BytesIO(self.blob), map_location="cpu", weights_only=False)
            policy = _import(saved["class"])(**saved["data"])
            policy.load_state_dict(saved["state_dict"])
            policy.set_training_mode(False)
            self._policy = policy
        return self._policy

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One legal index per row: the most likely one (``deterministic``) or a sample from the
        masked action distribution (Gumbel-max over the legal logits)."""
        import torch

        policy = self.policy
        with torch.inference_mode():
            obs_t = torch.as_tensor(observations, dtype=torch.float32)
            net = getattr(policy, "net", None)
            if net is not None:  # agents.policy_net.MtgPolicy: the logits straight from its net
                logits = net(obs_t)[0].numpy().astype(np.float64)
            else:
                dist = policy.get_distribution(obs_t, action_masks=masks)
                logits = dist.distribution.logits.numpy().astype(np.float64)
        masks = np.asarray(masks, dtype=bool)
        logits = np.where(masks, logits, -np.inf)
        if not self.deterministic:
            logits = logits + self._rng.gumbel(size=logits.shape)
        return logits.argmax(axis=1)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_policy"] = None  # each process builds its own module from the bytes
        return state

    def __repr__(self) -> str:
        return f"FrozenPolicy({self.name!r}, {len(self.blob)} bytes)"


class _Member:
    """A pool member and its statistics."""

    def __init__(self, name: str, spec: str | None, steps: int | None = None) -> None:
        self.name = name
        self.spec = spec  # the agent name of a permanent member; None for a snapshot
        self.steps = steps  # the learner's steps when a snapshot was taken
        self.w = self.d = self.n = 0.0  # decayed wins, draws, games (the running estimate)
        self.episodes = self.wins = self.losses = self.draws = 0  # all-time counts
        self.rollout = [0, 0, 0]  # wins, losses, draws since the last rollout row

    @property
    def permanent(self) -> bool:
        return self.spec is not None

    def p_win(self) -> float:
        return (self.w + 0.5 * self.d + 1.0) / (self.n + 2.0)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "spec": self.spec, "steps": self.steps, "w": self.w,
                "d": self.d, "n": self.n, "episodes": self.episodes, "wins": self.wins,
                "losses": self.losses, "draws": self.draws}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> _Member:
        m = cls(data["name"], data.get("spec"), data.get("steps"))
        for key in ("w", "d", "n"):
            setattr(m, key, float(data.get(key, 0.0)))
        for key in ("episodes", "wins", "losses", "draws"):
            setattr(m, key, int(data.get(key, 0)))
        return m


class OpponentPool:
    """Permanent agent members plus up to ``size`` frozen snapshots of the learner, with a
    per-member running win-rate estimate and a sampling scheme (see the module docstring).

    ``directory`` holds the snapshots and ``pool.json``; :meth:`load` restores a saved pool.
    """

    def __init__(self, directory: str | Path, members: Sequence[str] = ("random", "heuristic"),
                 size: int = 8, scheme: str = "pfsp", floor: float = 0.05, memory: int = 200,
                 seed: int = 0) -> None:
        if scheme not in SCHEMES:
            raise ValueError(f"pool scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
        if size < 1:
            raise ValueError(f"the pool needs room for at least one snapshot, got size={size}")
        if not 0.0 < floor <= 1.0:
            raise ValueError(f"the pool floor must be in (0, 1], got {floor}")
        if memory < 1:
            raise ValueError(f"the pool memory must be at least 1 game, got {memory}")
        if len(set(members)) != len(members):
            raise ValueError(f"pool members repeat: {list(members)}")
        self.directory = Path(directory)
        self.size = size
        self.scheme = scheme
        self.floor = floor
        self.memory = memory
        self.seed = seed
        self.members: dict[str, _Member] = {m: _Member(m, m) for m in members}
        self.snapshots: dict[str, FrozenPolicy] = {}
        self._checkpoints: dict[str, FrozenPolicy] = {}  # ppo:PATH members, loaded once

    # -- sampling -------------------------------------------------------------------------
    def weights(self) -> dict[str, float]:
        """The sampling probability of each member (they sum to 1)."""
        if self.scheme == "uniform":
            raw = dict.fromkeys(self.members, 1.0)
        else:
            raw = {n: max((1.0 - m.p_win()) ** 2, self.floor) for n, m in self.members.items()}
        total = sum(raw.values())
        return {n: w / total for n, w in raw.items()}

    def p_win(self) -> dict[str, float]:
        """The running estimate of the learner's win probability against each member."""
        return {n: m.p_win() for n, m in self.members.items()}

    def mix(self) -> OpponentMix:
        """Every member as an :class:`~mtg_env.vector.OpponentMix` with the current weights."""
        return OpponentMix({n: self._opponent(n) for n in self.members}, self.weights())

    def _opponent(self, name: str) -> Any:
        m = self.members[name]
        if not m.permanent:
            return self.snapshots[name]
        if m.spec.startswith("ppo:"):  # a trained checkpoint: batched like a snapshot
            frozen = self._checkpoints.get(name)
            if frozen is None:
                from .checkpoint import load_checkpoint
                from .policy_agent import parse_ppo_spec

                spec = parse_ppo_spec(m.spec[len("ppo:"):])
                model, _ = load_checkpoint(spec["path"])
                frozen = self._checkpoints[name] = FrozenPolicy.from_policy(
                    model.policy, name, deterministic=spec.get("deterministic", False),
                    seed=self.seed)
            return frozen
        return m.spec

    # -- results --------------------------------------------------------------------------
    def record(self, opponent: str, winner: int, seat: int) -> None:
        """Count one finished episode of the learner (in ``seat``) against ``opponent``
        (``winner`` -1 for a draw or truncation). Episodes against a member that has left the
        pool are ignored."""
        m = self.members.get(opponent)
        if m is None:
            return
        keep = 1.0 - 1.0 / self.memory
        m.w, m.d, m.n = m.w * keep, m.d * keep, m.n * keep + 1.0
        m.episodes += 1
        if winner < 0:
            m.d += 1.0
            m.draws += 1
            m.rollout[2] += 1
        elif winner == seat:
            m.w += 1.0
            m.wins += 1
            m.rollout[0] += 1
        else:
            m.losses += 1
            m.rollout[1] += 1

    def rollout_rows(self) -> list[dict[str, Any]]:
        """One row per member (see ``POOL_FIELDS``, without ``timesteps``/``wall_s``) for the
        episodes since the previous call, which resets those counts."""
        probs = self.weights()
        rows = []
        for name, m in self.members.items():
            w, lo, d = m.rollout
            decisive = w + lo
            rows.append({"opponent": name, "episodes": w + lo + d, "wins": w, "losses": lo,
                         "draws": d, "win_rate": w / decisive if decisive else math.nan,
                         "p_win": m.p_win(), "prob": probs[name], "total_episodes": m.episodes})
            m.rollout = [0, 0, 0]
        return rows

    # -- snapshots ------------------------------------------------------------------------
    def add_snapshot(self, policy: Any, steps: int) -> tuple[str, list[str]]:
        """Freeze ``policy`` (taken at ``steps``) into the pool as ``snap_<steps>`` and save it;
        returns its name and the names of the snapshots dropped to keep ``size``."""
        name = f"snap_{steps}"
        if name in self.members:
            return name, []
        frozen = FrozenPolicy.from_policy(policy, name, seed=self.seed + steps)
        frozen.save(self.directory / f"{name}.pt")
        self.snapshots[name] = frozen
        self.members[name] = _Member(name, None, steps)
        dropped = []
        while len(self.snapshots) > self.size:
            old = min(self.snapshots, key=lambda n: self.members[n].steps or 0)
            del self.snapshots[old]
            del self.members[old]
            dropped.append(old)
        return name, dropped

    def delete_files(self, names: Sequence[str]) -> None:
        """Remove the snapshot files of ``names`` (members that have left the pool)."""
        for name in names:
            (self.directory / f"{name}.pt").unlink(missing_ok=True)

    # -- persistence ----------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"format": POOL_FORMAT, "size": self.size, "scheme": self.scheme,
                "floor": self.floor, "memory": self.memory, "seed": self.seed,
                "members": [m.to_json() for m in self.members.values()]}

    def save(self) -> Path:
        """Write ``pool.json`` (atomically) into the pool directory."""
        path = self.directory / "pool.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".pool.json.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.state(), indent=1))
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, directory: str | Path, **overrides: Any) -> OpponentPool:
        """The pool saved in ``directory`` (snapshots read from their files). ``overrides``
        (``size``, ``scheme``, ``floor``, ``memory``) replace the saved settings; a smaller
        ``size`` drops the oldest snapshots at the next :meth:`add_snapshot`."""
        directory = Path(directory)
        data = json.loads((directory / "pool.json").read_text())
        if data.get("format") != POOL_FORMAT:
            raise ValueError(f"{directory / 'pool.json'}: unknown pool format {data.get('format')!r}")
        settings = {k: data[k] for k in ("size", "scheme", "floor", "memory", "seed")}
        settings.update({k: v for k, v in overrides.items() if v is not None})
        pool = cls(directory, members=(), **settings)
        for raw in data["members"]:
            m = _Member.from_json(raw)
            if not m.permanent:
                path = directory / f"{m.name}.pt"
                if not path.is_file():
                    raise FileNotFoundError(f"pool snapshot {str(path)!r} listed in pool.json is "
                                            "missing")
                pool.snapshots[m.name] = FrozenPolicy.from_file(path, m.name,
                                                                seed=pool.seed + (m.steps or 0))
            pool.members[m.name] = m
        return pool

    @classmethod
    def for_run(cls, directory: str | Path, resume: bool, members: Sequence[str], size: int,
                scheme: str, floor: float, memory: int, seed: int) -> OpponentPool:
        """The pool of a training run: restored from ``directory`` when resuming (and a
        ``pool.json`` is there; permanent members named in ``members`` but missing from it are
        added), else a new one (stale snapshot files of an earlier run in ``directory`` are
        removed)."""
        directory = Path(directory)
        if resume and (directory / "pool.json").is_file():
            pool = cls.load(directory, size=size, scheme=scheme, floor=floor, memory=memory)
            for name in members:
                pool.members.setdefault(name, _Member(name, name))
            return pool
        if directory.is_dir():
            for stale in directory.glob("snap_*.pt"):
                stale.unlink()
            (directory / "pool.json").unlink(missing_ok=True)
        return cls(directory, members, size, scheme, floor, memory, seed)


def _vector_env(env: Any) -> Any:
    """The mtg_env vector env under SB3's wrappers (the one with ``set_opponents``)."""
    obj = env
    for _ in range(8):
        if hasattr(obj, "set_opponents"):
            return obj
        obj = getattr(obj, "venv", None)
        if obj is None:
            break
    raise TypeError("the training env is not an mtg_env vector env (no set_opponents)")


class SelfPlayCallback(_callback_base()):  # type: ignore[misc]
    """Runs the pool during ``model.learn``: counts each finished episode against its
    opponent, snapshots the learner every ``snapshot_every`` steps (and at the start, if the
    pool has no snapshot yet), sends the new weights and members to the env after every
    rollout, and logs ``pool.csv`` and ``pool.json``. ``wall_offset``: seconds already spent by
    a resumed run."""

    def __init__(self, pool: OpponentPool, snapshot_every: int, log_path: str | Path,
                 wall_offset: float = 0.0, verbose: int = 0) -> None:
        super().__init__(verbose)
        if snapshot_every < 1:
            raise ValueError(f"pool_snapshot_every must be at least 1, got {snapshot_every}")
        self.pool = pool
        self.snapshot_every = snapshot_every
        self.log = CsvLog(log_path, POOL_FIELDS)
        self.wall_offset = wall_offset
        self._t0 = 0.0
        self._next = 0

    def _on_training_start(self) -> None:
        self._t0 = time.perf_counter()
        steps = [m.steps or 0 for m in self.pool.members.values() if not m.permanent]
        if not steps:
            self._snapshot()
        last = max(steps) if steps else self.num_timesteps
        self._next = (last // self.snapshot_every + 1) * self.snapshot_every
        self.pool.save()

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            if "winner" in info and "opponent" in info:
                self.pool.record(str(info["opponent"]), int(info["winner"]), int(info["seat"]))
        return True

    def _on_rollout_end(self) -> None:
        wall = self.wall_offset + time.perf_counter() - self._t0
        for row in self.pool.rollout_rows():
            self.log.write({"timesteps": self.num_timesteps, "wall_s": wall, **row})
        if self.num_timesteps >= self._next:
            self._snapshot()
            self._next = (self.num_timesteps // self.snapshot_every + 1) * self.snapshot_every
        else:
            _vector_env(self.training_env).set_opponents(self.pool.weights())
        self.pool.save()
        if self.verbose:
            probs = self.pool.weights()
            print(f"[{self.num_timesteps}] pool: " + ", ".join(
                f"{n} p_win={m.p_win():.2f} prob={probs[n]:.2f}"
                for n, m in self.pool.members.items()), flush=True)

    def _snapshot(self) -> None:
        if f"snap_{self.num_timesteps}" in self.pool.members:
            return
        name, dropped = self.pool.add_snapshot(self.model.policy, self.num_timesteps)
        _vector_env(self.training_env).set_opponents(self.pool.weights(),
                                                     add={name: self.pool.snapshots[name]})
        self.pool.delete_files(dropped)  # the envs hold the dropped snapshots' bytes
