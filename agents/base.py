"""The :class:`Agent` protocol and the adapters between its two entry points.

An agent plays one seat of one game at a time. It has two ways to be asked for a move:

- :meth:`Agent.act` takes a :class:`~mtg_env.engine.view.PlayerView` (the redacted engine view of
  the game for the agent's player, with the pending decision) and returns one of the decision's
  :class:`~mtg_env.engine.actions.Action` options. This is what the CLI and the simulator use.
- :meth:`Agent.act_masked` takes an env observation, its action mask and the env's texts of the
  legal indices and returns an index. Agents that reason about the game (like
  :class:`~agents.heuristic.HeuristicAgent`) need the engine view for that too: pass ``view=``;
  the chosen action is then mapped back to its index through the legal texts.

:class:`BaseAgent` implements ``act_masked`` on top of ``act`` that way, so a subclass only writes
``act``. Agents never see the :class:`~mtg_env.engine.game.Game` itself.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from mtg_env.engine.actions import Action
from mtg_env.engine.view import PlayerView

__all__ = ["Agent", "BaseAgent", "LegalTexts", "index_texts"]

# The env's texts of the legal indices: {index: text}, or a sequence aligned with the mask (one
# entry per index), or the texts of the legal indices in ascending index order.
LegalTexts = Mapping[int, str] | Sequence[str]


@runtime_checkable
class Agent(Protocol):
    """What the simulator, the CLI and the env adapters need from a player."""

    name: str

    def reset(self, player: int, seed: int) -> None:
        """Start a new game in seat ``player``; ``seed`` drives any randomness of the agent."""

    def act(self, view: PlayerView) -> Action:
        """Choose one of ``view.decision.options``."""

    def act_masked(self, observation: Any, action_mask: Sequence[int], legal_texts: LegalTexts,
                   view: PlayerView | None = None) -> int:
        """Choose an env action index whose mask entry is 1."""


def index_texts(action_mask: Sequence[int], legal_texts: LegalTexts) -> dict[int, str]:
    """``{index: engine text}`` for every legal index of an env action mask.

    >>> index_texts([0, 1, 0, 1], ["pass", "play Forest"])
    {1: 'pass', 3: 'play Forest'}
    >>> index_texts([0, 1, 1], {1: "keep", 2: "mulligan"})
    {1: 'keep', 2: 'mulligan'}
    """
    legal = [i for i, m in enumerate(action_mask) if m]
    if isinstance(legal_texts, Mapping):
        return {i: str(legal_texts[i]) for i in legal if i in legal_texts}
    texts = list(legal_texts)
    if len(texts) == len(action_mask) and len(texts) != len(legal):
        return {i: str(texts[i]) for i in legal}
    if len(texts) != len(legal):
        raise ValueError(f"legal_texts has {len(texts)} entries but the mask has {len(legal)} legal "
                         f"indices (and {len(action_mask)} in all)")
    return dict(zip(legal, (str(t) for t in texts), strict=True))


class BaseAgent:
    """Common plumbing: a name, ``reset`` bookkeeping and ``act_masked`` through the engine view.

    ``unmapped`` counts env decisions where the engine action the agent chose had no legal index
    with the same text (the agent then takes the lowest legal index).
    """

    name = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.player = 0
        self.seed = seed
        self.unmapped = 0
        self.rng = random.Random(seed)  # the agent's own randomness, reseeded every game

    def reset(self, player: int, seed: int) -> None:
        self.player = player
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def act_masked(self, observation: Any, action_mask: Sequence[int], legal_texts: LegalTexts,
                   view: PlayerView | None = None) -> int:
        texts = index_texts(action_mask, legal_texts)
        if not texts:
            raise ValueError("the action mask has no legal index")
        if view is None or view.decision is None:
            raise ValueError(f"{type(self).__name__} decides from the engine view: pass "
                             "view=mtg_env.engine.view.view_for(game, player) for the deciding player")
        chosen = self.act(view).text
        for i, t in texts.items():
            if t == chosen:
                return i
        self.unmapped += 1
        return min(texts)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
