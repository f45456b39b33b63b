"""A booster draft of the Tenth Edition set: 8 seats (or any number from 2), three boosters
each, passed left, then right, then left; and the bots that draft by card rating.

Each seat opens a booster of round ``r`` (seeded from the draft's seed, the round and the
seat), takes one card and passes the rest; "left" is to the next seat number (seat 8 passes to
seat 1), "right" to the previous one. A round ends when the packs are empty (15 picks), so a
draft of three rounds gives each seat a pool of 45 cards.

A bot (:class:`BotDrafter`) takes the card with the best rating. Before its
``commit_after``-th pick (5 by default) that is the rating alone; from then on it is committed
to its two colors (those with the highest sum of ratings among its picks so far, recomputed at
every pick) and a card of another color counts ``off_color`` (0.35) times its rating, so it
still takes an off-color bomb over a weak on-color card. Colorless cards count in full. Ties go
to the card listed first in the pack.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...engine.errors import MtgError
from ...engine.model import COLORS
from ...engine.registry import get_card
from ..runner import derive_seed
from .boosters import open_booster
from .deckbuild import card_colors

__all__ = ["BotDrafter", "DraftResult", "Drafter", "PickInfo", "PickRecord", "bot_colors", "run_draft"]

ROUNDS = 3


@dataclass(frozen=True)
class PickInfo:
    """Where a pick happens: ``seat`` (0-based), ``round`` and ``pick`` (0-based, pick within
    the round), the pass ``direction`` of the round (``"left"`` or ``"right"``) and the draft's
    size."""

    seat: int
    round: int
    pick: int
    direction: str
    rounds: int
    seats: int


class Drafter(Protocol):
    """Anything that drafts: returns the index in ``pack`` of the card it takes."""

    def pick(self, pack: Sequence[str], picked: Sequence[str], info: PickInfo) -> int:
        """The index of the card taken from ``pack``; ``picked`` is this seat's pool so far."""
        ...


def bot_colors(picked: Sequence[str], ratings: Mapping[str, float]) -> str:
    """The two colors with the highest sum of ratings among ``picked`` (``"WUBRG"`` order breaks
    ties), in ``WUBRG`` order."""
    weight: dict[str, float] = defaultdict(float)
    for name in picked:
        for c in card_colors(get_card(name)):
            weight[c] += max(ratings.get(name, 0.0), 0.0)
    best = sorted(COLORS, key=lambda c: (-weight[c], COLORS.index(c)))[:2]
    return "".join(c for c in COLORS if c in best)


class BotDrafter:
    """Drafts by card rating with a color commitment (see the module docstring)."""

    def __init__(self, ratings: Mapping[str, float], commit_after: int = 5, off_color: float = 0.35) -> None:
        self.ratings = ratings
        self.commit_after = commit_after
        self.off_color = off_color

    def score(self, card: str, picked: Sequence[str]) -> float:
        """How much the bot wants ``card`` now, given what it has picked."""
        r = self.ratings.get(card, 0.0)
        if len(picked) + 1 < self.commit_after:
            return r
        colors = card_colors(get_card(card))
        return r if colors <= set(bot_colors(picked, self.ratings)) else r * self.off_color

    def pick(self, pack: Sequence[str], picked: Sequence[str], info: PickInfo) -> int:
        """The index of the best card of ``pack`` by :meth:`score`."""
        scores = [self.score(c, picked) for c in pack]
        return max(range(len(pack)), key=lambda i: (scores[i], -i))


@dataclass(frozen=True)
class PickRecord:
    """One pick: the pack as the seat saw it and the card taken."""

    round: int
    pick: int
    pack: tuple[str, ...]
    card: str


@dataclass
class DraftResult:
    """A finished draft: each seat's pool (in pick order) and every pick."""

    seed: int
    pools: list[list[str]]
    picks: list[list[PickRecord]] = field(default_factory=list)

    def to_dict(self, picks: bool = False) -> dict[str, Any]:
        """Plain JSON-able data; with ``picks`` every pick and the pack it came from."""
        d: dict[str, Any] = {"seed": self.seed, "pools": [list(p) for p in self.pools]}
        if picks:
            d["picks"] = [[{"round": p.round + 1, "pick": p.pick + 1, "pack": list(p.pack), "card": p.card}
                           for p in seat] for seat in self.picks]
        return d


def run_draft(seed: int, drafters: Sequence[Drafter], rounds: int = ROUNDS) -> DraftResult:
    """Draft with one drafter per seat: ``rounds`` boosters each, passed left, right, left.

    Raises :class:`~mtg_env.MtgError` for fewer than two seats or a drafter that picks an index
    outside its pack."""
    n = len(drafters)
    if n < 2:
        raise MtgError(f"a draft needs at least 2 seats, got {n}")
    pools: list[list[str]] = [[] for _ in range(n)]
    log: list[list[PickRecord]] = [[] for _ in range(n)]
    for r in range(rounds):
        packs = [open_booster(derive_seed(seed, "draft booster", r, seat)) for seat in range(n)]
        step, direction = (1, "left") if r % 2 == 0 else (-1, "right")
        k = 0
        while packs[0]:
            for seat, d in enumerate(drafters):
                pack = packs[seat]
                i = d.pick(tuple(pack), tuple(pools[seat]), PickInfo(seat, r, k, direction, rounds, n))
                if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(pack):
                    raise MtgError(f"seat {seat + 1} picked {i!r} from a pack of {len(pack)} cards")
                log[seat].append(PickRecord(r, k, tuple(pack), pack[i]))
                pools[seat].append(pack.pop(i))
            packs = [packs[(seat - step) % n] for seat in range(n)]  # seat s gets s-1's pack (left)
            k += 1
    return DraftResult(seed, pools, log)
