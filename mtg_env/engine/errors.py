"""Exceptions raised by the engine. Every one leaves the game state unchanged."""

from __future__ import annotations


class MtgError(Exception):
    """Base class of every error this package raises on bad input."""


class IllegalActionError(MtgError, ValueError):
    """An action that is not among the pending decision's options."""


class UnknownCardError(MtgError, KeyError):
    """A card name that is not in the card registry, which holds every Tenth Edition card (the
    ones the engine can't play yet too: :class:`UnimplementedCardError`)."""

    def __init__(self, name: str, suggestions: list[str] | None = None) -> None:
        self.name = name
        self.suggestions = list(suggestions or [])
        msg = f"unknown card {name!r}: not a Tenth Edition card"
        if self.suggestions:
            msg += "; did you mean " + ", ".join(repr(s) for s in self.suggestions) + "?"
        super().__init__(msg)

    def __str__(self) -> str:  # KeyError would quote the message otherwise
        return str(self.args[0])


class UnimplementedCardError(MtgError, ValueError):
    """A real Tenth Edition card whose rules the engine does not implement yet."""

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        super().__init__(
            "card(s) not implemented yet: " + ", ".join(self.names)
            + " (run `python -m mtg_env.cards` for the coverage list)"
        )


class DeckError(MtgError, ValueError):
    """A deck list that breaks the construction rules or cannot be parsed."""


class PositionError(MtgError, ValueError):
    """A position description that is malformed or breaks the rules."""


class StateError(MtgError, ValueError):
    """A serialized game state that cannot be read back."""


class CardDataError(MtgError, ValueError):
    """A card definition that fails the schema or names an unknown effect."""
