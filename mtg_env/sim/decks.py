"""Deck resolution for the simulator and the CLI."""

from __future__ import annotations

from functools import lru_cache

from ..engine.deck import (
    STARTER_DECKS,
    THEME_DECKS,
    Deck,
    builtin_name,
    builtin_names,
    unknown_builtin_message,
)
from ..engine.errors import MtgError

__all__ = ["STARTER_DECKS", "THEME_DECKS", "default_deck_names", "load_deck", "loadable_builtin_names"]



def load_deck(spec: str | Deck) -> Deck:
    """A built-in deck name or a path to a deck file (a :class:`Deck` passes through).

    Raises :class:`~mtg_env.MtgError` with a one-line message saying what to fix.
    """
    if isinstance(spec, Deck):
        return spec
    if builtin_name(spec) is not None:  # any case: Kamahls_Temper
        return Deck.builtin(spec)
    if spec.endswith(".txt") or "/" in spec or "\\" in spec:
        return Deck.from_file(spec)
    raise MtgError(unknown_builtin_message(spec, "unknown deck")
                   + "; `mtg-env decks` describes them; or give a path to a deck file")


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
