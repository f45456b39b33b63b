"""The PettingZoo AEC environment and a single-agent Gymnasium wrapper.

``mtg_env.env(**config)`` / ``mtg_env.raw_env(**config)`` / ``mtg_env.SingleAgentEnv``; the
spaces, rewards and config are documented in :mod:`mtg_env.env.aec` and ``docs/env.md``.

This package shares its name with the ``env()`` factory, so the package itself is callable:
``mtg_env.env(**config)`` works whether ``mtg_env.env`` was reached as the package or through
``mtg_env``'s lazy attribute.

>>> import mtg_env
>>> e = mtg_env.env(seed=0, max_turns=3)
>>> e.reset(seed=0)
>>> e.agent_selection in e.agents
True
"""

import sys
import types
from typing import Any

from .aec import AGENTS, IllegalActionWarning, MtgEnv, env, raw_env
from .config import STARTER_DECKS, THEME_DECKS, EnvConfig, default_deck_names
from .single import SingleAgentEnv

__all__ = [
    "AGENTS", "STARTER_DECKS", "THEME_DECKS", "EnvConfig", "IllegalActionWarning", "MtgEnv",
    "SingleAgentEnv", "default_deck_names", "env", "raw_env",
]


class _CallablePackage(types.ModuleType):
    """``mtg_env.env`` is both this package and the ``env()`` factory."""

    def __call__(self, **config: Any) -> Any:
        return env(**config)


sys.modules[__name__].__class__ = _CallablePackage
