"""``MtgVectorEnv``: N games stepped in one process into preallocated batch arrays.

>>> from mtg_env.vector import MtgVectorEnv
>>> venv = MtgVectorEnv(4, seed=0, max_turns=5)
>>> obs, info = venv.reset(seed=0)
>>> obs.shape == (4, venv.single_observation_space.shape[0]), venv.action_masks().shape[0]
(True, 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from mtg_env.env.aec import AGENTS, MtgEnv

from .batch import GameBatch, Opponent, check_config, reset_seeds


def spaces_for(config: dict[str, Any]) -> tuple[spaces.Box, spaces.Discrete]:
    """The single observation and action spaces of games built with ``config``."""
    probe = MtgEnv(**config)
    return (probe.observation_space(AGENTS[0])["observation"],
            probe.action_space(AGENTS[0]))


def seed_sequences(seed: int | None, n: int) -> list[np.random.SeedSequence]:
    """One independent seed sequence per game."""
    return np.random.SeedSequence(seed).spawn(n)


class MtgVectorEnvBase(VectorEnv):
    """What :class:`MtgVectorEnv` and :class:`~mtg_env.vector.SubprocMtgVectorEnv` share: the
    checked env config, the ``copy`` option and the spaces."""

    config: dict[str, Any]
    copy: bool

    def _set_spaces(self, num_envs: int, copy: bool, config: dict[str, Any]) -> None:
        """Check the env ``config``; set it, ``num_envs``, ``copy`` and the single and batched
        observation and action spaces of ``num_envs`` games built with it."""
        self.config = check_config(config)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space, self.single_action_space = spaces_for(self.config)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)


class MtgVectorEnv(MtgVectorEnvBase):
    """``num_envs`` games in this process, one learner seat each, as a Gymnasium vector env.

    Observations are ``(num_envs, D)`` float32 (the flat observation of ``raw_env(flatten=True)``)
    and the legal actions a ``(num_envs, A)`` bool array from :meth:`action_masks` (also in
    ``info["action_mask"]``). Each step applies one learner action per game, plays the opponent's
    decisions until every game waits for its learner again, and resets finished games at once
    (``autoreset_mode`` SAME_STEP: the last observation of a finished game is in
    ``info["final_obs"]``, its outcome in ``info["final_info"]`` with ``winner``, ``end_reason``,
    ``seat``, ``return`` and ``length``). Rewards are the learner's (+1 win, -1 loss, 0 draw or
    truncation, plus shaping if configured).

    ``opponent``: ``"random"``, an agent name (``"heuristic"``...), an agent object (copied per
    game), a policy ``(observation, mask) -> index``, or a :class:`~mtg_env.vector.BatchPolicy`
    deciding for all waiting games in one call (self-play against a frozen network), or an
    :class:`~mtg_env.vector.OpponentMix` of those drawn per episode (:meth:`set_opponents`
    changes the mix between steps).
    ``learner_seat``: 0, 1 or None (random per episode). ``copy=False`` returns the internal
    observation buffer (valid until the next ``step``/``reset``) instead of a copy.
    ``capacity_overflow="truncate"`` (the default) ends a game whose position outgrows the
    observation's capacities as truncated (``end_reason`` ``"capacity"``, the error's text in
    ``capacity_error``), so a rare position can't stop a training run; ``"raise"`` raises the
    :class:`~mtg_env.encoding.CapacityError`. An action the mask forbids raises
    :class:`~mtg_env.engine.errors.IllegalActionError` before any game moves: a vector env
    trains masked policies, so it takes only ``illegal_action="raise"`` (see
    :func:`~mtg_env.vector.batch.check_config`). Other keyword arguments are the env config
    (:class:`~mtg_env.env.config.EnvConfig`).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - gymnasium's API

    def __init__(self, num_envs: int, opponent: Opponent = "random",
                 learner_seat: int | None = None, seed: int | None = None, copy: bool = True,
                 capacity_overflow: str = "truncate", **config: Any) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self._set_spaces(num_envs, copy, config)
        d = self.single_observation_space.shape[0]
        self._obs = np.zeros((num_envs, d), np.float32)
        self._mask = np.zeros((num_envs, int(self.single_action_space.n)), np.bool_)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._seed = seed
        self._batch = GameBatch(seed_sequences(seed, num_envs), opponent, learner_seat,
                                self.config, self._obs, self._mask, capacity_overflow)
        self._started = False

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game everywhere; ``seed`` reseeds every game (``None`` continues)."""
        self._batch.reset_all(reset_seeds(self, seed, options))
        return self._out(self._obs), self._infos([])

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        finals = self._batch.step(np.asarray(actions), self._rewards, self._terminated,
                                  self._truncated)
        return (self._out(self._obs), self._rewards.copy(), self._terminated.copy(),
                self._truncated.copy(), self._infos(finals))

    def action_masks(self) -> np.ndarray:
        """``(num_envs, A)`` bool: the legal actions of each game's pending learner decision."""
        return self._mask.copy()

    def seats(self) -> np.ndarray:
        """The learner's seat (0 or 1) in each game."""
        return np.array([s.seat for s in self._batch.slots])

    def opponents(self) -> list[str | None]:
        """The opponent (member name) each game is playing this episode."""
        return self._batch.opponents()

    def set_opponents(self, weights: Mapping[str, float],
                      add: Mapping[str, Opponent] | None = None) -> None:
        """Draw new episodes' opponents with ``weights`` after adding the members ``add``
        (see :meth:`GameBatch.set_opponents`); running episodes keep their opponent."""
        self._batch.set_opponents(weights, add)

    def games(self) -> list[Any]:
        """The engine games being played (for debugging and tests)."""
        return [s.env.game for s in self._batch.slots]

    def close_extras(self, **kwargs: Any) -> None:
        pass

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _infos(self, finals: list[tuple[int, np.ndarray, dict[str, Any]]]) -> dict[str, Any]:
        return vector_infos(self, self._mask, finals)


def vector_infos(venv: VectorEnv, mask: np.ndarray,
                 finals: list[tuple[int, np.ndarray, dict[str, Any]]]) -> dict[str, Any]:
    """Gymnasium vector infos: the action masks, plus ``final_obs``/``final_info`` of ended games."""
    infos: dict[str, Any] = {"action_mask": mask.copy(),
                             "_action_mask": np.ones(len(mask), np.bool_)}
    for i, final_obs, final_info in finals:
        infos = venv._add_info(infos, {"final_obs": final_obs, "final_info": final_info}, i)
    return infos


__all__ = ["MtgVectorEnv", "MtgVectorEnvBase", "seed_sequences", "spaces_for", "vector_infos"]
