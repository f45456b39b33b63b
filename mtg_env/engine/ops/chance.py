"""Chance: flipping a coin (2012 705) with the game's seeded random number generator, so a game
is reproducible from its seed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Args, Param, op, run_effects

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


@op("coin_flip", win=Param("effects", default=(), doc="effects if the controller wins the flip"),
    lose=Param("effects", default=(), doc="effects if the controller loses the flip"))
def coin_flip(g: Game, item: StackItem, a: Args) -> None:
    """The ability's controller flips a coin; the ``win`` or ``lose`` effects follow."""
    won = g.rng.below(2) == 0
    g.write_log(f"player {item.controller} flips a coin and {'wins' if won else 'loses'}")
    run_effects(g, item, a.win if won else a.lose)
