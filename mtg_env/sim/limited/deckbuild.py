"""The automatic Limited deck builder: a 40-card deck from a sealed or draft pool.

1. **Colors.** For each of the ten color pairs, the ratings of the best 23 cards castable in
   that pair (colorless cards included) are summed; the best pair wins (ties: the first pair in
   ``WUBRG`` order).
2. **Spells, with a curve.** The pair's cards are taken best rating first, but with at most
   four cards costing 5 or more and at most two costing 6 or more (an X spell counts X as 2);
   then, while the deck has fewer than :data:`MIN_CREATURES` creatures and the pool has more,
   the weakest noncreature spell makes room for the best creature left.
3. **Lands.** 17 lands; 16 when the spells' average mana value is at most 2.6, 18 when it is
   3.5 or more or six cards cost 5 or more. The pool's nonbasic lands that tap for the deck's
   colors only (a painland of the pair, Treetop Village in a green deck) are played and count
   among them; the basic lands are split between the colors in proportion to the colored mana
   symbols of the spells (largest remainder), at least one of each color the spells need.
4. **Short pools.** When the pair has too few cards, the best cards of other colors fill the
   deck (a splash, whose color then gets lands); when the whole pool is short, more basic lands
   do.

The deck is only cards from the pool plus basic lands: every card is used at most as often as
the pool has it. The rest of the pool is the deck's sideboard, the pool's own basic lands
included (the deck's basic lands come from outside the pool, as at a Limited event's land
station). Limited has no four-copy rule, so the deck is built as a
:class:`~mtg_env.engine.deck.Deck` directly, not parsed from a list.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ...engine.deck import Deck
from ...engine.model import BASIC_LAND_TYPES, COLORS, CardDef
from ...engine.registry import get_card

__all__ = ["BASIC_OF", "DECK_SIZE", "MIN_CREATURES", "LimitedDeck", "build_deck", "card_colors"]

DECK_SIZE = 40
MIN_CREATURES = 14
BASIC_OF = {c: land for land, c in BASIC_LAND_TYPES.items()}
"""The basic land of each color: ``{"W": "Plains", ...}``."""


@dataclass
class LimitedDeck:
    """A built Limited deck: ``main`` (40 card names), its ``colors`` (``"WG"``), its land count
    and the pool cards left out (``sideboard``)."""

    name: str
    colors: str
    main: list[str]
    sideboard: list[str]
    lands: int
    creatures: int
    notes: list[str] = field(default_factory=list)

    @property
    def deck(self) -> Deck:
        """The main deck as an engine :class:`~mtg_env.engine.deck.Deck` (sideboard attached)."""
        return Deck(_entries(self.main), name=self.name, sideboard=_entries(self.sideboard))

    def text(self) -> str:
        """The deck as a deck list (``N Card Name`` lines, then ``Sideboard``), readable by
        ``Deck.from_text`` (with ``min_size=0`` when a card appears more than four times)."""
        lines = [f"{n} {c}" for n, c in _entries(self.main)]
        if self.sideboard:
            lines += ["", "Sideboard"] + [f"{n} {c}" for n, c in _entries(self.sideboard)]
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict:
        """Plain JSON-able data."""
        return {"name": self.name, "colors": self.colors, "lands": self.lands,
                "creatures": self.creatures, "main": [[n, c] for n, c in _entries(self.main)],
                "sideboard": [[n, c] for n, c in _entries(self.sideboard)], "notes": self.notes}


def _entries(names: Sequence[str]) -> list[tuple[int, str]]:
    """``[(count, name)]``: spells by mana value then name, lands last."""
    counts = Counter(names)

    def key(name: str) -> tuple:
        cdef = get_card(name)
        return ("Land" in cdef.types, cdef.cost.cmc, name)

    return [(counts[n], n) for n in sorted(counts, key=key)]


def card_colors(cdef: CardDef) -> frozenset[str]:
    """The colors a card needs to be cast: its colors (a land: none)."""
    return frozenset() if "Land" in cdef.types else frozenset(cdef.colors)


def _curve_cmc(cdef: CardDef) -> int:
    return cdef.cost.cmc + 2 * cdef.cost.x


def _pick_spells(cands: list[str], n: int) -> list[str]:
    """The best ``n`` of ``cands`` (sorted best first) under the curve caps and creature floor."""
    chosen: list[str] = []
    five = six = 0
    for c in cands:
        if len(chosen) == n:
            break
        cmc = _curve_cmc(get_card(c))
        if (cmc >= 5 and five >= 4) or (cmc >= 6 and six >= 2):
            continue
        chosen.append(c)
        five += cmc >= 5
        six += cmc >= 6
    for c in cands:  # the caps left the deck short: the best of the rest
        if len(chosen) >= n:
            break
        if c not in chosen or Counter(chosen)[c] < Counter(cands)[c]:
            chosen.append(c)
    left = Counter(cands) - Counter(chosen)
    spare = []  # the creatures not chosen, best first
    for c in cands:
        if left[c] and "Creature" in get_card(c).types:
            spare.append(c)
            left[c] -= 1
    while sum("Creature" in get_card(c).types for c in chosen) < MIN_CREATURES and spare:
        noncreatures = [c for c in chosen if "Creature" not in get_card(c).types]
        if not noncreatures:
            break
        chosen.remove(noncreatures[-1])  # the weakest (chosen is best first)
        chosen.append(spare.pop(0))
    return chosen


def _land_count(spells: Sequence[str]) -> int:
    if not spells:
        return 17
    cmcs = [_curve_cmc(get_card(c)) for c in spells]
    avg = sum(cmcs) / len(cmcs)
    if avg >= 3.5 or sum(c >= 5 for c in cmcs) >= 6:
        return 18
    return 16 if avg <= 2.6 else 17


def _split_basics(spells: Sequence[str], colors: str, n: int) -> list[str]:
    """``n`` basic lands split by the colored mana symbols of ``spells`` (largest remainder, at
    least one of each color they need); without symbols, evenly between ``colors``."""
    weight = Counter()
    for c in spells:
        for color, k in zip(COLORS, get_card(c).cost.colored, strict=True):
            if k:
                weight[color] += k
    if not weight:
        weight = Counter({c: 1 for c in colors or "WUBRG"[:1]})
    total = sum(weight.values())
    exact = {c: n * w / total for c, w in weight.items()}
    share = {c: int(v) for c, v in exact.items()}
    for c in sorted(exact, key=lambda c: (share[c] > 0, -(exact[c] - share[c]), COLORS.index(c))):
        if sum(share.values()) >= n:
            break
        share[c] += 1
    for c in weight:  # a color with a symbol gets a land, taken from the biggest share
        if share[c] == 0 and n >= len(weight):
            big = max(share, key=lambda k: (share[k], -COLORS.index(k)))
            share[big] -= 1
            share[c] = 1
    return [BASIC_OF[c] for c in COLORS for _ in range(share.get(c, 0))]


def _pair_score(spells: Sequence[str], ratings: Mapping[str, float], pair: str) -> float:
    ok = sorted((ratings.get(c, 0.0) for c in spells if card_colors(get_card(c)) <= set(pair)),
                reverse=True)
    return sum(ok[:23])


def build_deck(pool: Sequence[str], ratings: Mapping[str, float], name: str = "") -> LimitedDeck:
    """Build a 40-card deck from ``pool`` (card names, repeats allowed) by ``ratings`` (a card
    missing from it rates 0); see the module docstring for how."""
    defs = {c: get_card(c) for c in set(pool)}
    spells = [c for c in pool if "Land" not in defs[c].types]
    rate = {c: ratings.get(c, 0.0) for c in defs}
    order = sorted(spells, key=lambda c: (-rate[c], c))
    pairs = ["".join(p) for p in itertools.combinations(COLORS, 2)]
    colors = max(pairs, key=lambda p: (_pair_score(spells, rate, p), -pairs.index(p)))
    notes: list[str] = []
    on = [c for c in order if card_colors(defs[c]) <= set(colors)]
    off = [c for c in order if not card_colors(defs[c]) <= set(colors)]
    nonbasic = [c for c in pool if "Land" in defs[c].types and "Basic" not in defs[c].supertypes
                and _taps_for(defs[c], colors)]
    lands = 17
    chosen: list[str] = []
    extra: list[str] = []
    for _ in range(2):  # the land count depends on the curve, the curve on the spell count
        n = DECK_SIZE - lands
        chosen = _pick_spells(on, n)
        extra = off[:max(n - len(chosen), 0)]
        chosen += extra
        new = _land_count(chosen)
        if new == lands:
            break
        lands = new
    if extra:
        notes.append(f"splash: {', '.join(sorted(set(extra)))}")
    n_spells = len(chosen)
    lands = DECK_SIZE - n_spells  # a short pool is filled with lands
    nonbasic = nonbasic[:max(lands - 1, 0)]
    basics = _split_basics(chosen, colors, lands - len(nonbasic))
    used = set()
    for c in chosen:
        used |= card_colors(defs[c])
    deck_colors = "".join(c for c in COLORS if c in used or (c in colors and not used))
    main = chosen + nonbasic + basics
    side = list((Counter(pool) - Counter(chosen + nonbasic)).elements())  # the pool's basics too
    creatures = sum("Creature" in defs[c].types for c in chosen)
    return LimitedDeck(name=name, colors=deck_colors, main=main, sideboard=side, lands=lands,
                       creatures=creatures, notes=notes)


def _taps_for(cdef: CardDef, colors: str) -> bool:
    """Does a nonbasic land make mana of the deck's colors, and only of those (or colorless)?"""
    made = {c for c in (cdef.mana_colors or ()) if c != "C"}
    return bool(made) and made <= set(colors)
