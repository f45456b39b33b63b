"""``SubprocMtgVectorEnv``: the games of a vector env spread over worker processes.

Each worker owns a contiguous slice of the games and writes their observations, masks, rewards
and end flags straight into shared memory, so a step sends only the actions down a pipe and a
short reply back (plus the last observation of any game that ended). Each game is seeded by its
own ``SeedSequence``: the results are the same for any number of workers.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing as mp
import traceback
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from .batch import GameBatch, Opponent, check_actions, check_overflow, reset_seeds
from .sync import MtgVectorEnvBase, seed_sequences, vector_infos


def _arrays(shared: dict[str, Any], n: int, d: int, a: int) -> dict[str, np.ndarray]:
    return {
        "obs": np.frombuffer(shared["obs"], np.float32).reshape(n, d),
        "mask": np.frombuffer(shared["mask"], np.bool_).reshape(n, a),
        "rewards": np.frombuffer(shared["rewards"], np.float64),
        "terminated": np.frombuffer(shared["terminated"], np.bool_),
        "truncated": np.frombuffer(shared["truncated"], np.bool_),
    }


def _worker(conn: Any, lo: int, hi: int, shared: dict[str, Any], shape: tuple[int, int, int],
            seeds: list[np.random.SeedSequence], opponent: Opponent, learner_seat: int | None,
            config: dict[str, Any], capacity_overflow: str) -> None:
    """Run games ``lo:hi`` until told to close."""
    try:
        arr = _arrays(shared, *shape)
        batch = GameBatch(seeds, opponent, learner_seat, config, arr["obs"][lo:hi],
                          arr["mask"][lo:hi], capacity_overflow)
        conn.send(("ok", None))
    except Exception as exc:  # reported to the parent, which raises it
        conn.send(("error", (exc, traceback.format_exc())))
        return
    while True:
        cmd, payload = conn.recv()
        try:
            if cmd == "step":
                finals = batch.step(payload, arr["rewards"][lo:hi], arr["terminated"][lo:hi],
                                    arr["truncated"][lo:hi])
                conn.send(("ok", [(lo + i, o, info) for i, o, info in finals]))
            elif cmd == "reset":
                batch.reset_all(payload)
                conn.send(("ok", None))
            elif cmd == "seats":
                conn.send(("ok", [s.seat for s in batch.slots]))
            elif cmd == "opponents":
                conn.send(("ok", batch.opponents()))
            elif cmd == "set_opponents":
                batch.set_opponents(*payload)
                conn.send(("ok", None))
            elif cmd == "close":
                conn.send(("ok", None))
                return
        except Exception as exc:
            conn.send(("error", (exc, traceback.format_exc())))


class SubprocMtgVectorEnv(MtgVectorEnvBase):
    """Like :class:`~mtg_env.vector.MtgVectorEnv`, with the games split over ``num_workers``
    processes (default: one per CPU core, at most ``num_envs``) that write into shared memory.

    The opponent must be picklable (a name, an agent object, a module-level function, a
    batch policy object or an :class:`~mtg_env.vector.OpponentMix` of those): each worker gets
    its own copy, and a batch policy decides in one call for that worker's games waiting for it
    (so a frozen network runs in the workers). ``context``: the multiprocessing start method
    (``"spawn"`` by default, safe with threads and torch; ``"fork"`` starts faster on Linux).
    ``capacity_overflow`` as for :class:`~mtg_env.vector.MtgVectorEnv`.
    An action that is not legal raises :class:`IllegalActionError` in the parent before any game
    moves.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - gymnasium's API

    def __init__(self, num_envs: int, opponent: Opponent = "random",
                 learner_seat: int | None = None, seed: int | None = None, copy: bool = True,
                 num_workers: int | None = None, context: str = "spawn",
                 capacity_overflow: str = "truncate", **config: Any) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if num_workers is None:
            num_workers = min(num_envs, mp.cpu_count() or 1)
        if not isinstance(num_workers, int) or not 1 <= num_workers <= num_envs:
            raise ValueError(f"num_workers must be between 1 and num_envs ({num_envs}), "
                             f"got {num_workers!r}")
        self._set_spaces(num_envs, copy, config)
        d = self.single_observation_space.shape[0]
        a = int(self.single_action_space.n)
        ctx = mp.get_context(context)
        self._shape = (num_envs, d, a)
        shared = {"obs": ctx.RawArray("b", num_envs * d * 4), "mask": ctx.RawArray("b", num_envs * a),
                  "rewards": ctx.RawArray("b", num_envs * 8),
                  "terminated": ctx.RawArray("b", num_envs), "truncated": ctx.RawArray("b", num_envs)}
        self._arr = _arrays(shared, *self._shape)
        self._seed = seed
        self._started = False
        self._closed = False
        bounds = np.linspace(0, num_envs, num_workers + 1).astype(int)
        self._slices = [(int(lo), int(hi)) for lo, hi in itertools.pairwise(bounds)]
        seeds = seed_sequences(seed, num_envs)
        self._conns = []
        self._procs = []
        for lo, hi in self._slices:
            parent, child = ctx.Pipe()
            p = ctx.Process(target=_worker, daemon=True,
                            args=(child, lo, hi, shared, self._shape, seeds[lo:hi], opponent,
                                  learner_seat, self.config, check_overflow(capacity_overflow)))
            p.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(p)
        try:
            self._gather()
        except BaseException:
            self.close()
            raise

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game everywhere; ``seed`` reseeds every game (``None`` continues)."""
        seeds = reset_seeds(self, seed, options)
        for (lo, hi), c in zip(self._slices, self._conns, strict=True):
            c.send(("reset", None if seeds is None else seeds[lo:hi]))
        self._gather()
        return self._out(), vector_infos(self, self._arr["mask"], [])

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        check_actions(actions, self._arr["mask"])
        for (lo, hi), c in zip(self._slices, self._conns, strict=True):
            c.send(("step", actions[lo:hi]))
        finals = [f for part in self._gather() for f in part]
        arr = self._arr
        return (self._out(), arr["rewards"].copy(), arr["terminated"].copy(),
                arr["truncated"].copy(), vector_infos(self, arr["mask"], finals))

    def action_masks(self) -> np.ndarray:
        """``(num_envs, A)`` bool: the legal actions of each game's pending learner decision."""
        return self._arr["mask"].copy()

    def seats(self) -> np.ndarray:
        """The learner's seat (0 or 1) in each game."""
        for c in self._conns:
            c.send(("seats", None))
        return np.array([s for part in self._gather() for s in part])

    def opponents(self) -> list[str | None]:
        """The opponent (member name) each game is playing this episode."""
        for c in self._conns:
            c.send(("opponents", None))
        return [o for part in self._gather() for o in part]

    def set_opponents(self, weights: Mapping[str, float],
                      add: Mapping[str, Opponent] | None = None) -> None:
        """Draw new episodes' opponents with ``weights`` after adding the members ``add``, in
        every worker (each gets its own copy of the new members; see
        :meth:`~mtg_env.vector.GameBatch.set_opponents`)."""
        for c in self._conns:
            c.send(("set_opponents", (dict(weights), dict(add or {}))))
        self._gather()

    def close_extras(self, **kwargs: Any) -> None:
        if self._closed:
            return
        self._closed = True
        for c in self._conns:
            try:
                c.send(("close", None))
                c.recv()
            except (OSError, EOFError):
                pass
        for p in self._procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()

    def _gather(self) -> list[Any]:
        out = []
        error = None
        for c in self._conns:
            status, payload = c.recv()
            if status == "error" and error is None:
                error = payload
            out.append(payload)
        if error is not None:
            exc, tb = error
            exc.add_note(f"raised in a worker process of SubprocMtgVectorEnv:\n{tb}")
            raise exc
        return out

    def _out(self) -> np.ndarray:
        return self._arr["obs"].copy() if self.copy else self._arr["obs"]

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


__all__ = ["SubprocMtgVectorEnv"]
