"""mtg_env: a Magic: The Gathering rules engine (Tenth Edition, 2007 rules) for RL research.

>>> from mtg_env import Deck, Game
>>> deck = Deck.builtin("starter_green")
>>> game = Game.new([deck, Deck.builtin("starter_red")], seed=1)
>>> game.decision.kind.value
'mulligan'
"""

from __future__ import annotations

from . import cards as _cards  # noqa: F401  (registers the card loader)
from .engine import (
    STEPS,
    Action,
    CardDataError,
    Decision,
    DecisionKind,
    DeckError,
    Game,
    IllegalActionError,
    MtgError,
    PositionError,
    StateError,
    UnimplementedCardError,
    UnknownCardError,
)
from .engine.deck import Deck, builtin_names

__version__ = "0.1.0"

__all__ = [
    "STEPS", "Action", "CardDataError", "Decision", "DecisionKind", "Deck", "DeckError", "Game",
    "IllegalActionError", "MtgError", "PositionError", "SingleAgentEnv", "StateError",
    "UnimplementedCardError", "UnknownCardError", "builtin_names", "env", "raw_env",
]

# The RL layer (numpy, gymnasium, pettingzoo) loads on first use, so `import mtg_env` stays light.
_LAZY_ENV = ("env", "raw_env", "SingleAgentEnv")


def __getattr__(name: str) -> object:
    if name in _LAZY_ENV:
        import importlib

        package = importlib.import_module(".env", __name__)  # also binds mtg_env.env (callable)
        return package if name == "env" else getattr(package, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
