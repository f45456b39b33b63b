"""Which cards this engine can't yet read with several opponents.

A card's effects name players by words (:mod:`mtg_env.engine.references`): ``controller``,
``each_player``, ``each_opponent``, ``opponent``... In a two-player game ``opponent`` is the one
other player. With several opponents a text such as "each other player may put a creature card
from his or her hand into play" (Hunted Wumpus: ``each_opponent``) and "target opponent
sacrifices a creature" (Cruel Edict: a target) mean different things, so card data whose effect
names ``opponent`` as one player can't say which: a multiplayer game refuses a deck holding such
a card, naming it (2012 800.1; a card that is not read correctly is reported, never played
wrong). No Tenth Edition card's data does; a user's card data might. Filters that test a player
or an object against "an opponent" (``controller: opponent``, a trigger's ``whose: opponent``)
read the same for any number of players (and teams: see ``seating.TEAM_SIZE``) and are not
counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .model import CardDef

# The effect keys whose value is a player word (references.py); ``opponent`` there names one player.
_PLAYER_KEYS = frozenset({"who", "target", "chooser", "to", "player", "whose", "controller_of"})
# Sub-mappings that are filters (they test "is an opponent", which holds for any number).
_FILTER_KEYS = frozenset({"filter", "count", "per", "affects", "if", "condition"})


def _effect_dicts(cdef: CardDef) -> Iterable[Any]:
    yield from cdef.spell_effects or ()
    yield from cdef.modes or ()
    for ab in cdef.activated:
        yield from ab.effects
    for t in (*cdef.triggered, *cdef.zone_triggered):
        yield from t.effects
    for s in cdef.static:
        yield s.params


def _reads_one_opponent(v: Any) -> bool:
    if isinstance(v, dict):
        for k, x in v.items():
            if k in _FILTER_KEYS:
                continue
            if k in _PLAYER_KEYS and x == "opponent":
                return True
            if _reads_one_opponent(x):
                return True
        return False
    if isinstance(v, (list, tuple)):
        return any(_reads_one_opponent(x) for x in v)
    return False


def reads_one_opponent(cdef: CardDef) -> bool:
    """Whether ``cdef``'s effects name "the opponent" as one player (two-player wording)."""
    return any(_reads_one_opponent(e) for e in _effect_dicts(cdef))


def not_multiplayer_ready(names: Iterable[CardDef]) -> list[str]:
    """The names among ``names`` a multiplayer game can't play yet, sorted, each once."""
    return sorted({c.name for c in names if reads_one_opponent(c)})
