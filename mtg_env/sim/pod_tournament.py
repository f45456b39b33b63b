"""Multiplayer tournaments: more decks than one table holds, Free-for-All tables drawn from them,
rated with openskill's Plackett-Luce model.

**The schedule.** Every game seats ``table_size`` of the entrants, built one game at a time from a
seeded random generator:

1. *Who plays*: entrants are added to the table one by one, each time the one with the fewest
   games so far, ties broken by the fewest meetings with those already at the table, then at
   random. Games per entrant therefore never differ by more than one at any point, and pairs of
   entrants meet about equally often (exactly so where the numbers allow it, e.g. every table
   when ``table_size`` equals the number of entrants).
2. *Who sits where*: the drawn entrants are given seats (seat 0 plays first) by a minimum-cost
   assignment on how often each has sat in each seat (random noise below one game breaks ties),
   so each entrant sits in each seat about equally often.

The games are :class:`~mtg_env.sim.pod.PodSpec` games played by
:func:`~mtg_env.sim.pod.play_pod_game` on the parallel runner (processes or Ray); a game's
outcome does not depend on where it ran.

**The ratings.** Each game that ended without an engine error is a ranking of its players: the
winner first, then the others in the reverse of the order in which they left (the last one out
is second). The players the game ended on together (``PodGameResult.ended_with``: those who lost
at the moment it ended, or every player still in at a draw) share a rank. Games are rated in the
order of their index, so the ratings are a deterministic function of the seed. Reported per
entrant: mu, sigma and the ordinal ``mu - 3 sigma`` (a conservative skill estimate, what the
table is sorted by), games, wins and the win share with its 95% Wilson interval (against the
``1/table_size`` of an even table), and the mean finishing place (1 = won; tied players share
the mean of their places).

    >>> r = run_pod_tournament(["starter_green", "starter_red", "starter_white", "starter_blue_black"],
    ...                        table_size=3, games=4, agents="random", workers=1, max_turns=30)
    >>> sorted(row["games"] for row in r.entrant_rows())
    [3, 3, 3, 3]
"""

from __future__ import annotations

import csv
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.deck import Deck
from ..engine.errors import MtgError
from ..engine.game import Game
from ..engine.seating import MAX_PLAYERS
from .decks import load_deck
from .parallel import check_backend, default_workers, run_games
from .pod import PodGameResult, PodGames, PodSpec, check_entrants, play_pod_game
from .progress import game_progress
from .runner import derive_seed
from .stats import wilson_interval

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MU", "SIGMA", "PodTournamentResult", "check_table_size", "finishing_places",
           "game_ranks", "pod_tournament_specs", "rate_games", "run_pod_tournament", "schedule_tables"]

MU = 25.0  # openskill's default initial rating
SIGMA = 25.0 / 3  # and its default initial uncertainty


