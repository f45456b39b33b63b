"""Baseline agents for mtg_env: :class:`RandomAgent`, :class:`HeuristicAgent`, the search
baseline :class:`MctsAgent`, and :class:`HumanAgent`, a person at the terminal.

Every agent follows the :class:`Agent` protocol (``reset``, ``act`` on a redacted engine view,
``act_masked`` on an env observation + action mask); :func:`make_agent` builds one by name.

>>> sorted(AGENTS)
['heuristic', 'human', 'mcts', 'random']
>>> make_agent("heuristic").name
'heuristic'
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent, BaseAgent, index_texts
from .env_adapter import EnvPolicy, ObservationPolicyAgent
from .heuristic import HeuristicAgent
from .human import HumanAgent
from .mcts import MctsAgent
from .random_agent import RandomAgent

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "human": HumanAgent,
    "mcts": MctsAgent,
}


def agent_names() -> list[str]:
    """The names :func:`make_agent` accepts."""
    return sorted(AGENTS)


def make_agent(name: str) -> Agent:
    """A new agent by name (``random``, ``heuristic``, ``mcts``, ``human``: a person at this
    terminal); raises ``ValueError`` naming the choices."""
    factory = AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r}; choose from {', '.join(agent_names())}")
    return factory()


__all__ = ["AGENTS", "Agent", "BaseAgent", "EnvPolicy", "HeuristicAgent", "HumanAgent", "MctsAgent",
           "ObservationPolicyAgent", "RandomAgent", "agent_names", "index_texts", "make_agent"]
