"""The core of the vector envs: a batch of games written into caller-owned arrays.

:class:`GameBatch` steps ``n`` games for one learner seat each, plays the opponent's decisions
(batched when the opponent is a batch policy), resets finished games at once and writes every
learner observation and action mask into rows of arrays it is given. The in-process vector env
owns those arrays; each worker of the multi-process one writes into its slice of shared memory.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from mtg_env.engine.actions import Action
from mtg_env.engine.errors import IllegalActionError
from mtg_env.env.aec import AGENTS, MtgEnv


@runtime_checkable
class BatchPolicy(Protocol):
    """An opponent that decides for several games at once (e.g. a frozen copy of the learner
    for self-play): ``act_batch(observations (k, D) float32, masks (k, A) bool) -> (k,) ints``."""

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> Sequence[int]: ...


Opponent = str | Callable[[np.ndarray, np.ndarray], int] | BatchPolicy | Any


def check_config(config: dict[str, Any]) -> dict[str, Any]:
    """The env config of every game of a vector env: flat observations are required."""
    if config.get("flatten", True) is not True:
        raise ValueError("vector envs need flat observations: leave flatten=True")
    if "render_mode" in config and config["render_mode"] is not None:
        raise ValueError("vector envs don't render; use SingleAgentEnv or the AEC env to watch a game")
    return {**config, "flatten": True}


class _Slot:
    """One game of the batch and what belongs to it."""

    __slots__ = ("env", "rng", "seat", "agent", "ret", "length")

    def __init__(self, env: MtgEnv, rng: np.random.Generator, agent: Any) -> None:
        self.env = env
        self.rng = rng
        self.seat = 0
        self.agent = agent
        self.ret = 0.0
        self.length = 0


class GameBatch:
    """``len(seeds)`` games against ``opponent``, writing into ``obs`` (n, D) and ``mask`` (n, A).

    ``opponent``: ``"random"`` (uniform over the legal actions), an agent name of the ``agents``
    package or an agent object (one copy per game), a policy ``(observation, mask) -> index``, or
    a :class:`BatchPolicy`. ``learner_seat``: 0, 1 or None (random per episode). Each game draws
    its randomness from its own ``numpy.random.SeedSequence``, so a game's course depends only on
    its seed, not on how games are split over processes.
    """

    def __init__(self, seeds: Sequence[np.random.SeedSequence], opponent: Opponent,
                 learner_seat: int | None, config: dict[str, Any], obs: np.ndarray,
                 mask: np.ndarray) -> None:
        if learner_seat not in (None, 0, 1):
            raise ValueError(f"learner_seat must be 0, 1 or None, got {learner_seat!r}")
        self.learner_seat = learner_seat
        self.obs = obs
        self.mask = mask
        self._batch_policy = isinstance(opponent, BatchPolicy) and not isinstance(opponent, str)
        self._random = opponent == "random"
        template = _agent(opponent)
        self._agent_like = template is not None
        self._policy = None if (self._random or self._agent_like or self._batch_policy) else opponent
        if not (self._random or self._agent_like or self._batch_policy or callable(opponent)):
            raise TypeError(f"opponent {opponent!r} is neither 'random', an agent, a policy nor "
                            "a batch policy")
        self._opponent = opponent
        self.slots = [
            _Slot(MtgEnv(**config), np.random.default_rng(s),
                  copy.deepcopy(template) if template is not None else None)
            for s in seeds]
        self._scratch_obs: np.ndarray | None = None
        self._scratch_mask: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.slots)

    # -- episodes -----------------------------------------------------------------------
    def reset_all(self, seeds: Sequence[np.random.SeedSequence] | None = None) -> None:
        """Start a new game in every slot (reseeding the slots first when ``seeds`` is given)."""
        if seeds is not None:
            for slot, s in zip(self.slots, seeds, strict=True):
                slot.rng = np.random.default_rng(s)
        for i in range(len(self.slots)):
            self._new_game(i)
        self._play_opponents(list(range(len(self.slots))), None)
        for i in range(len(self.slots)):
            self._write(i)

    def step(self, actions: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
             truncated: np.ndarray) -> list[tuple[int, np.ndarray, dict[str, Any]]]:
        """Apply one learner action per game, let the opponents answer, and reset the games
        that ended. Returns ``(slot, final observation, final info)`` of each ended game; the
        rows of ``obs``/``mask`` then hold the new game's first observation."""
        self.check_actions(actions)
        rewards[:] = 0.0
        for i, slot in enumerate(self.slots):
            env = slot.env
            env.step(int(actions[i]))
            rewards[i] = env.rewards[AGENTS[slot.seat]]
            slot.length += 1
        self._play_opponents(list(range(len(self.slots))), rewards)
        finals = []
        for i, slot in enumerate(self.slots):
            env = slot.env
            me = AGENTS[slot.seat]
            slot.ret += float(rewards[i])
            terminated[i] = env.terminations[me]
            truncated[i] = env.truncations[me]
            if terminated[i] or truncated[i]:
                final = np.empty_like(self.obs[i])
                env.observer.observe_into(env.game, slot.seat, final, self.mask[i])
                g = env.game
                finals.append((i, final, {
                    "winner": -1 if g.winner is None else int(g.winner),
                    "end_reason": g.end_reason, "seat": slot.seat, "decks": env.deck_names,
                    "return": slot.ret, "length": slot.length}))
                self._new_game(i)
                self._play_opponents([i], None)
            self._write(i)
        return finals

    def check_actions(self, actions: np.ndarray) -> None:
        """Raise :class:`IllegalActionError` (before any game moves) if an action is not legal
        in its game."""
        check_actions(actions, self.mask)

    # -- internals ----------------------------------------------------------------------
    def _new_game(self, i: int) -> None:
        slot = self.slots[i]
        slot.env.reset(seed=int(slot.rng.integers(0, 2**63 - 1)))
        slot.seat = (int(slot.rng.integers(2)) if self.learner_seat is None
                     else self.learner_seat)
        slot.ret = 0.0
        slot.length = 0
        if slot.agent is not None and hasattr(slot.agent, "reset"):
            slot.agent.reset(1 - slot.seat, int(slot.rng.integers(0, 2**31 - 1)))

    def _write(self, i: int) -> None:
        slot = self.slots[i]
        slot.env.observer.observe_into(slot.env.game, slot.seat, self.obs[i], self.mask[i])

    def _waiting(self, i: int) -> bool:
        slot = self.slots[i]
        env = slot.env
        return not env.game.is_over and env.agent_selection != AGENTS[slot.seat]

    def _play_opponents(self, pending: list[int], rewards: np.ndarray | None) -> None:
        """Let the opponents decide until every game of ``pending`` waits for its learner or
        is over; the learner's rewards meanwhile are added to ``rewards``."""
        pending = [i for i in pending if self._waiting(i)]
        while pending:
            for i, a in zip(pending, self._opponent_actions(pending), strict=True):
                slot = self.slots[i]
                if isinstance(a, Action):
                    slot.env.apply_option(a)
                else:
                    slot.env.step(int(a))
                if rewards is not None:
                    rewards[i] += slot.env.rewards[AGENTS[slot.seat]]
            pending = [i for i in pending if self._waiting(i)]

    def _opponent_actions(self, pending: list[int]) -> list[int | Action]:
        if self._batch_policy:
            k = len(pending)
            if self._scratch_obs is None or self._scratch_obs.shape[0] < k:
                self._scratch_obs = np.empty((len(self.slots), self.obs.shape[1]), np.float32)
                self._scratch_mask = np.empty((len(self.slots), self.mask.shape[1]), np.bool_)
            o, m = self._scratch_obs[:k], self._scratch_mask[:k]
            for row, i in enumerate(pending):
                slot = self.slots[i]
                slot.env.observer.observe_into(slot.env.game, 1 - slot.seat, o[row], m[row])
            return [int(a) for a in self._opponent.act_batch(o, m)]
        out: list[int | Action] = []
        for i in pending:
            slot = self.slots[i]
            env = slot.env
            if self._random:  # uniform over the options is uniform over the legal indices
                options = env.game.decision.options
                out.append(options[int(slot.rng.integers(len(options)))])
                continue
            o = env.observe(AGENTS[1 - slot.seat])
            if self._agent_like:
                from mtg_env.engine.view import view_for

                texts = {j: a.text for j, a in env.observer.legal(env.game).items()}
                out.append(slot.agent.act_masked(o["observation"], o["action_mask"], texts,
                                                 view=view_for(env.game, 1 - slot.seat)))
            else:
                out.append(self._policy(o["observation"], o["action_mask"]))
        return out


