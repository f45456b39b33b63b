"""Ops on the stack: countering a spell (2007 CR 217.6; a countered spell goes to its owner's
graveyard) and where a resolving spell goes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import Args, op, ref

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


@op("counter_spell", target=ref(required=True))
def counter_spell(g: Game, item: StackItem, a: Args) -> None:
    """Counter each referenced spell."""
    g._fresh()
    for kind, v in a.target(g, item):
        target = g._item(v) if kind == "s" else None
        if target is not None:
            if (target.kind == "spell" and "Creature" in target.card.cdef.types
                    and g.rule_mods.get("creature_spells_cant_be_countered")):
                # Gaea's Herald: "Creature spells can't be countered." (it may still be
                # targeted; the counter does nothing to it).
                g._log(f"{target.label} can't be countered")
                continue
            g._log(f"{target.label} is countered")
            g._counter(target)


@op("shuffle_self_into_library")
def shuffle_self_into_library(g: Game, item: StackItem, a: Args) -> None:
    """As this spell finishes resolving, it is shuffled into its owner's library."""
    item.data["dest"] = "library_shuffle"
