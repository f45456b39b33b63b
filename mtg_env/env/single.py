"""A single-agent Gymnasium view of the game for stable-baselines3 and sb3-contrib.

The learner plays one seat (random per episode by default), the opponent plays the other: the
opponent's decisions are made inside :meth:`SingleAgentEnv.step` until the learner must decide
again or the game ends.

>>> env = SingleAgentEnv(opponent="random", seed=3, flatten=True, max_turns=5)
>>> obs, info = env.reset(seed=3)
>>> obs.shape == env.observation_space.shape, env.action_masks().dtype
(True, dtype('bool'))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from mtg_env.agent_registry import agent_specs, make_agent

from .aec import AGENTS, MtgEnv
from .config import ILLEGAL_ACTION_MODES

Policy = Callable[[Any, np.ndarray], int]


class SingleAgentEnv(gym.Env):
    """``gymnasium.Env`` for one learner against a fixed opponent.

    ``opponent``: ``"random"`` (uniform over the legal actions, seeded by the env), the spec of
    another agent as :func:`mtg_env.agent_registry.make_agent` takes it (``"heuristic"``,
    ``"mcts:iters=3"``, ``"ppo:PATH"`` for a trained checkpoint), a policy
    ``(observation, action_mask) -> index``, or an agent object with
    ``act_masked(observation, action_mask, legal_texts, view=...)`` (the ``agents`` package's
    protocol; it gets the redacted engine view of its seat and is
    ``reset(seat, seed)`` each episode). ``learner_seat``: 0, 1 or None (random per episode).
    ``illegal_action``: ``"loss"`` (the default, as in the AEC env and PettingZoo's classic
    games): an index the mask forbids ends the episode as the learner's loss (reward -1,
    terminated, an :class:`~mtg_env.env.aec.IllegalActionWarning`, ``info["illegal_action"]``
    naming the index and the decision), so unmasked algorithms and the env checkers of Gymnasium
    and Stable-Baselines3 run; ``"raise"`` raises ``IllegalActionError`` instead, leaving the
    game unchanged. The mode governs the learner's actions only: the opponent is part of the
    environment, so an opponent policy or agent that picks a forbidden index raises
    ``IllegalActionError`` (a bug in it, not a game for the learner to win). An action outside
    the action space raises either way. Other keyword arguments are the AEC env's config (see
    :class:`~mtg_env.env.config.EnvConfig`).

    Opponent names other than ``"random"`` are built by :func:`mtg_env.agent_registry.make_agent`
    (the ``agents`` package registers its agents there), so this module does not import the
    layer above the env.

    Observations are the learner's ``"observation"`` entry; the action mask is in
    ``info["action_mask"]`` and :meth:`action_masks` (for ``MaskablePPO``). The reward is the
    learner's: +1 win, -1 loss, 0 draw; truncated when ``max_turns`` is reached.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, opponent: str | Policy | Any = "random", learner_seat: int | None = None,
                 illegal_action: str = "loss", **config: Any) -> None:
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be 'loss' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if learner_seat not in (None, 0, 1):
            raise ValueError(f"learner_seat must be 0, 1 or None, got {learner_seat!r}")
        if config.get("num_players", 2) != 2:
            raise ValueError(f"SingleAgentEnv plays two-player games (the learner against one "
                             f"opponent), got num_players={config['num_players']!r}; use the AEC "
                             "env (mtg_env.env(num_players=...)) for multiplayer games")
        self.aec = MtgEnv(illegal_action=illegal_action, **config)
        self.render_mode = self.aec.render_mode
        self.observation_space = self.aec.observation_space(AGENTS[0])["observation"]
        self.action_space = self.aec.action_space(AGENTS[0])
        self.learner_seat = learner_seat
        self.seat = 0
        if isinstance(opponent, str) and opponent != "random":
            opponent = opponent_from_spec(opponent)
        self._opponent = opponent
        self._random_opponent = isinstance(opponent, str)
        self._agent_like = not self._random_opponent and hasattr(opponent, "act_masked")
        if not self._random_opponent and not self._agent_like and not callable(opponent):
            raise TypeError(f"opponent {opponent!r} is neither a policy nor an agent")
        self._mask: np.ndarray | None = None
        self._seeded = False
        self._seed = config.get("seed")

    # -- gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict | None = None) -> tuple[Any, dict[str, Any]]:
        if seed is None and not self._seeded:
            seed = self._seed
        super().reset(seed=seed)
        self._seeded = True
        aec_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.aec.reset(seed=aec_seed, options=options)
        self.seat = (int(self.np_random.integers(2)) if self.learner_seat is None
                     else self.learner_seat)
        if self._agent_like and hasattr(self._opponent, "reset"):
            self._opponent.reset(1 - self.seat, int(self.np_random.integers(0, 2**31 - 1)))
        self._play_opponent()  # the game can't end before both players kept their hands
        return self._observe()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        me = AGENTS[self.seat]
        if aec.terminations[me] or aec.truncations[me]:
            raise RuntimeError("the episode is over: call reset()")
        aec.step(action)  # an illegal index raises or ends the game, as illegal_action says
        reward = aec.rewards[me]
        reward += self._play_opponent()
        obs, info = self._observe()
        return (obs, float(reward), bool(aec.terminations[me]), bool(aec.truncations[me]), info)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool array (``MaskablePPO`` reads this)."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask.astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    @property
    def game(self) -> Any:
        """The engine game being played (for debugging and agent adapters)."""
        return self.aec.game

    def action_text(self, index: int) -> str:
        return self.aec.action_text(index)

    # -- internals ---------------------------------------------------------------------
    def _observe(self) -> tuple[Any, dict[str, Any]]:
        aec = self.aec
        me = AGENTS[self.seat]
        o = aec.observe(me)
        self._mask = o["action_mask"]
        info = dict(aec.infos.get(me, {}))
        info["action_mask"] = o["action_mask"]
        info["seat"] = self.seat
        info["decks"] = aec.deck_names if self.seat == 0 else aec.deck_names[::-1]
        return o["observation"], info

    def _play_opponent(self) -> float:
        """Let the opponent act until the learner decides or the game ends; return the
        learner's reward collected meanwhile."""
        aec = self.aec
        me = AGENTS[self.seat]
        them = AGENTS[1 - self.seat]
        game = aec.game
        reward = 0.0
        while not game.is_over and aec.agent_selection == them:
            if self._random_opponent:  # uniform over the options = uniform over legal indices
                options = game.decision.options
                aec.apply_option(options[int(self.np_random.integers(len(options)))])
                reward += aec.rewards[me]
                continue
            else:
                o = aec.observe(them)
                if self._agent_like:
                    from mtg_env.engine.view import view_for

                    texts = {i: a.text for i, a in aec.observer.legal(game).items()}
                    action = self._opponent.act_masked(o["observation"], o["action_mask"], texts,
                                                       view=view_for(game, 1 - self.seat))
                else:
                    action = self._opponent(o["observation"], o["action_mask"])
            aec.step_strict(action)  # the opponent is part of the env: its mistakes are bugs
            reward += aec.rewards[me]
        return reward


def opponent_from_spec(spec: str) -> Any:
    """A new opponent agent from a spec such as ``"heuristic"``, ``"mcts:iters=3"`` or
    ``"ppo:PATH"``, built by :func:`mtg_env.agent_registry.make_agent`; a ``ValueError`` says
    what an opponent can be when the spec names no registered agent or is malformed."""
    try:
        return make_agent(spec)
    except ValueError as exc:  # an unknown name or parameter, a missing or mismatching checkpoint
        raise ValueError(f"bad opponent {spec!r}: {exc}; give 'random', an agent name "
                         f"({', '.join(agent_specs())}), a policy (observation, mask) -> index, "
                         "or an agent object") from None


__all__ = ["SingleAgentEnv", "opponent_from_spec"]
