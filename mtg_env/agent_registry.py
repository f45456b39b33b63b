"""Agents by name: how mtg_env builds the agents it does not define.

The env's opponents (``SingleAgentEnv(opponent="heuristic")``), the vector envs' opponents and
the simulations' players (``run_matchup(agents="mcts:ms=200")``) can be given as a *spec*: a
name, optionally followed by ``:`` and what that agent reads from the rest (``mcts:ms=200``,
``ppo:PATH``). The name picks a factory registered here with :func:`register_agent_factory`,
and :func:`make_agent` calls it with the whole spec.

The baseline agents live in the ``agents`` package, a layer above mtg_env (engine <- cards <-
encoding <- env <- agents / sim / CLI): mtg_env never imports it statically. ``agents``
registers its names when it is imported; and when :func:`make_agent` meets a name nobody
registered, the registry imports the module :data:`DEFAULT_PROVIDER` (``"agents"``) by name,
once, and looks again. That fallback is what makes ``make_agent("heuristic")`` work in a fresh
worker process or a script that never imported ``agents``. It was chosen over a
``[project.entry-points]`` group because ``agents`` ships in the same distribution as mtg_env
(there is nothing to discover), and entry points are read from installed metadata: they would
miss a source checkout on ``sys.path`` and go stale in an editable install until it is
reinstalled. Other packages add agents by calling :func:`register_agent_factory` themselves.

>>> make_agent("heuristic").name
'heuristic'
>>> make_agent("nobody:x=1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mtg_env.agent_registry.UnknownAgentError: unknown agent 'nobody:x=1': ... known: goldfish, heuristic, ...
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_PROVIDER", "AgentFactory", "UnknownAgentError", "agent_specs", "make_agent",
           "register_agent_factory", "unregister_agent_factory"]

DEFAULT_PROVIDER = "agents"
"""The module imported (once, by name) when a spec names no registered agent."""

AgentFactory = Callable[[str], Any]
"""Builds a new agent from the whole spec (``"mcts:ms=200"``, not just ``"mcts"``)."""


class UnknownAgentError(ValueError):
    """No factory is registered for the name of an agent spec."""


@dataclass(frozen=True)
class _Entry:
    factory: AgentFactory
    usage: str


_FACTORIES: dict[str, _Entry] = {}
_provider_tried = False


def register_agent_factory(name: str, factory: AgentFactory, *, usage: str | None = None,
                           replace: bool = False) -> None:
    """Make :func:`make_agent` build specs named ``name`` (the text before the first ``:``)
    with ``factory(spec)``. ``usage`` is how the name is listed in messages (default ``name``;
    e.g. ``"ppo:PATH"`` for an agent that needs a file). Registering a name again with another
    factory raises ``ValueError`` unless ``replace`` is true."""
    if not name or ":" in name:
        raise ValueError(f"an agent name must be non-empty and without ':', got {name!r}")
    if not callable(factory):
        raise TypeError(f"the factory for agent {name!r} must be callable, got {factory!r}")
    old = _FACTORIES.get(name)
    if old is not None and old.factory is not factory and not replace:
        raise ValueError(f"agent {name!r} is already registered (by {old.factory!r}); "
                         "pass replace=True to replace it")
    _FACTORIES[name] = _Entry(factory, usage or name)


def unregister_agent_factory(name: str) -> None:
    """Forget the factory of ``name`` (nothing happens if none is registered)."""
    _FACTORIES.pop(name, None)


def agent_specs() -> list[str]:
    """The registered names as messages list them (``ppo:PATH`` for an agent that needs a file),
    sorted; the default provider is imported first if it was not tried yet."""
    _load_default_provider()
    return sorted(e.usage for e in _FACTORIES.values())


def make_agent(spec: str) -> Any:
    """A new agent from ``spec`` (``"heuristic"``, ``"mcts:ms=200"``, ``"ppo:PATH"``): the
    factory registered for its name builds it. Raises :class:`UnknownAgentError` (a
    ``ValueError``) naming the spec and the known names when nothing is registered for that name,
    and passes on the factory's own errors (``ValueError`` for a bad parameter or checkpoint)."""
    if not isinstance(spec, str):
        raise TypeError(f"an agent spec must be a string, got {spec!r}")
    name = spec.split(":", 1)[0]
    entry = _FACTORIES.get(name)
    if entry is None:
        _load_default_provider()
        entry = _FACTORIES.get(name)
    if entry is None:
        known = ", ".join(agent_specs()) or (
            f"none (no agent is registered, and the {DEFAULT_PROVIDER!r} package that registers "
            "the baseline agents could not be imported)")
        raise UnknownAgentError(f"unknown agent {spec!r}: no agent factory is registered for "
                                f"{name!r}; known: {known}")
    return entry.factory(spec)


def _load_default_provider() -> None:
    """Import :data:`DEFAULT_PROVIDER` once, so it registers its agents; a missing provider is
    not an error here (the caller reports the unknown name), a broken one is raised."""
    global _provider_tried
    if _provider_tried:
        return
    _provider_tried = True
    try:
        importlib.import_module(DEFAULT_PROVIDER)
    except ModuleNotFoundError as exc:
        if exc.name != DEFAULT_PROVIDER:
            raise
