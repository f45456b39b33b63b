"""Every pairing of a list of decks: a win-rate matrix, its CSV and a heatmap."""

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
from .matchup import (
    AgentRef,
    MatchupResult,
    _check_agents,
    agent_label,
    grouped_matchup_specs,
    play_games,
)

__all__ = ["MatrixResult", "run_matrix"]


@dataclass
class MatrixResult:
    """One :class:`MatchupResult` per unordered pairing (deck order as given)."""

    decks: list[str]
    matchups: list[MatchupResult]
    seconds: float
    saved: list[Path] = field(default_factory=list)  # replay files written (--save-games)

    def table(self) -> pd.DataFrame:
        """Long form, both orientations of every pairing: one row per (deck, opponent)."""
        import pandas as pd  # here: pandas costs half a second to import

        rows = []
        for m in self.matchups:
            s = m.summary
            for me, opp, wins, losses, wr in (
                    (m.deck_a, m.deck_b, s["wins_a"], s["wins_b"], s["win_rate_a"]),
                    (m.deck_b, m.deck_a, s["wins_b"], s["wins_a"], _flip(s["win_rate_a"]))):
                if me == opp and rows and rows[-1]["deck"] == me and rows[-1]["opponent"] == opp:
                    continue  # a mirror appears once
                rows.append({"deck": me, "opponent": opp, "games": s["games"], "wins": wins,
                             "losses": losses, "draws": s["draws"], "errors": s["errors"],
                             "win_rate": wr["rate"], "ci_low": wr["ci_low"], "ci_high": wr["ci_high"],
                             "avg_turns": s["avg_turns"]})
        return pd.DataFrame(rows)

    def win_rates(self) -> pd.DataFrame:
        """Square matrix: row deck's win rate against the column deck (NaN where not played)."""
        t = self.table()
        return (t.pivot(index="deck", columns="opponent", values="win_rate")
                .reindex(index=self.decks, columns=self.decks))

    def write_csv(self, path: str | Path) -> None:
        """Write :meth:`table` as CSV."""
        self.table().to_csv(path, index=False, float_format="%.4f")

    def heatmap(self, path: str | Path, title: str | None = None) -> None:
        """A PNG heatmap of the win rates, each cell annotated with its 95% interval."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import pandas as pd

        t = self.table().set_index(["deck", "opponent"])
        wr = self.win_rates()
        n = len(self.decks)
        fig, ax = plt.subplots(figsize=(1.9 * n + 2.5, 1.5 * n + 1.8))
        im = ax.imshow(wr.to_numpy(dtype=float), cmap="RdYlGn", vmin=0.0, vmax=1.0)
        for i, a in enumerate(self.decks):
            for j, b in enumerate(self.decks):
                if (a, b) not in t.index:
                    ax.text(j, i, "—", ha="center", va="center", color="grey")
                    continue
                row = t.loc[(a, b)]
                if isinstance(row, pd.DataFrame):
                    row = row.iloc[0]
                if math.isnan(row["win_rate"]):
                    label = "no decisive\ngames"
                else:
                    label = (f"{row['win_rate']:.0%}\n[{row['ci_low']:.0%}–{row['ci_high']:.0%}]"
                             f"\nn={int(row['wins'] + row['losses'])}")
                ax.text(j, i, label, ha="center", va="center", fontsize=8)
        ax.set_xticks(range(n), self.decks, rotation=30, ha="right")
        ax.set_yticks(range(n), self.decks)
        ax.set_xlabel("opponent")
        ax.set_ylabel("deck")
        agents = sorted({a for m in self.matchups for a in m.agents})
        ax.set_title(title or f"win rate of row deck vs column deck ({', '.join(agents)} agents; "
                     "95% Wilson interval)", fontsize=10)
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="win rate (decisive games)")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def _flip(wr: dict[str, float]) -> dict[str, float]:
    return {"rate": 1.0 - wr["rate"], "ci_low": 1.0 - wr["ci_high"], "ci_high": 1.0 - wr["ci_low"]}


def run_matrix(decks: Sequence[str | Deck], games: int = 100, agents: AgentRef = "heuristic",
               seed: int = 0, workers: int | None = None, backend: str = "local",
               address: str | None = None, max_turns: int | None = 100, mirrors: bool = False,
               progress: bool = False, save_games: str | Path | None = None,
               only_losses_of: str | None = None) -> MatrixResult:
    """Play ``games`` seat-balanced games for every pairing of ``decks`` (and each mirror with
    ``mirrors=True``), all in one parallel run. ``save_games``/``only_losses_of``: as in
    :func:`~mtg_env.sim.matchup.run_matchup`."""
    loaded = [load_deck(d) for d in decks]
    names = [d.name for d in loaded]
    if len(set(names)) != len(names):
        raise MtgError(f"each deck may appear once in a matrix, got {', '.join(names)}")
    if len(loaded) < 2:
        raise MtgError("a matrix needs at least two decks")
    pair = (agents, agents)
    _check_agents(pair)
    pairings = (list(itertools.combinations_with_replacement(range(len(loaded)), 2)) if mirrors
                else list(itertools.combinations(range(len(loaded)), 2)))
    specs_by_pair = grouped_matchup_specs([(loaded[i], loaded[j], f"{names[i]}|{names[j]}")
                                           for i, j in pairings], pair, games, seed, max_turns)
    run = play_games([s for group in specs_by_pair for s in group], f"{len(pairings)} pairings", workers,
                     backend, address, progress, save_games, only_losses_of)
    labels = (agent_label(agents), agent_label(agents))
    matchups = [MatchupResult(names[i], names[j], labels, seed, rs, run.seconds_of(len(rs)), run.workers,
                              backend)
                for (i, j), rs in zip(pairings, run.split(specs_by_pair), strict=True)]
    return MatrixResult(names, matchups, run.seconds, run.saved)
