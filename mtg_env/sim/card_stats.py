"""Card statistics: how each card of a deck does in simulated games, in the style of 17lands.

A deck plays seat-balanced matchups (the games ``mtg-env matchup`` plays with the same seed and
agents) while an observer notes, for the deck's player in every game, which cards were in the
kept opening hand, which were ever seen in hand (the opening hand included), which were cast
(spells) or played (lands), and how many mulligans were taken. From those records, per card:

- **games drawn**: games in which at least one copy was in hand at some point (17lands' "games
  in hand", opening hand included), and its **GIH WR**, the win rate over those games;
- **games not drawn** and the **GND WR** (17lands' "not drawn" win rate); **IWD**, improvement
  when drawn, is GIH WR minus GND WR;
- games in the **opening hand** (OH WR) and games **cast or played**;

each win rate over the decisive games with a 95% Wilson interval; and the mulligan rate at each
hand size. Seeing a card in hand is checked at every decision of either player and at the
game's end (the engine's log hides draws), so a card that entered and left the hand with no
decision in between (none of the built-in decks do that) would be missed.

The observer runs inside the game loop of the workers (:func:`play_tracked`, through
:func:`~mtg_env.sim.parallel.run_games`' ``play``), so the plain matchup path is unchanged.

>>> from mtg_env.sim.card_stats import run_card_stats
>>> r = run_card_stats(["starter_red"], ["starter_green"], games=2, agents="random", workers=1)
>>> sorted(r.table()[0])[:4]
['card', 'cast', 'cast_pct', 'copies']
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..engine.actions import DecisionKind
from ..engine.deck import Deck
from ..engine.errors import MtgError
from ..engine.game import Game
from .decks import load_deck
from .gauntlet import xerr
from .matchup import AgentRef, _check_agents, agent_label, grouped_matchup_specs, json_safe, play_games
from .runner import GameResult, GameSpec, run_spec
from .stats import wilson_interval

__all__ = ["CardGameResult", "CardStatsResult", "CardTracker", "SeatCards", "cards_of_log",
           "play_tracked", "run_card_stats"]

OPENING_HAND = 7


@dataclass(frozen=True)
class SeatCards:
    """One player's cards in one game, by card name: the kept opening hand (one name per card),
    the distinct names seen in hand (opening hand included) and cast or played, the mulligans."""

    opening: tuple[str, ...]
    seen: tuple[str, ...]
    cast: tuple[str, ...]
    mulligans: int

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {"opening": list(self.opening), "seen": list(self.seen), "cast": list(self.cast),
                "mulligans": self.mulligans}


@dataclass(frozen=True)
class CardGameResult(GameResult):
    """A :class:`~mtg_env.sim.runner.GameResult` with both seats' :class:`SeatCards`
    (``None`` for a game the engine failed on)."""

    cards: tuple[SeatCards, SeatCards] | None = field(default=None, compare=False, repr=False)


def cards_of_log(log: Sequence[str], player: int, names: Sequence[str]) -> set[str]:
    """The card names (among ``names``) that the log says ``player`` played: spells cast and
    lands played (``player 0 plays Shock#2 targeting ...``).

    >>> sorted(cards_of_log(["player 0 plays Shock#2 targeting player 1", "player 1 plays Forest",
    ...                      "player 0 plays Shock Wave"], 0, ["Shock", "Shock Wave", "Forest"]))
    ['Shock', 'Shock Wave']
    """
    prefix = f"player {player} plays "
    longest_first = sorted(set(names), key=len, reverse=True)
    out: set[str] = set()
    for line in log:
        if not line.startswith(prefix):
            continue
        rest = line[len(prefix):]
        for name in longest_first:
            if rest.startswith(name) and (len(rest) == len(name) or rest[len(name)] in "# "):
                out.add(name)
                break
    return out


class CardTracker:
    """An ``on_decision`` observer for :func:`~mtg_env.sim.runner.play_game` that notes both
    players' hands; :meth:`cards` summarises the finished game as two :class:`SeatCards`.

    Hands offered at a mulligan decision are kept apart (a hand taken back is not "seen"); every
    other decision adds both hands to the cards seen.
    """

    def __init__(self) -> None:
        self.game: Game | None = None
        self.names: list[set[str]] = [set(), set()]  # every card of each player
        self.seen: list[set[str]] = [set(), set()]
        self.offered: list[list[list[str]]] = [[], []]  # the hands of each mulligan decision

    def __call__(self, game: Game) -> None:
        """Note the hands before the decision pending in ``game``."""
        if self.game is None:
            self.game = game
            for p, P in enumerate(game.players):
                self.names[p] = {c.cdef.name for c in P.library} | {c.cdef.name for c in P.hand}
        d = game.decision
        if d.kind is DecisionKind.MULLIGAN:
            self.offered[d.player].append([c.cdef.name for c in game.players[d.player].hand])
            return
        for p, P in enumerate(game.players):
            self.seen[p].update(c.cdef.name for c in P.hand)

    def cards(self) -> tuple[SeatCards, SeatCards] | None:
        """Both seats' cards once the game is over (``None`` when no decision was seen)."""
        game = self.game
        if game is None:
            return None
        out = []
        for p, P in enumerate(game.players):
            m = P.mulligans
            kept = self.offered[p][m] if len(self.offered[p]) > m else []  # [] after a mulligan to 0
            seen = self.seen[p] | set(kept) | {c.cdef.name for c in P.hand}
            cast = cards_of_log(game.log, p, sorted(self.names[p]))
            out.append(SeatCards(tuple(sorted(kept)), tuple(sorted(seen)), tuple(sorted(cast)), m))
        return (out[0], out[1])


def play_tracked(spec: GameSpec) -> CardGameResult:
    """:func:`~mtg_env.sim.runner.run_spec` with a :class:`CardTracker`: the same game and
    result, plus both seats' cards (a picklable ``play`` for
    :func:`~mtg_env.sim.parallel.run_games`)."""
    tracker = CardTracker()
    r = run_spec(spec, on_decision=tracker)
    cards = tracker.cards() if r.error is None else None
    return CardGameResult(**{f.name: getattr(r, f.name) for f in fields(GameResult)}, cards=cards)


# -- statistics ---------------------------------------------------------------------------------
def _rate(wins: int, decisive: int) -> tuple[float, float, float]:
    lo, hi = wilson_interval(wins, decisive)
    return (wins / decisive if decisive else math.nan, lo, hi)


def _outcomes(results: Sequence[CardGameResult], side: str = "a") -> list[tuple[SeatCards, bool | None]]:
    """``(cards of side, won: True/False, None for a draw)`` for every game without an error."""
    out = []
    for r in results:
        if r.error is not None or r.cards is None:
            continue
        won = None if r.winner is None else r.winner == side
        out.append((r.cards[r.seats.index(side)], won))
    return out


def _rate_cols(prefix: str, games: list[bool | None]) -> dict[str, Any]:
    wins = sum(g is True for g in games)
    decisive = sum(g is not None for g in games)
    rate, lo, hi = _rate(wins, decisive)
    return {f"{prefix}_wr": rate, f"{prefix}_ci_low": lo, f"{prefix}_ci_high": hi,
            f"{prefix}_decisive": decisive}


def card_rows(deck: Deck, outcomes: Sequence[tuple[SeatCards, bool | None]]) -> list[dict[str, Any]]:
    """One row per card of ``deck``, best GIH WR first (cards never drawn last): copies, games,
    games drawn, in the opening hand and cast (counts and shares of the games), GIH, GND and OH
    win rates with 95% Wilson intervals and their decisive games, IWD."""
    rows = []
    n = len(outcomes)
    for copies, name in deck.entries:
        drawn = [won for c, won in outcomes if name in c.seen]
        not_drawn = [won for c, won in outcomes if name not in c.seen]
        opening = [won for c, won in outcomes if name in c.opening]
        cast = sum(name in c.cast for c, _ in outcomes)
        row: dict[str, Any] = {"card": name, "copies": copies, "games": n,
                               "drawn": len(drawn), "drawn_pct": len(drawn) / n if n else math.nan,
                               "opening": len(opening), "opening_pct": len(opening) / n if n else math.nan,
                               "cast": cast, "cast_pct": cast / n if n else math.nan}
        row |= _rate_cols("gih", drawn)
        row |= _rate_cols("gnd", not_drawn)
        row |= _rate_cols("oh", opening)
        row["iwd"] = row["gih_wr"] - row["gnd_wr"]
        rows.append(row)
    return sorted(rows, key=lambda r: (math.isnan(r["gih_wr"]), -_num(r["gih_wr"]), r["card"]))


def _num(x: float) -> float:
    return 0.0 if math.isnan(x) else x


def mulligan_rows(outcomes: Sequence[tuple[SeatCards, bool | None]]) -> list[dict[str, Any]]:
    """One row per hand size offered (7 first): hands offered, mulligans taken, the mulligan
    rate, hands kept and the win rate after keeping that size (95% Wilson interval)."""
    rows = []
    for size in range(OPENING_HAND, -1, -1):
        step = OPENING_HAND - size  # the mulligans taken before this hand was offered
        offered = [(c, won) for c, won in outcomes if c.mulligans >= step]
        if not offered:
            break
        kept = [won for c, won in offered if c.mulligans == step]
        took = len(offered) - len(kept)
        rate, lo, hi = _rate(sum(w is True for w in kept), sum(w is not None for w in kept))
        rows.append({"hand_size": size, "offered": len(offered), "mulligans": took,
                     "mulligan_rate": took / len(offered), "kept": len(kept),
                     "kept_wr": rate, "kept_ci_low": lo, "kept_ci_high": hi})
    return rows


@dataclass
class CardStatsResult:
    """The tracked games of each analysed deck (side ``a``) against the opponents, and the
    per-card and mulligan tables built from them."""

    decks: list[Deck]
    opponents: list[str]
    agents: tuple[str, str]
    seed: int
    games: int  # per analysed deck and opponent
    results: dict[str, list[CardGameResult]]  # by analysed deck name, in game order
    opponent_of: dict[int, str]  # game index -> opponent deck name
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"
    saved: list[Path] = field(default_factory=list)  # replay files written (--save-games)

    @property
    def names(self) -> list[str]:
        """The analysed decks' names."""
        return [d.name for d in self.decks]

    def outcomes(self, deck: str) -> list[tuple[SeatCards, bool | None]]:
        """``(cards, won)`` of ``deck`` in each of its games without an engine error."""
        return _outcomes(self.results[deck])

    def table(self, deck: str | None = None) -> list[dict[str, Any]]:
        """Card rows (:func:`card_rows`) of one deck, or of every deck with a ``deck`` column."""
        names = [deck] if deck is not None else self.names
        return [{"deck": n, **row} if deck is None else row
                for n in names for row in card_rows(self._deck(n), self.outcomes(n))]

    def mulligans(self, deck: str) -> list[dict[str, Any]]:
        """The mulligan rows (:func:`mulligan_rows`) of ``deck``."""
        return mulligan_rows(self.outcomes(deck))

    def summary(self, deck: str) -> dict[str, Any]:
        """``deck``'s games, record and win rate (decisive games, 95% Wilson interval)."""
        rs = self.results[deck]
        ok = [won for _, won in self.outcomes(deck)]
        wins, losses = sum(w is True for w in ok), sum(w is False for w in ok)
        rate, lo, hi = _rate(wins, wins + losses)
        return {"games": len(ok), "wins": wins, "losses": losses, "draws": len(ok) - wins - losses,
                "errors": len(rs) - len(ok), "win_rate": {"rate": rate, "ci_low": lo, "ci_high": hi}}

    def _deck(self, name: str) -> Deck:
        return next(d for d in self.decks if d.name == name)

    def records(self, deck: str) -> list[dict[str, Any]]:
        """Every game of ``deck`` as plain data: index, seed, opponent, winner (``deck``, the
        opponent or ``None``), on the play, and the deck's :class:`SeatCards`."""
        out = []
        for r in self.results[deck]:
            opp = self.opponent_of[r.index]
            winner = None if r.winner is None else (deck if r.winner == "a" else opp)
            rec = {"index": r.index, "seed": r.seed, "opponent": opp, "winner": winner,
                   "on_the_play": deck if r.on_the_play == "a" else opp, "error": r.error}
            if r.cards is not None:
                rec |= r.cards[r.seats.index("a")].to_dict()
            out.append(rec)
        return out

    def to_dict(self, games: bool = False) -> dict[str, Any]:
        """Plain data: the run, and per deck its summary, card rows and mulligan rows (and with
        ``games=True`` every game's record)."""
        decks = []
        for n in self.names:
            d = {"deck": n, **self.summary(n), "cards": self.table(n), "mulligans": self.mulligans(n)}
            if games:
                d["game_records"] = self.records(n)
            decks.append(d)
        return {"agent": self.agents[0], "opponent_agent": self.agents[1], "seed": self.seed,
                "games_per_opponent": self.games, "opponents": self.opponents, "decks": decks,
                "seconds": self.seconds, "workers": self.workers, "backend": self.backend}

    def write_json(self, path: str | Path) -> None:
        """Write :meth:`to_dict` with every game's record as JSON (NaN as null)."""
        Path(path).write_text(json.dumps(json_safe(self.to_dict(games=True)), indent=2) + "\n")

    def write_csv(self, path: str | Path) -> None:
        """Write :meth:`table` (one row per deck and card) as CSV; an unknown rate is empty."""
        rows = self.table()
        with open(path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            for row in rows:
                w.writerow({k: (("" if math.isnan(v) else f"{v:.4f}") if isinstance(v, float) else v)
                            for k, v in row.items()})

    def chart(self, path: str | Path) -> None:
        """A PNG with one panel per deck: each card's GIH WR (best at the top) as a bar from the
        deck's overall win rate (green above it, red below), with its 95% Wilson interval, and
        its not-drawn win rate as a marker. The axis spans the data, not 0-100%."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch

        tables = {n: self.table(n) for n in self.names}
        heights = [0.3 * len(t) + 1.9 for t in tables.values()]
        fig, axes = plt.subplots(len(tables), 1, figsize=(9.5, sum(heights) + 0.4), squeeze=False,
                                 gridspec_kw={"height_ratios": heights})
        for ax, (name, rows) in zip(axes[:, 0], tables.items(), strict=True):
            rows = rows[::-1]
            ys = list(range(len(rows)))
            s = self.summary(name)["win_rate"]
            base = 0.5 if math.isnan(s["rate"]) else s["rate"]
            shown = [r for r in rows if not math.isnan(r["gih_wr"])]
            gih = [_num(r["gih_wr"]) if not math.isnan(r["gih_wr"]) else base for r in rows]
            ax.barh(ys, [g - base for g in gih], left=base, height=0.7, zorder=2, edgecolor="grey",
                    color=["#66bd63" if g >= base else "#f46d43" for g in gih])
            handles: list[Any] = [
                Patch(facecolor="#66bd63", edgecolor="grey", label="GIH WR above the deck's"),
                Patch(facecolor="#f46d43", edgecolor="grey", label="GIH WR below the deck's"),
                ax.axvline(base, color="tab:blue", lw=1.5, zorder=3,
                           label=f"{name}'s win rate {base:.1%}")]
            for y, r in zip(ys, rows, strict=True):
                if math.isnan(r["gih_wr"]):
                    ax.text(base, y, "  never drawn", va="center", fontsize=7, color="grey")
                    continue
                ax.errorbar(r["gih_wr"], y, xerr=xerr(r["gih_wr"], r["gih_ci_low"], r["gih_ci_high"]),
                            fmt="none", ecolor="black", capsize=2, lw=0.8, zorder=4)
            handles.append(plt.Line2D([], [], color="black", lw=0.8, label="95% Wilson interval"))
            gnd = [(y, r["gnd_wr"]) for y, r in zip(ys, rows, strict=True) if not math.isnan(r["gnd_wr"])]
            if gnd:
                handles.append(ax.scatter([g for _, g in gnd], [y for y, _ in gnd], marker="D", s=16,
                                          color="dimgrey", zorder=5, clip_on=False,
                                          label="GND WR (games not drawn)"))
            xs = ([r["gih_ci_low"] for r in shown] + [r["gih_ci_high"] for r in shown]
                  + [g for _, g in gnd] + [base])
            lo, hi = max(0.0, min(xs) - 0.04), min(1.0, max(xs) + 0.04)
            ax.set_xlim(math.floor(lo * 20) / 20, math.ceil(hi * 20) / 20)
            ax.set_yticks(ys, [f"{r['card']}  ({r['drawn']}/{r['games']} drawn)" for r in rows],
                          fontsize=8)
            ax.set_ylim(-0.6, len(rows) - 0.4)
            ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
            ax.grid(axis="x", color="lightgrey", lw=0.5, zorder=0)
            opps = ", ".join(self.opponents) if len(self.opponents) <= 2 else f"{len(self.opponents)} decks"
            ax.set_title(f"{name} vs {opps} ({self.agents[0]} vs {self.agents[1]}, "
                         f"{len(self.results[name])} games): win rate when each card was drawn",
                         fontsize=10, pad=30)
            ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3,
                      fontsize=7.5, frameon=False, handlelength=1.5, columnspacing=1.2)
        axes[-1, 0].set_xlabel("win rate over decisive games (GIH: games in hand, opening hand included)")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def run_card_stats(decks: Sequence[str | Deck], opponents: Sequence[str | Deck], games: int = 100,
                   agents: AgentRef | tuple[AgentRef, AgentRef] = "heuristic", seed: int = 0,
                   workers: int | None = None, backend: str = "local", address: str | None = None,
                   max_turns: int | None = 100, progress: bool = False,
                   save_games: str | Path | None = None,
                   only_losses_of: str | None = None) -> CardStatsResult:
    """Play each deck of ``decks`` against each of ``opponents`` (``games`` seat-balanced games
    each, the games :func:`~mtg_env.sim.matchup.run_matchup` plays for the same decks, agents
    and seed) with a :class:`CardTracker` in every game, in one parallel run.

    ``agents`` is one agent for both sides or a pair (the analysed deck's, the opponent's).
    ``save_games``/``only_losses_of``: as in :func:`~mtg_env.sim.matchup.run_matchup`.
    """
    mine = [load_deck(d) for d in decks]
    opps = [load_deck(d) for d in opponents]
    if not mine:
        raise MtgError("card statistics need at least one deck to analyse")
    if not opps:
        raise MtgError("card statistics need at least one opponent deck (--vs)")
    for what, ds in (("analysed deck", mine), ("opponent", opps)):
        names = [d.name for d in ds]
        if len(set(names)) != len(names):
            raise MtgError(f"each {what} may appear once, got {', '.join(names)}")
    pair = (agents, agents) if not isinstance(agents, tuple) else agents
    _check_agents(pair)
    pairings = [(d, o) for d in mine for o in opps]
    groups = grouped_matchup_specs([(d, o, f"{d.name}|{o.name}") for d, o in pairings], pair, games, seed,
                                   max_turns)
    run = play_games([s for g in groups for s in g], f"card stats: {len(mine)} deck(s) vs {len(opps)}",
                     workers, backend, address, progress, save_games, only_losses_of, play=play_tracked)
    by_deck: dict[str, list[CardGameResult]] = {d.name: [] for d in mine}
    opponent_of: dict[int, str] = {}
    for (deck, opp), specs, rs in zip(pairings, groups, run.split(groups), strict=True):
        by_deck[deck.name].extend(rs)  # type: ignore[arg-type]
        opponent_of.update((s.index, opp.name) for s in specs)
    return CardStatsResult(mine, [o.name for o in opps], (agent_label(pair[0]), agent_label(pair[1])),
                           seed, len(groups[0]), by_deck, opponent_of, run.seconds, run.workers, backend,
                           run.saved)


def _wr(rate: float, lo: float, hi: float) -> str:
    return "—" if math.isnan(rate) else f"{rate:.0%} [{100 * lo:.0f}-{100 * hi:.0f}]"


def print_card_stats(res: CardStatsResult, console: Any) -> None:
    """Print each analysed deck's card table and mulligan table on a rich console."""
    from rich.table import Table

    console.print(f"card statistics: {res.agents[0]} vs {res.agents[1]} agents, {res.games} games per "
                  f"deck and opponent, seed {res.seed}")
    console.print(f"opponents: {', '.join(res.opponents)}")
    for name in res.names:
        s = res.summary(name)
        console.print(f"[bold]{name}[/bold]: {s['games']} games, record {s['wins']}-{s['losses']}-"
                      f"{s['draws']}, win rate {_wr(*s['win_rate'].values())}"
                      + (f" ({s['errors']} engine errors left out)" if s["errors"] else ""))
        t = Table()
        for col in ("card", "copies", "drawn", "opening hand", "cast/played", "GIH WR [95%]",
                    "GND WR [95%]", "IWD"):
            t.add_column(col, justify="left" if col == "card" else "right")
        for r in res.table(name):
            t.add_row(r["card"], str(r["copies"]), f"{r['drawn']} ({r['drawn_pct']:.0%})",
                      f"{r['opening']} ({r['opening_pct']:.0%})", f"{r['cast']} ({r['cast_pct']:.0%})",
                      _wr(r["gih_wr"], r["gih_ci_low"], r["gih_ci_high"]),
                      _wr(r["gnd_wr"], r["gnd_ci_low"], r["gnd_ci_high"]),
                      "—" if math.isnan(r["iwd"]) else f"{100 * r['iwd']:+.1f}pp")
        console.print(t)
        m = Table(title=f"{name}: mulligans", title_justify="left")
        for col in ("hand size", "offered", "mulligans", "mulligan rate", "kept", "win rate kept [95%]"):
            m.add_column(col, justify="right")
        for r in res.mulligans(name):
            m.add_row(str(r["hand_size"]), str(r["offered"]), str(r["mulligans"]),
                      f"{r['mulligan_rate']:.1%}", str(r["kept"]),
                      _wr(r["kept_wr"], r["kept_ci_low"], r["kept_ci_high"]))
        console.print(m)
    console.print("drawn: games with a copy in hand at some point, opening hand included; GIH/GND WR: "
                  "win rate when drawn / not drawn (decisive games); IWD = GIH WR - GND WR")
