"""The rules engine: pure Python, no numpy, no RL."""

# First: whether the compiled modules or the sources load (compiled.py).
from . import compiled as _compiled  # noqa: F401
from .actions import Action, Decision, DecisionKind
from .errors import (
    CardDataError,
    DeckError,
    IllegalActionError,
    MtgError,
    PositionError,
    StateError,
    UnimplementedCardError,
    UnknownCardError,
)
from .game import STEPS, Game

__all__ = [
    "Action", "Decision", "DecisionKind", "Game", "STEPS", "MtgError", "IllegalActionError",
    "UnknownCardError", "UnimplementedCardError", "DeckError", "PositionError", "StateError",
    "CardDataError",
]
