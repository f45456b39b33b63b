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


def make_agent(spec: str) -> Agent:
    """A new agent from a name with optional parameters: ``random``, ``heuristic``, ``mcts``,
    ``human`` (a person at this terminal),
    ``mcts:ms=200`` (CPU milliseconds per decision), ``mcts:iters=300:depth=30``. Parameters are
    the agent's ``PARAMS`` (``key=value`` pairs separated by ``:``). Raises ``ValueError`` naming the
    choices.

    >>> make_agent("mcts:ms=50").ms
    50.0
    """
    name, *raw = spec.split(":")
    factory = AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r}; choose from {', '.join(agent_names())}")
    params = getattr(factory, "PARAMS", {})
    kwargs: dict[str, object] = {}
    for item in raw:
        key, sep, value = item.partition("=")
        if not sep or key not in params:
            known = ", ".join(f"{k}=..." for k in params) or "none"
            raise ValueError(f"agent {name!r}: bad parameter {item!r}; parameters: {known}")
        attr, kind = params[key]
        try:
            kwargs[attr] = kind(value)
        except ValueError:
            raise ValueError(f"agent {name!r}: {key} must be {kind.__name__}, got {value!r}") from None
    try:
        return factory(**kwargs)
    except ValueError as exc:
        raise ValueError(f"agent {spec!r}: {exc}") from None


__all__ = ["AGENTS", "Agent", "BaseAgent", "EnvPolicy", "HeuristicAgent", "HumanAgent", "MctsAgent",
           "ObservationPolicyAgent", "RandomAgent", "agent_names", "index_texts", "make_agent"]
