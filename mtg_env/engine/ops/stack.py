"""Ops on the stack: countering a spell (2007 CR 217.6; a countered spell goes to its owner's
graveyard), where a resolving spell goes, changing a spell's target (Shunt; 2012 114.6a) and
copying a spell (Twincast; 2012 706.10). The procedures are the stack's own
(:func:`~mtg_env.engine.stack.choose_new_targets`,
:func:`~mtg_env.engine.stack.copy_spell`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import stack
from ..layers import fresh
from ..seating import in_range
from . import Args, flag, op, ref

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem


@op("counter_spell", target=ref(required=True))
def counter_spell(g: Game, item: StackItem, a: Args) -> None:
    """Counter each referenced spell."""
    fresh(g)
    for kind, v in a.target(g, item):
        target = stack.find_item(g, v) if kind == "s" else None
        if target is not None:
            if (target.kind == "spell" and target.card is not None
                    and "Creature" in target.card.cdef.types
                    and any(in_range(g, c, target.controller) for c in
                            g.rule_mods.get("creature_spells_cant_be_countered", ())
                            if isinstance(c, int))):
                # Gaea's Herald: "Creature spells can't be countered." (it may still be
                # targeted; the counter does nothing to it).
                g.write_log(f"{target.label} can't be countered")
                continue
            g.write_log(f"{target.label} is countered")
            stack.counter_item(g, target)


@op("shuffle_self_into_library")
def shuffle_self_into_library(g: Game, item: StackItem, a: Args) -> None:
    """As this spell finishes resolving, it is shuffled into its owner's library."""
    item.data.dest = "library_shuffle"


@op("change_target", target=ref(required=True))
def change_target(g: Game, item: StackItem, a: Args) -> None:
    """"Change the target of target spell": this ability's controller changes each target of
    the referenced spell to another legal target, or leaves it unchanged if there is none
    (2012 114.6a; the choice is made on resolution, this spell still on the stack)."""
    for kind, v in a.target(g, item):
        target = stack.find_item(g, v) if kind == "s" else None
        if target is not None and target.targets:
            stack.choose_new_targets(g, target, item.controller, "change", item.label)


@op("copy_spell", target=ref(required=True),
    new_targets=flag("\"You may choose new targets for the copy\" (2012 706.10c)"))
def copy_spell(g: Game, item: StackItem, a: Args) -> None:
    """"Copy target spell": a copy of the referenced spell, controlled by this ability's
    controller, goes on the stack (2012 706.10: same mode, X and targets; not played)."""
    for kind, v in a.target(g, item):
        target = stack.find_item(g, v) if kind == "s" else None
        if target is not None and target.kind == "spell":
            stack.copy_spell(g, target, item.controller, item.label, a.new_targets)
