"""Python escape hatches for cards the effect vocabulary can't say cleanly.

Register a function with :func:`custom`; a card's YAML names it (``spell: {custom: name}`` or
``custom: name`` on an ability). The function gets ``(game, stack_item)`` at resolution.
"""

from __future__ import annotations

from collections.abc import Callable

from mtg_env.engine.registry import CUSTOM


def custom(name: str) -> Callable[[Callable], Callable]:
    """Register ``fn`` under ``name`` for card data to refer to."""

    def deco(fn: Callable) -> Callable:
        CUSTOM[name] = fn
        return fn

    return deco
