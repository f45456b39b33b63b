"""Deck resolution for the simulator and the CLI."""

from __future__ import annotations

from functools import lru_cache

from ..engine.deck import (
    STARTER_DECKS,
    THEME_DECKS,
    Deck,
    builtin_names,
    load_deck,  # a Deck, a built-in deck name or a deck file path: the env's loader too
)
from ..engine.errors import MtgError

__all__ = ["STARTER_DECKS", "THEME_DECKS", "default_deck_names", "load_deck", "loadable_builtin_names"]


@lru_cache(maxsize=1)
def loadable_builtin_names() -> tuple[str, ...]:
    """The built-in decks whose every card the engine implements."""
    out = []
    for name in builtin_names():
        try:
            Deck.builtin(name)
        except MtgError:
            continue
        out.append(name)
    return tuple(out)


def default_deck_names() -> list[str]:
    """The decks simulations use by default: the five Tenth Edition theme decks when they all
    load, else the starter decks."""
    loadable = set(loadable_builtin_names())
    if all(n in loadable for n in THEME_DECKS):
        return list(THEME_DECKS)
    return [n for n in STARTER_DECKS if n in loadable]
