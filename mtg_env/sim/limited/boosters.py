"""Tenth Edition booster packs and sealed pools, from a seed.

Collation (Tenth Edition, released July 2007): the set has 383 cards, 121 rares, 121
uncommons, 121 commons and 20 basic lands (four printings each of Plains, Island, Swamp,
Mountain and Forest, collector numbers 364-383). Its 368 distinct names are the cards of
``mtg_env/cards/data/facts.json``, where each card carries its ``rarity``; the five basic land
names are marked ``common`` there and are kept apart here. A booster holds 15 cards, as the
core sets from Seventh to Tenth Edition did: 1 rare, 3 uncommons, 10 commons and 1 basic land
in place of the eleventh common.

Each slot draws uniformly from the cards of its rarity, without repeats inside a booster (no
two copies of one common in a pack); the basic land slot picks one of the 20 land printings,
so each basic land name comes up one time in five. Two simplifications, stated plainly:

- Premium (foil) cards are not modelled. In Tenth Edition a foil card of any rarity replaced a
  common in some boosters; here every booster has its ten commons.
- The print sheets are not modelled: real boosters were cut from sheets in which each card
  appears a fixed number of times in a fixed order; here every card of a rarity is equally
  likely in every booster, independently of the others.

>>> b = open_booster(7)
>>> len(b), [rarity_of(n) for n in b].count("common")
(15, 10)
>>> open_booster(7) == b
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from ...cards.loader import load_facts
from ..runner import derive_seed

__all__ = ["BASIC_LANDS", "BOOSTER_SIZE", "COLLATION", "SEALED_BOOSTERS", "Booster", "open_booster",
           "rarity_of", "sealed_pool", "set_cards"]

BASIC_LANDS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
COLLATION: tuple[tuple[str, int], ...] = (("rare", 1), ("uncommon", 3), ("common", 10), ("basic", 1))
"""The slots of a Tenth Edition booster, in the order a booster lists them: ``(rarity, cards)``."""
BOOSTER_SIZE = sum(n for _, n in COLLATION)
SEALED_BOOSTERS = 6
"""Boosters in a sealed pool: six boosters, 90 cards."""

Booster = list[str]
"""The card names of one booster, in slot order (rare, uncommons, commons, basic land)."""


@functools.lru_cache(maxsize=1)
def set_cards() -> dict[str, tuple[str, ...]]:
    """The card names of each booster slot's rarity (``rare``, ``uncommon``, ``common``,
    ``basic``), sorted: 121, 121, 121 and the 5 basic land names."""
    by: dict[str, list[str]] = {"rare": [], "uncommon": [], "common": [], "basic": []}
    for name, f in load_facts()["cards"].items():
        slot = "basic" if "Basic" in (f.get("supertypes") or ()) else f["rarity"]
        by[slot].append(name)
    return {k: tuple(sorted(v)) for k, v in by.items()}


@functools.lru_cache(maxsize=1)
def _rarities() -> dict[str, str]:
    return {n: slot for slot, names in set_cards().items() for n in names}


def rarity_of(name: str) -> str:
    """The booster slot of a Tenth Edition card: ``rare``, ``uncommon``, ``common`` or
    ``basic`` (a basic land). Raises ``KeyError`` for a name not in the set."""
    return _rarities()[name]


def _draw(rng: random.Random, names: Sequence[str], k: int) -> list[str]:
    return rng.sample(list(names), k)


def open_booster(seed: int | random.Random) -> Booster:
    """One booster from a seed (or a ``random.Random`` to draw from): 1 rare, 3 uncommons,
    10 commons and 1 basic land, no card twice in a booster."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    cards = set_cards()
    out: Booster = []
    for slot, n in COLLATION:
        if slot == "basic":  # one of the 20 printings, four of each name
            out.append(BASIC_LANDS[rng.randrange(4 * len(BASIC_LANDS)) // 4])
        else:
            out += _draw(rng, cards[slot], n)
    return out


def sealed_pool(seed: int, boosters: int = SEALED_BOOSTERS) -> list[str]:
    """A sealed pool: ``boosters`` boosters (six by default) opened from ``seed``, their cards
    in opening order."""
    pool: list[str] = []
    for i in range(boosters):
        pool += open_booster(derive_seed(seed, "sealed booster", i))
    return pool
