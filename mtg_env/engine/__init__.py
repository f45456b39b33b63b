"""The rules engine: pure Python, no numpy, no RL."""

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
