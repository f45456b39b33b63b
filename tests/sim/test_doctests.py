"""The examples in the docstrings of the agents and simulation modules run (pytest only collects
doctests under tests/)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["agents", "agents.base", "agents.random_agent", "agents.human", "mtg_env.engine.view",
           "mtg_env.env.board", "mtg_env.sim", "mtg_env.sim.runner", "mtg_env.sim.stats",
           "mtg_env.sim.ratings", "mtg_env.sim.pod_tournament", "mtg_env.sim.replay", "agents.requirements",
           "mtg_env.agent_registry", "agents.training_common", "mtg_env.cards.keyword_values"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
