"""The effect vocabulary's entry points: the op registry the engine dispatches through, and the
card-language filters and conditions evaluated on dicts (agents' views, run-time specs).

The ops themselves live in :mod:`mtg_env.engine.ops` (each op declaring its parameters; an op
module is named as the topic module whose procedures its ops call, see docs/ARCHITECTURE.md);
filters are compiled by :mod:`mtg_env.engine.filters`, references and amounts by
:mod:`mtg_env.engine.references`, when card data loads. Each op runs as
``OPS[name](game, stack_item, spec)`` where ``spec`` is the effect's dict from card data, e.g.
``{"op": "deal_damage", "amount": 3, "target": 0}``. Ops that need a player's choice push a
frame; the resolution continues with the next op once it is answered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .ability_vocabulary import CONDITIONS
from .errors import MtgError
from .filters import Filter, cached_filter
from .model import Permanent, StackItem
from .ops import OP_DEFS, OPS, op
from .seating import is_active

if TYPE_CHECKING:
    from .game import Game

__all__ = ["OPS", "OP_DEFS", "check_condition", "matches_filter", "op", "run_custom"]

def matches_filter(p: Any, flt: dict[str, Any] | Filter, pl: int) -> bool:
    """Does a permanent (or a view of one) match a card-data filter, from player ``pl``'s side?

    The dict is compiled once (:func:`mtg_env.engine.filters.cached_filter`); ``other`` (a
    property of a reference, not of the object) is ignored here. A bad key raises
    :class:`~mtg_env.engine.errors.CardDataError`.

    >>> from types import SimpleNamespace as P
    >>> bear = P(controller=0, types={"Creature"}, colors={"G"}, subtypes=("Bear",), keywords=set(),
    ...          tapped=False, attacking=False, blocking=[], power=2, supertypes=set())
    >>> matches_filter(bear, {"controller": "you", "type": "Creature", "color": "G"}, 0)
    True
    """
    return cached_filter(flt).test(p, pl)


def check_condition(g: Game, cond: dict[str, Any], pl: int, perm: Permanent | None) -> bool:
    """Is an activated ability's condition (checked at load against
    :data:`~mtg_env.engine.ability_vocabulary.CONDITIONS`) true for player ``pl``?"""
    if "life_at_least" in cond:
        at_least: int = cond["life_at_least"]
        return g.players[pl].life >= at_least
    if "hand_empty" in cond:
        return not g.players[pl].hand
    if "your_upkeep" in cond:
        # "Play this ability only during your upkeep" (Colossus of Sardia).
        return g.step == "upkeep" and is_active(g, pl)
    raise MtgError(f"engine error: unknown condition {cond!r} (known: {sorted(CONDITIONS)})")


def run_custom(g: Game, item: StackItem, name: str) -> None:
    """Run a card's registered Python escape hatch."""
    from .registry import CUSTOM
    fn = CUSTOM.get(name)
    if fn is None:
        raise MtgError(f"engine error: custom card function {name!r} is not registered")
    fn(g, item)