def schedule_tables(entrants: int, table_size: int, games: int, seed: int) -> list[tuple[int, ...]]:
    """``games`` tables of ``table_size`` entrant indices (``0 .. entrants - 1``) by seat, seat 0
    playing first, balanced as the module's docstring describes; the same seed gives the same
    schedule."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    if not 2 <= table_size <= entrants:
        raise MtgError(f"a table of {table_size} needs at least {table_size} entrants, got {entrants}")
    rng = random.Random(derive_seed(seed, "pod-tournament schedule"))
    played = [0] * entrants
    met = [[0] * entrants for _ in range(entrants)]
    seat_count = np.zeros((entrants, table_size))
    tables: list[tuple[int, ...]] = []
    for _ in range(games):
        chosen: list[int] = []
        for _ in range(table_size):
            chosen.append(min(
                (e for e in range(entrants) if e not in chosen),
                key=lambda e: (played[e], sum(met[e][c] for c in chosen), rng.random())))
        for a, b in combinations(chosen, 2):
            met[a][b] += 1
            met[b][a] += 1
        for e in chosen:
            played[e] += 1
        noise = np.array([[rng.random() * 0.5 for _ in range(table_size)] for _ in chosen])
        rows, cols = linear_sum_assignment(seat_count[chosen] + noise)
        by_seat = [0] * table_size
        for r, s in zip(rows, cols, strict=True):
            by_seat[int(s)] = chosen[int(r)]
            seat_count[chosen[int(r)], s] += 1
        tables.append(tuple(by_seat))
    return tables


def game_ranks(result: PodGameResult) -> list[int] | None:
    """The finishing rank of each seat of a game (1 = first; equal numbers share a place), or
    ``None`` for a game that ended in an engine error (left out of the ratings).

    The winner is first; the players still in the game when it ended (``ended_with``: at a
    draw, or losing as it ended) share the next rank; those who left earlier follow in the
    reverse of the order in which they left.

    >>> from mtg_env.sim.pod import PodGameResult
    >>> r = PodGameResult(0, 1, ("a", "b", "c", "d"), "c", 2, 40, 900, "life", ("b", "d", "a"),
    ...                   (0, -2, 7, -1), ended_with=("a",))
    >>> game_ranks(r)
    [2, 4, 1, 3]
    >>> draw = PodGameResult(0, 1, ("a", "b", "c"), None, None, 100, 900, "turn limit",
    ...                      ("b", "a", "c"), (3, -1, 5), ended_with=("a", "c"))
    >>> game_ranks(draw)
    [1, 3, 1]
    """
    if result.error is not None:
        return None
    place = {name: 1 for name in result.winners or ((result.winner,) if result.winner else ())}
    together = [n for n in result.ended_with if n not in place]
    if not result.ended_with and result.winner is None:
        together = list(result.seats)  # a result written before ended_with: all equal
    rank = len(place) + 1 if place else 1
    for name in together:
        place[name] = rank
    if together:
        rank += len(together)
    left = [n for n in result.out_order if n not in place]
    for k, name in enumerate(reversed(left)):
        place[name] = rank + k
    return [place[name] for name in result.seats]


def finishing_places(ranks: Sequence[int]) -> list[float]:
    """Places from ranks, tied players sharing the mean of the places they take: ranks
    ``[1, 2, 2, 4]`` are places ``[1, 2.5, 2.5, 4]`` (the places of a table always sum to
    ``1 + 2 + ... + n``)."""
    order = sorted(ranks)
    out = []
    for r in ranks:
        first = order.index(r) + 1
        last = first + order.count(r) - 1
        out.append((first + last) / 2)
    return out


def rate_games(entrants: int, games: Sequence[tuple[Sequence[int], Sequence[int]]]
               ) -> list[tuple[float, float]]:
    """``(mu, sigma)`` per entrant after rating ``games`` in order with openskill's Plackett-Luce
    model, each game a pair (entrant index by seat, rank by seat; lower ranks finished better)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    ratings = [model.rating(mu=MU, sigma=SIGMA, name=str(e)) for e in range(entrants)]
    for seats, ranks in games:
        teams = model.rate([[ratings[e]] for e in seats], ranks=list(ranks))
        for e, team in zip(seats, teams, strict=True):
            ratings[e] = team[0]
    return [(float(r.mu), float(r.sigma)) for r in ratings]


