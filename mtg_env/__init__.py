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
    "Action", "Deck", "Decision", "DecisionKind", "Game", "STEPS", "builtin_names",
    "MtgError", "IllegalActionError", "UnknownCardError", "UnimplementedCardError", "DeckError",
    "PositionError", "StateError", "CardDataError",
]
