"""Deck tuning, the moves (see :mod:`mtg_env.sim.tuner` for the search): the pool of cards a
tuned deck may take in (:func:`load_pool`), the swaps and the deck rules they keep (size, four
copies, the pool's copies, the land count, castable colors: :func:`swap_ok`), the rating-biased
draw of candidate swaps (:func:`candidate_swaps`) and the tuned deck as text."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..engine.deck import MAX_COPIES, Deck, read_text_file
from ..engine.errors import MtgError, UnknownCardError
from ..engine.model import COLORS, CardDef
from ..engine.registry import get_card, is_unimplemented

MAX_POOL_BYTES = 1_000_000


# -- the pool -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pool:
    """The cards a tuner may put in: ``copies[name]`` is how many copies are available
    (``None``: as many as the deck rules allow)."""

    copies: Mapping[str, int | None]
    name: str

    def limit(self, card: str) -> int:
        """Copies of ``card`` a deck may hold under the pool and the deck rules."""
        basic = _is_basic(get_card(card))
        n = self.copies.get(card, 0)
        rule = 10**6 if basic else MAX_COPIES
        return rule if n is None else min(n, rule)


def _is_basic(cdef: CardDef) -> bool:
    return "Basic" in cdef.supertypes


def load_pool(spec: str) -> Pool:
    """``"tenth_edition"`` (every Tenth Edition card the engine implements) or a pool file: one
    card a line, ``Card Name`` (any number of copies) or ``N Card Name`` (``N`` copies), ``#``
    comments. Raises :class:`~mtg_env.MtgError` with a one-line message."""
    if spec.lower() in ("tenth_edition", "10e"):
        from .limited.boosters import set_cards

        names = [n for slot in set_cards().values() for n in slot if not is_unimplemented(n)]
        return Pool({n: None for n in names}, "tenth_edition")
    where = f"pool file {spec!r}"
    text = read_text_file(spec, where, MAX_POOL_BYTES, " (give 'tenth_edition' or a file of card names)")
    copies: dict[str, int | None] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(" ")
        count: int | None = None
        name = line
        if head.isdigit() and rest.strip():
            count, name = int(head), rest.strip()
            if count < 1:
                raise MtgError(f"{where} line {lineno}: a count must be positive")
        if is_unimplemented(name):
            raise MtgError(f"{where} line {lineno}: {name!r} is not implemented by the engine")
        try:
            canon = get_card(name).name
        except UnknownCardError as exc:
            raise MtgError(f"{where} line {lineno}: {str(exc).splitlines()[0]}") from None
        old = copies.get(canon, 0)
        copies[canon] = None if count is None or old is None else old + count
    if not copies:
        raise MtgError(f"{where} names no card")
    return Pool(copies, Path(spec).stem)


def check_deck_in_pool(deck: Sequence[str], pool: Pool, label: str) -> None:
    """Raise :class:`~mtg_env.MtgError` when the deck holds a card the pool lacks, or more
    copies than the pool has (lands of the deck are always allowed)."""
    counts: dict[str, int] = {}
    for n in deck:
        counts[n] = counts.get(n, 0) + 1
    missing = [n for n in counts if n not in pool.copies and not _is_basic(get_card(n))]
    if missing:
        raise MtgError(f"the deck {label} does not match the pool {pool.name}: "
                       f"{', '.join(sorted(missing))} not in the pool")
    over = [n for n, c in counts.items() if n in pool.copies and c > pool.limit(n)
            and not _is_basic(get_card(n))]
    if over:
        raise MtgError(f"the deck {label} does not match the pool {pool.name}: more copies of "
                       f"{', '.join(sorted(over))} than the pool holds")


# -- swaps ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Swap:
    """``copies`` copies of ``out`` replaced by ``copies`` copies of ``into``."""

    out: str
    into: str
    copies: int = 1

    def __str__(self) -> str:
        return f"-{self.copies} {self.out}, +{self.copies} {self.into}"


def apply_swap(cards: Sequence[str], swap: Swap) -> tuple[str, ...]:
    """The deck ``cards`` (one name per copy) with the last ``swap.copies`` copies of
    ``swap.out`` replaced in place by ``swap.into`` (so they take the same library positions
    from the same shuffle)."""
    out = list(cards)
    left = swap.copies
    for i in range(len(out) - 1, -1, -1):
        if left and out[i] == swap.out:
            out[i] = swap.into
            left -= 1
    if left:
        raise MtgError(f"the deck has fewer than {swap.copies} {swap.out}")
    return tuple(out)


def _is_land(name: str) -> bool:
    return "Land" in get_card(name).types


def land_colors(cards: Sequence[str]) -> frozenset[str]:
    """The colors the deck's lands make."""
    made: set[str] = set()
    for n in set(cards):
        c = get_card(n)
        if "Land" in c.types:
            made |= {x for x in (c.mana_colors or ()) if x in COLORS}
    return frozenset(made)


