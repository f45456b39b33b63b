"""Test helpers that need the agents package (``mtg_env.testing`` is engine-only): what the
heuristic player would choose in a scenario."""

from __future__ import annotations

from agents import HeuristicAgent
from mtg_env.engine.view import view_for
from mtg_env.testing import Scenario


def heuristic_choice(s: Scenario) -> str:
    """The text of the option a strict :class:`HeuristicAgent` picks for the pending decision,
    seated as the deciding player (strict: a fallback to a random option raises)."""
    agent = HeuristicAgent(strict=True)
    agent.reset(s.game.decision.player, 0)
    return agent.act(view_for(s.game, s.game.decision.player)).text
