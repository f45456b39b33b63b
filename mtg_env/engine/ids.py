"""New object ids and timestamps: the two counters of a game's objects.

2007 CR 217.1c: an object that moves from one zone to another becomes a new object, with a new
id here; 2012 613.6: continuous effects in one layer apply in timestamp order, and a permanent or
an effect gets its timestamp as it comes into play or begins. A module of its own, importing
nothing from the engine, so every rules module can use it without an import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def new_object_id(g: Game) -> int:
    """A new object id: a permanent, a stack object or a card each get one (2007 CR 217.1c: an
    object that changes zones becomes a new object)."""
    g.next_id += 1
    return g.next_id - 1


def next_timestamp(g: Game) -> int:
    """The next timestamp (2012 613.6: continuous effects of one layer apply in timestamp order;
    a permanent gets one as it comes into play, an effect as it begins)."""
    g.ts += 1
    return g.ts