def check_actions(actions: np.ndarray, mask: np.ndarray) -> None:
    """Raise :class:`IllegalActionError` unless ``actions`` holds one legal index per row of
    ``mask`` (checked before any game moves, so a refused step changes nothing)."""
    n, size = mask.shape
    if np.shape(actions) != (n,):
        raise IllegalActionError(f"expected {n} actions (one per game), got shape "
                                 f"{np.shape(actions)}")
    for i in range(n):
        a = actions[i]
        if not (0 <= a < size) or a != int(a) or not mask[i, int(a)]:
            legal = ", ".join(str(j) for j in np.flatnonzero(mask[i]))
            raise IllegalActionError(f"game {i}: action {a!r} is not legal; legal indices: {legal}")


def reset_seeds(venv: Any, seed: int | None,
                options: dict[str, Any] | None) -> list[np.random.SeedSequence] | None:
    """The per-game seeds of a vector env's ``reset`` (None: continue each game's RNG); the
    first reset without a seed uses the constructor's."""
    if options:
        raise ValueError(f"{type(venv).__name__}.reset takes no options; set decks in the config")
    if seed is None and not venv._started:
        seed = venv._seed
    venv._started = True
    return None if seed is None else np.random.SeedSequence(seed).spawn(venv.num_envs)


def _agent(opponent: Opponent) -> Any:
    """The agent object to copy per game, or None when ``opponent`` is not an agent."""
    if isinstance(opponent, str):
        if opponent == "random":
            return None
        from mtg_env.env.single import _agent_by_name

        return _agent_by_name(opponent)
    return opponent if hasattr(opponent, "act_masked") else None


__all__ = ["BatchPolicy", "GameBatch", "Opponent", "check_actions", "check_config", "reset_seeds"]
