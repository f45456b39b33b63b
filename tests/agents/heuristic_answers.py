"""The heuristic's answer to a scenario's pending decision, for its scenario tests."""

from __future__ import annotations

from agents import HeuristicAgent
from mtg_env.engine.view import view_for
from mtg_env.testing import Scenario


def heuristic_answer(s: Scenario) -> str:
    """The text of the option the heuristic picks for the pending decision (strict: an internal
    error is raised, not covered by a fallback)."""
    pl = s.game.decision.player
    agent = HeuristicAgent(strict=True)
    agent.reset(pl, 0)
    a = agent.act(view_for(s.game, pl))
    assert a in s.game.decision.options
    return a.text