def _castable(name: str, colors: frozenset[str]) -> bool:
    c = get_card(name)
    if "Land" in c.types:
        made = {x for x in (c.mana_colors or ()) if x in COLORS}
        return bool(made) and made <= colors  # a land of the deck's colors (and only those)
    return set(c.colors) <= colors


def swap_ok(cards: Sequence[str], swap: Swap, pool: Pool, land_bounds: tuple[int, int]) -> bool:
    """Whether the swap keeps the deck legal: the card in is in the pool and within the copy
    limits, the land count within ``land_bounds``, and every spell castable with the lands'
    colors after the swap."""
    if swap.out == swap.into or swap.copies < 1 or swap.into not in pool.copies:
        return False
    if sum(n == swap.out for n in cards) < swap.copies:
        return False
    new = apply_swap(cards, swap)
    if sum(n == swap.into for n in new) > pool.limit(swap.into):
        return False
    lands = sum(_is_land(n) for n in new)
    if not land_bounds[0] <= lands <= land_bounds[1]:
        return False
    colors = land_colors(new)
    return all(_castable(n, colors) for n in set(new))


def _rating(name: str) -> float:
    from .limited.card_ratings import data_rating

    return data_rating(get_card(name))


def candidate_swaps(cards: Sequence[str], pool: Pool, land_bounds: tuple[int, int], k: int,
                    rng: random.Random, tabu: set[Swap] | frozenset[Swap] = frozenset(),
                    temperature: float = 3.0, land_moves: float = 0.15) -> list[Swap]:
    """Up to ``k`` distinct legal swaps, not in ``tabu``. A spell for a spell mostly: the card
    out drawn with weight ``exp(-rating / T)`` (weak cards first), the card in from the pool's
    castable spells with weight ``exp(rating / T)``; with probability ``land_moves`` a land for
    a spell or a spell for a land (the land count within its bounds). All the copies that can
    move with probability 0.6, else one."""
    colors = land_colors(cards)
    present = sorted(set(cards), key=cards.index)
    ins = sorted(n for n in pool.copies if _castable(n, colors))
    groups = {True: ([n for n in present if _is_land(n)], [n for n in ins if _is_land(n)]),
              False: ([n for n in present if not _is_land(n)], [n for n in ins if not _is_land(n)])}
    weights = {key: ([math.exp(-_rating(n) / temperature) for n in outs],
                     [math.exp(_rating(n) / temperature) for n in inns])
               for key, (outs, inns) in groups.items()}
    out: list[Swap] = []
    seen = set(tabu)
    for _ in range(200 * k):
        if len(out) >= k:
            break
        land_out = land_in = False
        if rng.random() < land_moves:
            land_out = rng.random() < 0.5
            land_in = not land_out
        outs, inns = groups[land_out][0], groups[land_in][1]
        if not outs or not inns:
            continue
        a = rng.choices(outs, weights[land_out][0])[0]
        b = rng.choices(inns, weights[land_in][1])[0]
        have = sum(n == a for n in cards)
        room = pool.limit(b) - sum(n == b for n in cards)
        most = min(have, room)
        if most < 1:
            continue
        n = most if rng.random() < 0.6 else 1
        s = Swap(a, b, n)
        if s in seen or not swap_ok(cards, s, pool, land_bounds):
            continue
        seen.add(s)
        out.append(s)
    return out


def deck_of(cards: Sequence[str], name: str) -> Deck:
    """A :class:`Deck` with the copies in this order (runs of one name make one entry)."""
    entries: list[tuple[int, str]] = []
    for n in cards:
        if entries and entries[-1][1] == n:
            entries[-1] = (entries[-1][0] + 1, n)
        else:
            entries.append((1, n))
    return Deck(entries, name)


def deck_text(cards: Sequence[str]) -> str:
    """A deck list, one ``N Card Name`` line per card in order of first appearance."""
    counts: dict[str, int] = {}
    for n in cards:
        counts[n] = counts.get(n, 0) + 1
    return "".join(f"{c} {n}\n" for n, c in counts.items())
