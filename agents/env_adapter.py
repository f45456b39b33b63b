"""Adapters between engine-view agents and the PettingZoo / Gymnasium env (``mtg_env.env``).

- :class:`EnvPolicy` turns any :class:`~agents.base.Agent` into the ``(observation, mask) -> index``
  policy the env's ``SingleAgentEnv(opponent=...)`` takes, or a policy for an AEC loop: it takes the
  redacted view of the env's underlying game for the deciding player, asks the agent for an engine
  action and maps it back to the env index whose text (``env.action_text(index)``) is the same.
- :class:`ObservationPolicyAgent` goes the other way: an observation policy (say, a trained
  network) playing in the simulator or the CLI, given an ``encode(view)`` function from the env's
  encoder that returns ``(observation, action_mask, legal_texts)``.

The env module is never imported here; these classes only use the attributes named above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mtg_env.engine.actions import Action
from mtg_env.engine.view import PlayerView, view_for

from .base import Agent, BaseAgent, LegalTexts, index_texts

__all__ = ["EnvPolicy", "ObservationPolicyAgent", "find_game"]


def find_game(env: Any) -> Any:
    """The engine :class:`~mtg_env.engine.game.Game` inside an env (through ``.env`` wrappers)."""
    obj = env
    for _ in range(16):
        game = getattr(obj, "game", None)
        if game is not None and hasattr(game, "decision"):
            return game
        nxt = getattr(obj, "env", None) or getattr(obj, "unwrapped", None)
        if nxt is None or nxt is obj:
            break
        obj = nxt
    raise AttributeError("no engine game found on the env (looked for .game through .env/.unwrapped)")


class EnvPolicy:
    """Play an engine-view agent in the env: ``policy(observation, action_mask) -> index``.

    The agent is reset whenever the env's game object changes (a new episode); ``seed`` is the
    agent's seed for that episode.
    """

    def __init__(self, agent: Agent, env: Any, seed: int = 0) -> None:
        self.agent = agent
        self.env = env
        self.seed = seed
        self._game_id: int | None = None

    def __call__(self, observation: Any, action_mask: Sequence[int]) -> int:
        game = find_game(self.env)
        player = game.decision.player
        if id(game) != self._game_id:
            self._game_id = id(game)
            self.agent.reset(player, self.seed)
        texts = {i: self.env.action_text(i) for i, m in enumerate(action_mask) if m}
        return self.agent.act_masked(observation, action_mask, texts, view=view_for(game, player))


class ObservationPolicyAgent(BaseAgent):
    """An observation policy as an engine-view agent.

    ``policy(observation, action_mask) -> index``; ``encode(view) -> (observation, action_mask,
    legal_texts)`` comes from the env's encoder. The index is mapped back to the decision's option
    with the same text.
    """

    name = "policy"

    def __init__(self, policy: Callable[[Any, Sequence[int]], int],
                 encode: Callable[[PlayerView], tuple[Any, Sequence[int], LegalTexts]]) -> None:
        super().__init__()
        self.policy = policy
        self.encode = encode

    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        observation, mask, legal_texts = self.encode(view)
        texts = index_texts(mask, legal_texts)
        index = int(self.policy(observation, mask))
        if index not in texts:
            raise ValueError(f"the policy chose index {index}, which the mask does not allow "
                             f"({d.kind.value} decision: {d.prompt})")
        action = d.find(texts[index])
        if action is None:
            raise ValueError(f"index {index} is {texts[index]!r}, not an option of the "
                             f"{d.kind.value} decision")
        return action

    def act_masked(self, observation: Any, action_mask: Sequence[int], legal_texts: LegalTexts,
                   view: PlayerView | None = None) -> int:
        return int(self.policy(observation, action_mask))
