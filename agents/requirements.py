"""The optional extras an agent needs, checked before any game starts.

The networks (``ppo:PATH``, ``trained``, ``mcts:net=...``) need PyTorch and sb3-contrib, the
``[rl]`` extra; building such an agent only reads its checkpoint's metadata, so without the
extra the first game (often in a worker process, pairings later) would die on
``ModuleNotFoundError: No module named 'torch'``. :func:`check_agent_extras` says so in one
line instead, as the ``ray`` backend does for Ray::

    >>> check_agent_extras("heuristic")  # needs nothing beyond the base install
    >>> needs_rl("mcts:net=trained"), needs_rl("mcts:ms=200")
    (True, False)
"""

from __future__ import annotations

import importlib.util

RL_MODULES = ("torch", "stable_baselines3", "sb3_contrib")
"""The modules of the ``[rl]`` extra (``pip install 'mtg_env[rl]'``)."""

RL_INSTALL = "pip install 'mtg_env[rl]'"


class MissingExtraError(ValueError):
    """An agent needs an optional extra that isn't installed (the message is one line)."""


def missing_modules(modules: tuple[str, ...] = RL_MODULES) -> list[str]:
    """The ``modules`` that can't be imported here (not installed, or blocked)."""
    out = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a broken install or a module without a spec
            found = False
        if not found:
            out.append(name)
    return out


def needs_rl(spec: str) -> bool:
    """Does the agent named by ``spec`` (as :func:`agents.make_agent` takes it) play with a
    network: ``ppo:PATH``, ``trained``, ``mcts:net=...`` (``net=`` not empty)?"""
    name, *params = spec.strip().split(":")
    name = name.strip()
    if name in ("ppo", "trained"):
        return True
    if name == "mcts":
        return any(p.partition("=")[0].strip() == "net" and p.partition("=")[2].strip()
                   for p in params)
    return False


def extra_error(spec: str) -> str | None:
    """The one-line error for an agent whose extra is missing, or None when it can play."""
    if needs_rl(spec) and missing_modules():
        return f"agent {spec!r} needs the [rl] extra: {RL_INSTALL}"
    return None


def check_agent_extras(spec: str) -> None:
    """Raise :class:`MissingExtraError` when the agent named by ``spec`` needs an extra that
    isn't installed (before any game, so no work is lost)."""
    msg = extra_error(spec)
    if msg is not None:
        raise MissingExtraError(msg)
