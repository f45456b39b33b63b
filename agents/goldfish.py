"""The goldfish: an opponent that does nothing, for testing how fast a deck kills.

:class:`GoldfishAgent` passes priority, attacks and blocks with nothing, keeps its opening hand,
declines every "may" and otherwise takes the first (smallest) legal choice. Paired with the
engine's goldfish option (``Game.new(..., goldfish=seat)``: that seat doesn't lose for 0 or less
life or an empty library, 2007 CR 420.5a and 420.5g), which the recording play loop
(:func:`mtg_env.sim.replay.record_game`) turns on for a seat whose agent has ``goldfish = True``,
the game goes on past the "kill" and records the turn the goldfish's life first reached 0
(``mtg-env goldfish DECK`` measures its distribution over many games).
"""

from __future__ import annotations

from mtg_env.engine.actions import Action
from mtg_env.engine.view import PlayerView

from .base import BaseAgent

__all__ = ["GoldfishAgent"]

# The do-nothing answer of each kind of decision, best first.
_NOTHING = ("pass", "done", "keep", "no")


class GoldfishAgent(BaseAgent):
    """Takes no action: passes, declares no attackers or blockers, keeps, says no to every
    optional choice, else picks the first legal option (the smallest X, the first card).

    >>> from mtg_env import Game
    >>> from mtg_env.engine.view import view_for
    >>> g = Game.new(["starter_green", "starter_red"], seed=3)
    >>> agent = GoldfishAgent()
    >>> agent.reset(g.decision.player, seed=0)
    >>> agent.act(view_for(g, g.decision.player)).text
    'keep'
    """

    name = "goldfish"
    goldfish = True  # the play loop gives this seat the engine's goldfish option

    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        for verb in _NOTHING:
            for o in d.options:
                if o.verb == verb:
                    return o
        return d.options[0]  # X values are offered from 0 up
