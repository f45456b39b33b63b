"""The uniformly random baseline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtg_env.engine.actions import Action
from mtg_env.engine.view import PlayerView

from .base import BaseAgent, LegalTexts, index_texts

__all__ = ["RandomAgent"]


class RandomAgent(BaseAgent):
    """Picks uniformly among the legal options, from its own seeded RNG.

    Note that under the 2007 rules a random player also taps lands for mana at random and then
    loses life to mana burn; that is part of what this baseline measures.

    >>> from mtg_env import Deck, Game
    >>> from mtg_env.engine.view import view_for
    >>> g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=3)
    >>> agent = RandomAgent()
    >>> agent.reset(g.decision.player, seed=7)
    >>> agent.act(view_for(g, g.decision.player)).text in ("keep", "mulligan")
    True
    """

    name = "random"
    multiplayer = True  # it reads only the options, so it plays a table of any size

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)

    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        return d.options[self.rng.randrange(len(d.options))]

    def act_masked(self, observation: Any, action_mask: Sequence[int], legal_texts: LegalTexts | None = None,
                   view: PlayerView | None = None) -> int:
        """Uniform over the mask's legal indices (texts and view are not needed)."""
        legal = [i for i, m in enumerate(action_mask) if m]
        if legal_texts is not None:
            index_texts(action_mask, legal_texts)  # validates the shapes agree
        if not legal:
            raise ValueError("the action mask has no legal index")
        return legal[self.rng.randrange(len(legal))]