@dataclass
class PodTournamentResult(PodGames):
    """A multiplayer tournament's games (``seats`` are entrant names) and its ratings."""

    entrants: list[str]
    agents: list[str]  # by entrant
    table_size: int
    attack: str
    seed: int
    results: list[PodGameResult]
    ratings: list[tuple[float, float]]  # (mu, sigma) by entrant
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"

    def entrant_rows(self) -> list[dict[str, Any]]:
        """Per entrant, in the order given: rating (mu, sigma, ordinal), games, wins, win share
        with its 95% Wilson interval, the share of an even table, mean finishing place."""
        games = {e: 0 for e in self.entrants}
        wins = dict(games)
        places: dict[str, float] = {e: 0.0 for e in self.entrants}
        for r in self.played:
            ranks = game_ranks(r)
            assert ranks is not None
            for name, place in zip(r.seats, finishing_places(ranks), strict=True):
                games[name] += 1
                places[name] += place
            if r.winner is not None:
                wins[r.winner] += 1
        rows = []
        for e, (mu, sigma) in zip(self.entrants, self.ratings, strict=True):
            lo, hi = wilson_interval(wins[e], games[e])
            n = games[e]
            rows.append({"entrant": e, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma,
                         "games": n, "wins": wins[e], "win_share": wins[e] / n if n else math.nan,
                         "ci_low": lo, "ci_high": hi, "even_share": 1 / self.table_size,
                         "mean_place": places[e] / n if n else math.nan})
        return rows

    def seat_rows(self) -> list[dict[str, Any]]:
        """Per seat (0 plays first): rated games won from that seat, with the interval."""
        rows = []
        games = self.played
        for s in range(self.table_size):
            wins = sum(1 for r in games if r.winner_seat == s)
            lo, hi = wilson_interval(wins, len(games))
            rows.append({"seat": s, "games": len(games), "wins": wins,
                         "win_share": wins / len(games) if games else math.nan,
                         "ci_low": lo, "ci_high": hi})
        return rows

    def table(self) -> pd.DataFrame:
        """:meth:`entrant_rows` as a DataFrame, highest ordinal first."""
        import pandas as pd  # here: pandas costs half a second to import

        df = pd.DataFrame(self.entrant_rows())
        return df.sort_values("ordinal", ascending=False, kind="stable").reset_index(drop=True)

    def write_csv(self, path: str | Path) -> None:
        """Write :meth:`table` as CSV (one row per entrant, best first)."""
        self.table().to_csv(path, index=False, float_format="%.4f")

    def write_json(self, path: str | Path) -> None:
        """The settings, the entrant and seat tables, and every game with its ranks, as JSON."""
        games = []
        for r in self.results:
            d = r.to_dict()
            d["ranks"] = game_ranks(r)
            games.append(d)
        data = {"entrants": self.entrants, "agents": self.agents, "table_size": self.table_size,
                "attack": self.attack, "seed": self.seed, "games": len(self.results),
                "draws": self.draws, "errors": self.errors, "seconds": round(self.seconds, 3),
                "workers": self.workers, "backend": self.backend,
                "rating_model": "openskill PlackettLuce", "initial_mu": MU, "initial_sigma": SIGMA,
                "by_entrant": self.table().to_dict(orient="records"), "by_seat": self.seat_rows(),
                "results": games}
        Path(path).write_text(json.dumps(data, indent=1))

    def write_games_csv(self, path: str | Path) -> None:
        """One row per game: entrant by seat, winner, finishing ranks by seat, turns, end."""
        n = self.table_size
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["index", "seed", *(f"seat_{s}" for s in range(n)), "winner", "winner_seat",
                        *(f"rank_{s}" for s in range(n)), "turns", "end_reason", "error"])
            for r in self.results:
                ranks = game_ranks(r) or [""] * n
                w.writerow([r.index, r.seed, *r.seats, r.winner or "",
                            "" if r.winner_seat is None else r.winner_seat, *ranks, r.turns,
                            r.end_reason, r.error or ""])

    def chart(self, path: str | Path) -> None:
        """A PNG: each entrant's rating (mu, its ``mu ± 3 sigma`` range, the ordinal marked) and
        its win share with the 95% Wilson interval, best ordinal at the top."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        t = self.table().iloc[::-1]
        y = list(range(len(t)))
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 0.5 * len(t) + 1.8), sharey=True,
                                     gridspec_kw={"width_ratios": [3, 2]})
        ax.errorbar(t["mu"], y, xerr=3 * t["sigma"], fmt="o", capsize=4, color="tab:blue",
                    label="mu ± 3σ")
        ax.plot(t["ordinal"], y, "|", color="tab:red", markersize=14, mew=2,
                label="ordinal (mu − 3σ)")
        for k, (_, row) in enumerate(t.iterrows()):
            ax.annotate(f"{row['ordinal']:.1f}", (row["ordinal"], k), textcoords="offset points",
                        xytext=(0, 8), ha="center", fontsize=8, color="tab:red")
        ax.axvline(MU, color="grey", lw=0.8, ls="--")
        ax.set_yticks(y, t["entrant"])
        ax.set_xlabel(f"openskill Plackett-Luce rating, mu ± 3σ (start {MU:g} ± {3 * SIGMA:g})")
        ax.set_ylim(-0.6, len(t) - 0.35)
        ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, fontsize=8, frameon=False)
        lo = (t["win_share"] - t["ci_low"]).fillna(0)
        hi = (t["ci_high"] - t["win_share"]).fillna(0)
        bx.errorbar(t["win_share"], y, xerr=[lo, hi], fmt="s", capsize=4, color="tab:green")
        bx.axvline(1 / self.table_size, color="grey", lw=0.8, ls="--")
        bx.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
        bx.set_xlabel(f"win share, 95% Wilson (even table {1 / self.table_size:.0%})")
        agents = ", ".join(dict.fromkeys(self.agents))
        fig.suptitle(f"Free-for-All tournament: {len(self.entrants)} entrants, tables of "
                     f"{self.table_size}, {len(self.results)} games ({agents})", fontsize=10)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def check_table_size(table_size: int, entrants: int) -> None:
    """Raise :class:`~mtg_env.MtgError` unless a table of ``table_size`` is a multiplayer table
    (3 to 6 players) that ``entrants`` entrants can fill."""
    if isinstance(table_size, bool) or not isinstance(table_size, int):
        raise MtgError(f"table size must be an integer, got {table_size!r}")
    if not 3 <= table_size <= MAX_PLAYERS:
        raise MtgError(f"a table seats 3 to {MAX_PLAYERS} players, got {table_size}")
    if entrants < table_size:
        raise MtgError(f"tables of {table_size} need at least {table_size} entrants, got {entrants}")


def pod_tournament_specs(decks: Sequence[Deck], agents: Sequence[str], table_size: int, games: int,
                         seed: int, attack: str, max_turns: int | None) -> list[PodSpec]:
    """The tournament's games: :func:`schedule_tables` turned into pod games (entrant names as
    labels, a seed derived for each game)."""
    specs = []
    for i, table in enumerate(schedule_tables(len(decks), table_size, games, seed)):
        specs.append(PodSpec(
            index=i, decks=tuple(decks[e] for e in table), agents=tuple(agents[e] for e in table),
            seed=derive_seed(seed, "pod-tournament", i), labels=tuple(decks[e].name for e in table),
            attack=attack, max_turns=max_turns))
    return specs


def run_pod_tournament(entrants: Sequence[str | Deck], table_size: int = 4, games: int = 100,
                       agents: str | Sequence[str] = "heuristic", seed: int = 0, attack: str = "left",
                       workers: int | None = None, backend: str = "local", address: str | None = None,
                       max_turns: int | None = 100, progress: bool = False) -> PodTournamentResult:
    """A multiplayer Free-for-All tournament: ``games`` games at tables of ``table_size`` (3 to
    6) drawn from ``entrants`` (decks: names, paths or ``Deck`` objects, at least
    ``table_size``), ``agents`` one spec for every seat or one per entrant, ``attack`` the attack
    option (2012 802-803); rated with openskill (see the module's docstring)."""
    loaded = [load_deck(d) for d in entrants]
    n = len(loaded)
    check_table_size(table_size, n)
    names, specs_ = check_entrants(loaded, agents, attack, games, "a tournament", "entrant")
    # Every deck is checked before any game: one a multiplayer game refuses fails here.
    for k in range(0, n, table_size):
        group = loaded[k:k + table_size] if k + table_size <= n else loaded[-table_size:]
        Game.new(group, seed=seed, options={"attack": attack})
    check_backend(workers, backend)
    workers = default_workers() if workers is None else workers
    specs = pod_tournament_specs(loaded, specs_, table_size, games, seed, attack, max_turns)
    t0 = time.perf_counter()
    with game_progress(len(specs), f"tournament, tables of {table_size}", progress) as advance:
        results = run_games(specs, workers, backend, address, advance, play=play_pod_game)
    index = {name: e for e, name in enumerate(names)}
    rated = []
    for r in sorted(results, key=lambda r: r.index):
        ranks = game_ranks(r)
        if ranks is not None:
            rated.append(([index[name] for name in r.seats], ranks))
    return PodTournamentResult(names, specs_, table_size, attack, seed, results,
                               rate_games(n, rated), time.perf_counter() - t0, workers, backend)
