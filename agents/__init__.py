"""Baseline agents for mtg_env: :class:`RandomAgent`, :class:`HeuristicAgent`, the search
:class:`MctsAgent` (with heuristic rollouts, or guided by a network: ``mcts:net=trained``),
:class:`HumanAgent`, a person at the terminal, :class:`GoldfishAgent`, an opponent that does
nothing (deck testing), :class:`PPOAgent`, a trained policy checkpoint
(``ppo:PATH``), and :class:`TrainedAgent`, the network shipped with the package (``trained``).

Every agent follows the :class:`Agent` protocol (``reset``, ``act`` on a redacted engine view,
``act_masked`` on an env observation + action mask); :func:`make_agent` builds one by name.
Importing the package registers those names with :mod:`mtg_env.agent_registry`, through which
mtg_env's env, vector envs and simulations build agents by name.

>>> sorted(AGENTS)
['goldfish', 'heuristic', 'human', 'mcts', 'random', 'trained']
>>> make_agent("heuristic").name
'heuristic'
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent, BaseAgent, index_texts
from .env_adapter import EnvPolicy, ObservationPolicyAgent
from .goldfish import GoldfishAgent
from .heuristic import HeuristicAgent
from .human import HumanAgent
from .mcts import MctsAgent
from .policy_agent import PPOAgent, TrainedAgent
from .random_agent import RandomAgent
from .requirements import check_agent_extras

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "goldfish": GoldfishAgent,
    "human": HumanAgent,
    "mcts": MctsAgent,
    "trained": TrainedAgent,
}
"""The agents built by name alone (parameters optional)."""

FILE_AGENTS: dict[str, Callable[..., Agent]] = {
    "ppo": PPOAgent,
}
"""The agents that need a file: ``NAME:PATH[:key=value...]`` (each class's ``parse_spec`` reads
what follows ``NAME:``; see :mod:`agents.policy_agent` for the path rule)."""


def agent_names() -> list[str]:
    """The names :func:`make_agent` accepts (``ppo:PATH`` for the agents that need a file)."""
    return sorted(AGENTS) + [f"{n}:PATH" for n in sorted(FILE_AGENTS)]


def make_agent(spec: str) -> Agent:
    """A new agent from a name with optional parameters: ``random``, ``heuristic``, ``mcts``,
    ``human`` (a person at this terminal), ``trained`` (the network shipped with the package),
    ``mcts:ms=200`` (CPU milliseconds per decision), ``mcts:iters=300:depth=30``,
    ``mcts:net=trained`` (the search guided by the shipped network; ``net=PATH`` for another
    checkpoint, whose path can't contain ``:``). Parameters are
    the agent's ``PARAMS`` (``key=value`` pairs separated by ``:``). A trained policy:
    ``ppo:PATH`` or ``ppo:PATH:deterministic=0`` (everything up to the trailing known
    ``key=value`` parameters is the path, so it may contain ``:``). Raises ``ValueError`` naming
    the choices, a :class:`~agents.checkpoint.CheckpointError` (a ``ValueError``) for a
    missing or mismatching checkpoint, or a :class:`~agents.requirements.MissingExtraError` (a
    ``ValueError``) for a network agent without the ``[rl]`` extra.

    >>> make_agent("mcts:ms=50").ms
    50.0
    """
    check_agent_extras(spec)
    name, *raw = spec.split(":")
    file_agent = FILE_AGENTS.get(name)
    if file_agent is not None:
        kwargs_f = file_agent.parse_spec(spec[len(name) + 1:])  # type: ignore[attr-defined]
        return file_agent(**kwargs_f)
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


def _register() -> None:
    """Register every agent name with mtg_env's registry, so the env's opponents and the
    simulations build them by name without importing this package."""
    from mtg_env.agent_registry import register_agent_factory

    for name in AGENTS:
        register_agent_factory(name, make_agent, replace=True)
    for name in FILE_AGENTS:
        register_agent_factory(name, make_agent, usage=f"{name}:PATH", replace=True)


_register()

__all__ = ["AGENTS", "FILE_AGENTS", "Agent", "BaseAgent", "EnvPolicy", "GoldfishAgent", "HeuristicAgent",
           "HumanAgent", "MctsAgent", "ObservationPolicyAgent", "PPOAgent", "RandomAgent", "TrainedAgent",
           "agent_names", "index_texts", "make_agent"]
