"""Round-robin tournaments with Bradley-Terry ratings and bootstrap intervals.

Two kinds, chosen by what varies:

- **Agents** (two or more agents): every pair of agents plays ``games`` games, spread evenly over
  every ordered pairing of the decks (mirrors included). Games come in duplicate pairs: same
  seed, same deck in each seat, the two agents swapped, so both agents play the very same
  shuffles with the very same decks.
- **Decks** (one agent, two or more decks): every pair of decks plays a seat-balanced matchup of
  ``games`` games with that agent on both sides.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

from ..engine.deck import Deck
from ..engine.errors import MtgError
from .decks import load_deck
from .matchup import AgentRef, _check_agents, agent_label, play_games
from .ratings import bootstrap_ratings
from .runner import GameResult, GameSpec, derive_seed

__all__ = ["TournamentResult", "run_tournament"]


@dataclass
class TournamentResult:
    """Entrants, every game (side labels are entrant indices as strings) and the ratings."""

    kind: str  # "agents" or "decks"
    entrants: list[str]
    results: list[GameResult]
    ratings: list[float]
    ci_low: list[float]
    ci_high: list[float]
    seconds: float
    seed: int
    saved: list[Path] = field(default_factory=list)  # replay files written (--save-games)

    def scored_games(self) -> list[tuple[int, int, float]]:
        """``(entrant i, entrant j, score of i)`` for every game without an engine error."""
        return _scored(self.results)

    def table(self) -> pd.DataFrame:
        """One row per entrant, best first: rating, 95% interval, games, wins, draws, score."""
        import pandas as pd  # here: pandas costs half a second to import

        n = len(self.entrants)
        games = [0] * n
        wins = [0] * n
        draws = [0] * n
        for i, j, s in self.scored_games():
            games[i] += 1
            games[j] += 1
            if s == 1.0:
                wins[i] += 1
            elif s == 0.0:
                wins[j] += 1
            else:
                draws[i] += 1
                draws[j] += 1
        df = pd.DataFrame({
            "entrant": self.entrants, "rating": self.ratings, "ci_low": self.ci_low,
            "ci_high": self.ci_high, "games": games, "wins": wins, "draws": draws,
            "score": [(w + d / 2) / g if g else math.nan
                      for w, d, g in zip(wins, draws, games, strict=True)],
        })
        return df.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)

    def pairwise(self) -> pd.DataFrame:
        """Score of the row entrant against the column entrant."""
        import pandas as pd  # here: pandas costs half a second to import

        n = len(self.entrants)
        pts = [[0.0] * n for _ in range(n)]
        cnt = [[0] * n for _ in range(n)]
        for i, j, s in self.scored_games():
            pts[i][j] += s
            pts[j][i] += 1 - s
            cnt[i][j] += 1
            cnt[j][i] += 1
        data = [[pts[i][j] / cnt[i][j] if cnt[i][j] else math.nan for j in range(n)] for i in range(n)]
        return pd.DataFrame(data, index=self.entrants, columns=self.entrants)

    def write_csv(self, path: str | Path) -> None:
        """Write :meth:`table` as CSV."""
        self.table().to_csv(path, index=False, float_format="%.4f")

    def chart(self, path: str | Path) -> None:
        """A PNG of the ratings with their 95% bootstrap intervals."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        t = self.table().iloc[::-1]
        fig, ax = plt.subplots(figsize=(7.5, 0.55 * len(t) + 1.6))
        lo = (t["rating"] - t["ci_low"]).clip(lower=0).fillna(0)
        hi = (t["ci_high"] - t["rating"]).clip(lower=0).fillna(0)
        ax.errorbar(t["rating"], range(len(t)), xerr=[lo, hi], fmt="o", capsize=4, color="tab:blue")
        for k, (_, row) in enumerate(t.iterrows()):
            ax.annotate(f"{row['rating']:.0f}", (row["rating"], k), textcoords="offset points",
                        xytext=(0, 7), ha="center", fontsize=8)
        ax.set_yticks(range(len(t)), t["entrant"])
        ax.axvline(1500, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("Bradley-Terry rating (Elo scale, mean 1500) with 95% bootstrap interval")
        ax.set_title(f"{self.kind} tournament: {len(self.results)} games", fontsize=10)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def _scored(results: Sequence[GameResult]) -> list[tuple[int, int, float]]:
    out = []
    for r in results:
        if r.error is not None:
            continue
        i, j = int(r.seats[0]), int(r.seats[1])
        if i == j:
            continue
        s = 0.5 if r.winner is None else (1.0 if r.winner == r.seats[0] else 0.0)
        out.append((i, j, s))
    return out


def tournament_specs(kind: str, agents: Sequence[AgentRef], decks: Sequence[Deck], games: int,
                     seed: int, max_turns: int | None) -> list[GameSpec]:
    """The games of a tournament (see the module docstring for the two kinds)."""
    if games < 1:
        raise MtgError(f"the number of games must be at least 1, got {games}")
    pairs = (games + 1) // 2
    specs: list[GameSpec] = []
    if kind == "agents":
        deck_pairings = list(itertools.product(range(len(decks)), repeat=2))
        for i, j in itertools.combinations(range(len(agents)), 2):
            for k in range(pairs):
                x, y = deck_pairings[k % len(deck_pairings)]
                s = derive_seed(seed, "agents", i, j, k)
                dk = (decks[x], decks[y])
                specs.append(GameSpec(len(specs), dk, (agents[i], agents[j]), s, (str(i), str(j)), max_turns))
                specs.append(GameSpec(len(specs), dk, (agents[j], agents[i]), s, (str(j), str(i)), max_turns))
    else:
        agent = agents[0]
        for i, j in itertools.combinations(range(len(decks)), 2):
            for k in range(pairs):
                s = derive_seed(seed, "decks", decks[i].name, decks[j].name, k)
                specs.append(GameSpec(len(specs), (decks[i], decks[j]), (agent, agent), s,
                                      (str(i), str(j)), max_turns))
                specs.append(GameSpec(len(specs), (decks[j], decks[i]), (agent, agent), s,
                                      (str(j), str(i)), max_turns))
    return specs


def run_tournament(agents: Sequence[AgentRef], decks: Sequence[str | Deck], games: int = 100,
                   seed: int = 0, workers: int | None = None, backend: str = "local",
                   address: str | None = None, max_turns: int | None = 100, resamples: int = 200,
                   progress: bool = False, save_games: str | Path | None = None,
                   only_losses_of: str | None = None) -> TournamentResult:
    """A round robin of agents (two or more agents) or of decks (one agent); ``games`` per
    pairing of entrants. Ratings are Bradley-Terry fits with percentile bootstrap intervals.
    ``save_games``/``only_losses_of``: as in :func:`~mtg_env.sim.matchup.run_matchup`."""
    if not agents:
        raise MtgError("a tournament needs at least one agent")
    _check_agents(list(agents))
    loaded = [load_deck(d) for d in decks]
    if not loaded:
        raise MtgError("a tournament needs at least one deck")
    if len(agents) >= 2:
        kind, entrants = "agents", [agent_label(a) for a in agents]
    elif len(loaded) >= 2:
        kind, entrants = "decks", [d.name for d in loaded]
    else:
        raise MtgError("a tournament needs two or more agents, or one agent and two or more decks")
    if len(set(entrants)) != len(entrants):
        raise MtgError(f"each entrant may appear once, got {', '.join(entrants)}")
    run = play_games(tournament_specs(kind, agents, loaded, games, seed, max_turns), f"{kind} tournament",
                     workers, backend, address, progress, save_games, only_losses_of)
    ratings, low, high = bootstrap_ratings(len(entrants), _scored(run.results), resamples, seed)
    return TournamentResult(kind, entrants, run.results, [float(x) for x in ratings],
                            [float(x) for x in low], [float(x) for x in high], run.seconds, seed, run.saved)
