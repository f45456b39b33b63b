"""Better card ratings from simulated Limited games (``mtg-env draft-ratings``).

One pass plays ``events`` sealed events: every player's deck is built with the current ratings
and played by the chosen agent; for every game and each player, the cards that left the
player's library during the game count as *in hand* in that game (drawn, or rarely searched for
or milled; the 17lands "games in hand" idea). A card's games-in-hand win rate (GIH WR) is its
owner's share of the decisive games it was in hand in (drawn games are left out), shrunk toward
the average over all cards with ``prior`` pseudo-games:

    shrunk = (wins + prior * average) / (games + prior)
    new rating = old rating + step * 100 * (shrunk - average)

so with the defaults (``step`` 0.1, ``prior`` 20) a card at 60% over 80 games, against an
average of 50%, gains 0.8. Cards that were in no deck keep their rating. ``iterations`` passes
repeat this, each with the ratings of the one before (new seeds each time).

What this measures, honestly: how much a card helps *this agent* win with *these automatically
built decks* against decks built the same way. It is confounded like any GIH WR (a card that
only makes strong decks looks strong; cards drawn in long games are seen more), it is noisy
(a card is in a deck only if its pool has it and the builder chose it, so rares get few
games), and a card the builder never plays is never measured. It is a correction to the
computed ratings, not a ground truth.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...engine.errors import MtgError
from ..runner import derive_seed
from .card_ratings import CardRatings, default_ratings
from .event import EventResult, run_sealed_event

__all__ = ["CardStat", "TuningResult", "card_stats", "improve_ratings"]


@dataclass(frozen=True)
class CardStat:
    """A card's games in hand: ``games`` decisive games, ``wins`` by its owner."""

    name: str
    games: int
    wins: int
    old: float
    new: float

    @property
    def win_rate(self) -> float:
        """Wins over games (NaN without games)."""
        return self.wins / self.games if self.games else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {"card": self.name, "games_in_hand": self.games, "wins": self.wins,
                "gih_win_rate": round(self.win_rate, 4) if self.games else None,
                "old": round(self.old, 3), "new": round(self.new, 3)}


@dataclass
class TuningResult:
    """The improved ratings, each card's statistics of the last pass, and the work done."""

    ratings: CardRatings
    stats: dict[str, CardStat]
    average: float
    events: int
    games: int
    seconds: float = 0.0
    passes: list[dict[str, Any]] = field(default_factory=list)


def card_stats(results: list[EventResult]) -> tuple[dict[str, list[int]], int]:
    """``{card: [games in hand, wins]}`` over the decisive games of tracked events, and the
    number of games."""
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    games = 0
    for ev in results:
        for m in ev.matches:
            for g in m.games:
                games += 1
                if g.winner is None or g.seen is None:
                    continue
                for side in (0, 1):
                    for card in g.seen[side]:
                        stats[card][0] += 1
                        stats[card][1] += g.winner == side
    return dict(stats), games


def improve_ratings(ratings: CardRatings | None = None, events: int = 50, players: int = 8, seed: int = 0,
                    agent: str = "heuristic", iterations: int = 1, step: float = 0.1,
                    prior: float = 20.0, best_of: int = 1, max_turns: int | None = 100,
                    workers: int | None = 1,
                    on_event: Callable[[int, int], None] | None = None) -> TuningResult:
    """Update ``ratings`` (default: the computed ones) from simulated sealed events (see the
    module docstring). ``on_event(done, total)`` is called after each event."""
    import time

    if events < 1 or iterations < 1:
        raise MtgError("draft-ratings needs at least 1 event and 1 iteration")
    if step < 0 or prior < 0:
        raise MtgError("step and prior must not be negative")
    current = default_ratings() if ratings is None else ratings
    t0 = time.perf_counter()
    total_games = 0
    passes = []
    stats: dict[str, CardStat] = {}
    average = 0.5
    for it in range(iterations):
        results = []
        for e in range(events):
            results.append(run_sealed_event(players, derive_seed(seed, "tuning", it, e), current, agent,
                                            best_of=best_of, max_turns=max_turns, workers=workers,
                                            track_cards=True))
            if on_event is not None:
                on_event(it * events + e + 1, iterations * events)
        raw, games = card_stats(results)
        total_games += games
        n = sum(v[0] for v in raw.values())
        average = sum(v[1] for v in raw.values()) / n if n else 0.5
        changes = {}
        stats = {}
        for card, (g, w) in sorted(raw.items()):
            shrunk = (w + prior * average) / (g + prior) if g + prior else average
            new = current[card] + step * 100 * (shrunk - average)
            changes[card] = new
            stats[card] = CardStat(card, g, w, current[card], new)
        errors = sum(g.error is not None for ev in results for m in ev.matches for g in m.games)
        passes.append({"pass": it + 1, "events": events, "games": games, "engine_errors": errors,
                       "cards_measured": len(raw), "average_gih_win_rate": round(average, 4)})
        current = current.updated(changes, f"draft-ratings: {it + 1} pass(es) of {events} sealed events "
                                           f"({agent} agents, seed {seed})")
    return TuningResult(current, stats, average, events * iterations, total_games,
                        time.perf_counter() - t0, passes)
