"""Gauntlets: one deck against a weighted field of decks, and its expected win rate.

A *field* is the mix of decks a deck expects to meet, each with a weight (how often it is met).
The deck plays a seat-balanced matchup against every deck of the field (the very games
``mtg-env matchup DECK OPPONENT`` plays with the same seed and agents), and its expected win
rate against the field is the weighted mean of its per-opponent win rates:

    W = sum_i s_i * p_i,   s_i = w_i / sum_j w_j

where ``p_i`` is its win rate over the decisive games against opponent ``i``. The 95% interval
of ``W`` is the delta method on adjusted proportions (Price and Bonett's interval for a linear
function of binomial proportions, :func:`weighted_interval`); ``docs/sim.md`` explains why this
and not a bootstrap.

The field file (YAML)::

    name: my local meta        # optional: a label for the output
    decks:                     # deck -> weight (any positive number)
      red_burn: 2
      white_weenie: 1
      constructed: 1           # a group: its weight is shared evenly by its decks
      decks/my_deck.txt: 0.5   # a deck file, relative to the field file's folder

or ``decks: [red_burn, white_weenie]`` (a list: weight 1 each). A deck named more than once
(itself and through a group) gets the sum of its weights.

>>> f = parse_field({"decks": {"starter_red": 3, "starter": 1}})
>>> [(e.name, e.weight, e.share) for e in f.entries][:2]
[('starter_red', 3.25, 0.8125), ('starter_blue_black', 0.25, 0.0625)]
"""

from __future__ import annotations

import csv
import difflib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

import yaml

from ..engine.deck import DECK_GROUPS, Deck, builtin_name, expand_deck_groups, read_text_file
from ..engine.errors import MtgError
from .decks import load_deck
from .matchup import (
    AgentRef,
    MatchupResult,
    _check_agents,
    agent_label,
    grouped_matchup_specs,
    json_safe,
    play_games,
)
from .runner import GameResult

__all__ = ["Field", "FieldEntry", "GauntletResult", "load_field", "parse_field", "run_gauntlet",
           "weighted_interval", "weighted_win_rate", "xerr"]

GROUP_NAMES = (*DECK_GROUPS, "all")
MAX_FIELD_BYTES = 1_000_000


@dataclass(frozen=True)
class FieldEntry:
    """One deck of a field: its combined ``weight`` and its ``share`` of the total weight.

    ``sources`` are the field's lines that named it (the deck itself, or a group).
    """

    deck: Deck
    name: str
    weight: float
    share: float
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Field:
    """A weighted field of decks (see the module docstring for the file format)."""

    entries: tuple[FieldEntry, ...]
    name: str = ""
    source: str = ""  # the file it was read from, if any

    @property
    def decks(self) -> list[Deck]:
        """The field's decks, in order."""
        return [e.deck for e in self.entries]


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe YAML loader that refuses a mapping with the same key twice (PyYAML keeps the last)."""


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
        try:
            dup = key in seen
        except TypeError:  # an unhashable key: SafeLoader reports it
            break
        if dup:
            raise MtgError(f"{key!r} appears twice (line {key_node.start_mark.line + 1}); "
                           "give each deck once with its total weight")
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_field(path: str | Path) -> Field:
    """Read a field file (YAML, UTF-8); raises :class:`~mtg_env.MtgError` with a one-line
    message naming the file and what to fix."""
    where = f"field file {str(path)!r}"
    text = read_text_file(path, where, MAX_FIELD_BYTES)
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader subclass
    except MtgError as exc:
        raise MtgError(f"{where}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        at = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise MtgError(f"{where} is not valid YAML: {problem}{at}") from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise MtgError(f"{where} is not valid YAML: {exc}") from None
    return parse_field(data, Path(path).resolve().parent, where, source=str(path))


_EXAMPLE = "e.g. decks: {red_burn: 2, white_weenie: 1}"


def parse_field(data: Any, base_dir: str | Path | None = None, where: str = "field",
                source: str = "") -> Field:
    """A :class:`Field` from parsed YAML data: ``{"decks": {name: weight}}`` or
    ``{"decks": [name, ...]}``, plus an optional ``name``. Deck file paths are relative to
    ``base_dir`` (default: the working directory). ``where`` starts every error message."""
    if data is None:
        raise MtgError(f"{where} is empty; give the decks of the field and their weights ({_EXAMPLE})")
    if not isinstance(data, dict):
        raise MtgError(f"{where} must be a mapping with a 'decks' key ({_EXAMPLE})")
    unknown = sorted(str(k) for k in data if k not in ("decks", "name"))
    if unknown:
        raise MtgError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: decks, name ({_EXAMPLE})")
    if "decks" not in data:
        raise MtgError(f"{where} has no 'decks': give the decks of the field and their weights "
                       f"({_EXAMPLE})")
    name = data.get("name") or ""
    if not isinstance(name, str):
        raise MtgError(f"{where}: name must be a string, got {name!r}")
    decks = data["decks"]
    if decks is None or (isinstance(decks, dict | list) and not decks):
        raise MtgError(f"{where}: the field is empty; name at least one deck ({_EXAMPLE})")
    if isinstance(decks, list):
        items = [(d, 1) for d in decks]
    elif isinstance(decks, dict):
        items = list(decks.items())
    else:
        raise MtgError(f"{where}: decks must map deck names to weights ({_EXAMPLE}) or list "
                       f"deck names, got {decks!r}")
    return Field(_entries(items, base_dir, where), name, source)


def _weight(key: str, value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise MtgError(f"{where}: the weight of {key!r} must be a positive number, got {value!r}")
    if math.isnan(value) or math.isinf(value):
        raise MtgError(f"{where}: the weight of {key!r} must be a finite positive number, got {value!r}")
    if value <= 0:
        raise MtgError(f"{where}: the weight of {key!r} must be positive, got {value!r} "
                       "(leave a deck out of the field by deleting its line)")
    return float(value)


def _resolve(key: str, base_dir: str | Path | None, where: str) -> tuple[str, Deck]:
    """``(identity, deck)`` of one deck name or file path of a field."""
    found = builtin_name(key)
    if found is not None:
        return (f"builtin:{found}", load_deck(found))
    if key.endswith(".txt") or "/" in key or "\\" in key:
        path = Path(key).expanduser()
        if not path.is_absolute() and base_dir is not None:
            path = Path(base_dir) / path
        try:
            return (f"file:{path.resolve()}", load_deck(path))
        except MtgError as exc:
            raise MtgError(f"{where}: {str(exc).splitlines()[0]}") from None
    group = difflib.get_close_matches(key.lower(), GROUP_NAMES, n=1, cutoff=0.75)
    if group:
        raise MtgError(f"{where}: unknown deck {key!r}; did you mean the group {group[0]!r}? "
                       f"(groups: {', '.join(GROUP_NAMES)})")
    try:
        return (f"builtin:{key}", load_deck(key))  # raises: not a built-in name nor a path
    except MtgError as exc:
        raise MtgError(f"{where}: {str(exc).splitlines()[0]}") from None


def _entries(items: list[tuple[Any, Any]], base_dir: str | Path | None, where: str) -> tuple[FieldEntry, ...]:
    weights: dict[str, float] = {}
    decks: dict[str, Deck] = {}
    sources: dict[str, list[str]] = {}
    for key, value in items:
        if not isinstance(key, str) or not key.strip():
            raise MtgError(f"{where}: a deck must be named by a string, got {key!r}")
        key = key.strip()
        w = _weight(key, value, where)
        members = expand_deck_groups([key])
        group = key.lower() in GROUP_NAMES
        names = members if group else [key]
        for member in names:
            ident, deck = _resolve(member, base_dir, where)
            share = w / len(names)
            weights[ident] = weights.get(ident, 0.0) + share
            decks[ident] = deck
            sources.setdefault(ident, []).append(key)
    shown: dict[str, str] = {}
    for ident, deck in decks.items():
        label = deck.name or Path(ident).stem
        if label in shown:
            raise MtgError(f"{where}: two different decks are named {label!r} "
                           f"({shown[label].split(':', 1)[1]} and {ident.split(':', 1)[1]}); rename one")
        shown[label] = ident
    total = sum(weights.values())
    return tuple(FieldEntry(d, d.name or Path(i).stem, weights[i], weights[i] / total, tuple(sources[i]))
                 for i, d in decks.items())


# -- statistics ---------------------------------------------------------------------------------
def weighted_interval(wins: Sequence[int], decisive: Sequence[int], shares: Sequence[float],
                      confidence: float = 0.95) -> dict[str, float]:
    """The weighted mean ``sum_i s_i * wins_i / decisive_i`` of several win rates (the shares
    ``s`` normalised to sum to 1) with the Price-Bonett interval for a linear function of
    binomial proportions: the delta method (normal approximation of the weighted sum, whose
    variance is ``sum_i s_i^2 p_i (1 - p_i) / n_i``) on proportions adjusted by ``2/k`` wins
    and ``2/k`` losses each (``k`` rates), clipped to [0, 1]. With one rate it is the
    Agresti-Coull "plus four" interval.

    Returns ``{"rate", "ci_low", "ci_high"}``, all NaN when some rate has no decisive game.

    >>> r = weighted_interval([6, 1], [10, 10], [3, 1])  # 0.75 * 0.6 + 0.25 * 0.1
    >>> round(r["rate"], 3), round(r["ci_low"], 3), round(r["ci_high"], 3)
    (0.475, 0.263, 0.695)
    """
    if not (len(wins) == len(decisive) == len(shares)) or not shares:
        raise MtgError("weighted_interval needs as many wins, decisive counts and shares, one at least")
    nan = {"rate": math.nan, "ci_low": math.nan, "ci_high": math.nan}
    if any(d <= 0 for d in decisive):
        return nan
    total = float(sum(shares))
    s = [x / total for x in shares]
    k = len(s)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    rate = sum(si * w / d for si, w, d in zip(s, wins, decisive, strict=True))
    adj = [(w + 2 / k) / (d + 4 / k) for w, d in zip(wins, decisive, strict=True)]
    centre = sum(si * p for si, p in zip(s, adj, strict=True))
    se = math.sqrt(sum(si * si * p * (1 - p) / (d + 4 / k)
                       for si, p, d in zip(s, adj, decisive, strict=True)))
    return {"rate": rate, "ci_low": max(0.0, centre - z * se), "ci_high": min(1.0, centre + z * se)}


def weighted_win_rate(groups: Sequence[Sequence[GameResult]], shares: Sequence[float],
                      side: str = "a", confidence: float = 0.95) -> dict[str, dict[str, float]]:
    """``side``'s expected win rate against a field, from one group of games per opponent:
    :func:`weighted_interval` of its win rates over each group's decisive games, overall
    (``"all"``), in the games it was on the play (``"on_the_play"``) and on the draw
    (``"on_the_draw"``). Games the engine failed on are left out."""
    counts = {key: ([], []) for key in ("all", "on_the_play", "on_the_draw")}
    for g in groups:
        ok = [r for r in g if r.error is None and r.winner is not None]
        for key, games in (("all", ok), ("on_the_play", [r for r in ok if r.on_the_play == side]),
                           ("on_the_draw", [r for r in ok if r.on_the_play != side])):
            counts[key][0].append(sum(r.winner == side for r in games))
            counts[key][1].append(len(games))
    return {key: weighted_interval(w, d, shares, confidence) for key, (w, d) in counts.items()}


def xerr(rate: float, low: float, high: float) -> list[list[float]]:
    """Matplotlib's ``xerr`` of one interval around ``rate``; at a rate of 0 or 1 the interval's
    end can differ from it by a rounding error, which must not become a negative length."""
    return [[max(0.0, rate - low)], [max(0.0, high - rate)]]


# -- the run ------------------------------------------------------------------------------------
@dataclass
class GauntletResult:
    """A deck's matchups against every deck of a field and its expected win rate.

    ``matchups[i]`` is the deck (side A) against ``field.entries[i]`` (side B); ``expected`` is
    :func:`weighted_win_rate` of them (keys ``all``, ``on_the_play``, ``on_the_draw``).
    """

    deck: str
    field: Field
    agents: tuple[str, str]
    seed: int
    games: int
    matchups: list[MatchupResult]
    expected: dict[str, dict[str, float]]
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"
    saved: list[Path] = field(default_factory=list)  # replay files written (--save-games)

    @property
    def results(self) -> list[GameResult]:
        """Every game, in order."""
        return [r for m in self.matchups for r in m.results]

    def rows(self) -> list[dict[str, Any]]:
        """One row per opponent: weight, share, games, record, win rate and play/draw rates
        with 95% Wilson intervals, average turns."""
        out = []
        for e, m in zip(self.field.entries, self.matchups, strict=True):
            s = m.summary
            row: dict[str, Any] = {"opponent": e.name, "weight": e.weight, "share": e.share,
                                   "games": s["games"], "wins": s["wins_a"], "losses": s["wins_b"],
                                   "draws": s["draws"], "errors": s["errors"]}
            for key, prefix in (("win_rate_a", "win_rate"), ("win_rate_a_on_the_play", "on_the_play"),
                                ("win_rate_a_on_the_draw", "on_the_draw")):
                r = s[key]
                row[prefix] = r["rate"]
                row[f"{prefix}_ci_low"] = r["ci_low"]
                row[f"{prefix}_ci_high"] = r["ci_high"]
            row["avg_turns"] = s["avg_turns"]
            out.append(row)
        return out

    def to_dict(self, games: bool = False) -> dict[str, Any]:
        """Plain data: the run, the expected win rates and the per-opponent rows (and with
        ``games=True`` every game, each with its opponent)."""
        d: dict[str, Any] = {
            "deck": self.deck, "field": self.field.name, "field_file": self.field.source,
            "agent": self.agents[0], "opponent_agent": self.agents[1], "seed": self.seed,
            "games_per_opponent": self.games,
            "interval": "95% Price-Bonett (delta method on adjusted proportions)",
            "expected_win_rate": self.expected["all"],
            "expected_on_the_play": self.expected["on_the_play"],
            "expected_on_the_draw": self.expected["on_the_draw"],
            "opponents": self.rows(),
            "total_games": len(self.results), "seconds": self.seconds, "workers": self.workers,
            "backend": self.backend}
        if games:
            d["game_results"] = [{"opponent": m.deck_b, **r.to_dict()}
                                 for m in self.matchups for r in m.results]
        return d

    def write_json(self, path: str | Path) -> None:
        """Write :meth:`to_dict` with every game as JSON (NaN as null)."""
        Path(path).write_text(json.dumps(json_safe(self.to_dict(games=True)), indent=2) + "\n")

    def write_csv(self, path: str | Path) -> None:
        """Write :meth:`rows` as CSV (one row per opponent; ``share`` sums to 1, so the expected
        win rate is the sum of ``share * win_rate``)."""
        rows = self.rows()
        with open(path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            for row in rows:
                w.writerow({k: (f"{v:.4f}" if isinstance(v, float) and not math.isnan(v)
                                else "" if isinstance(v, float) else v) for k, v in row.items()})

    def chart(self, path: str | Path) -> None:
        """A PNG: one horizontal bar per opponent (win rate, 95% Wilson interval, share of the
        field), the weighted mean as a line with its 95% interval as a band."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch

        rows = self.rows()[::-1]  # the first opponent at the top
        n = len(rows)
        fig, ax = plt.subplots(figsize=(9, 0.42 * n + 2.4))
        cmap = plt.get_cmap("RdYlGn")
        ys = list(range(n))
        e = self.expected["all"]
        if not math.isnan(e["ci_low"]):
            ax.axvspan(e["ci_low"], e["ci_high"], color="tab:blue", alpha=0.13, zorder=0)
        rates = [0.0 if math.isnan(r["win_rate"]) else r["win_rate"] for r in rows]
        ax.barh(ys, rates, color=[cmap(x) for x in rates], edgecolor="grey", height=0.7, zorder=2)
        for y, r in zip(ys, rows, strict=True):
            decisive = r["wins"] + r["losses"]
            if math.isnan(r["win_rate"]):
                ax.text(0.01, y, "no decisive games", va="center", fontsize=8, color="grey")
            else:
                ax.errorbar(r["win_rate"], y, xerr=xerr(r["win_rate"], r["win_rate_ci_low"],
                                                        r["win_rate_ci_high"]),
                            fmt="none", ecolor="black", capsize=3, lw=1, zorder=3)
            ax.text(1.01, y, f"{r['win_rate']:.0%} of {decisive}" if decisive else "—",
                    va="center", fontsize=8, transform=ax.get_yaxis_transform())
        ax.set_yticks(ys, [f"{r['opponent']}  ({r['share']:.1%})" for r in rows], fontsize=9)
        handles: list[Any] = [Patch(facecolor="lightgrey", edgecolor="grey",
                                    label="win rate vs opponent, 95% Wilson interval")]
        if not math.isnan(e["rate"]):
            handles.append(ax.axvline(e["rate"], color="tab:blue", lw=2, zorder=4,
                                      label=f"weighted mean {e['rate']:.1%}, 95% interval "
                                            f"[{e['ci_low']:.1%}, {e['ci_high']:.1%}] (band)"))
        ax.axvline(0.5, color="grey", lw=0.8, ls="--", zorder=1)
        ax.set_xlim(0, 1)
        ax.set_ylim(-0.6, n - 0.4)
        ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
        ax.set_xlabel(f"win rate of {self.deck} (decisive games)")
        ax.set_ylabel("opponent (share of the field)")
        label = f" '{self.field.name}'" if self.field.name else ""
        ax.set_title(f"{self.deck} vs the field{label}: {self.agents[0]} vs {self.agents[1]}, "
                     f"{self.games} games per opponent", fontsize=10, pad=24)
        ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), fontsize=8, ncol=2,
                  frameon=False)
        fig.tight_layout()
        fig.savefig(path, dpi=110, bbox_inches="tight")
        plt.close(fig)


def run_gauntlet(deck: str | Deck, field: Field | str | Path | Mapping[str, Any], games: int = 100,
                 agents: AgentRef | tuple[AgentRef, AgentRef] = "heuristic", seed: int = 0,
                 workers: int | None = None, backend: str = "local", address: str | None = None,
                 max_turns: int | None = 100, progress: bool = False,
                 save_games: str | Path | None = None,
                 only_losses_of: str | None = None) -> GauntletResult:
    """Play ``deck`` against every deck of ``field`` (a :class:`Field`, a field file's path or
    the file's data as a mapping), ``games`` seat-balanced games each, in one parallel run.

    ``agents`` is one agent for both sides or a pair (the deck's, the field's). Each matchup's
    games are those :func:`~mtg_env.sim.matchup.run_matchup` plays for the same decks, agents
    and seed.
    ``save_games``/``only_losses_of``: as in :func:`~mtg_env.sim.matchup.run_matchup`.
    """
    me = load_deck(deck)
    if isinstance(field, str | Path):
        field = load_field(field)
    elif not isinstance(field, Field):
        field = parse_field(field)
    pair = (agents, agents) if not isinstance(agents, tuple) else agents
    _check_agents(pair)
    name = me.name or "deck"
    specs_by_opp = grouped_matchup_specs([(me, e.deck, f"{name}|{e.name}") for e in field.entries], pair,
                                         games, seed, max_turns)
    run = play_games([s for group in specs_by_opp for s in group], f"{name} vs {len(field.entries)} decks",
                     workers, backend, address, progress, save_games, only_losses_of)
    labels = (agent_label(pair[0]), agent_label(pair[1]))
    matchups = [MatchupResult(name, e.name, labels, seed, rs, run.seconds_of(len(rs)), run.workers, backend)
                for e, rs in zip(field.entries, run.split(specs_by_opp), strict=True)]
    expected = weighted_win_rate([m.results for m in matchups], [e.share for e in field.entries])
    return GauntletResult(name, field, labels, seed, len(specs_by_opp[0]), matchups, expected,
                          run.seconds, run.workers, backend, run.saved)


def _pct(r: dict[str, float]) -> str:
    if math.isnan(r["rate"]):
        return "—"
    if math.isnan(r["ci_low"]):
        return f"{r['rate']:.1%}"
    return f"{r['rate']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}]"


def print_gauntlet(res: GauntletResult, console: Any) -> None:
    """Print a gauntlet's per-opponent table and its expected win rates on a rich console."""
    from rich.table import Table

    f = res.field
    label = (f" '{f.name}'" if f.name else "") + (f" ({f.source})" if f.source else "")
    console.print(f"[bold]{res.deck} vs the field{label}[/bold]: {res.agents[0]} vs {res.agents[1]} "
                  f"agents, {res.games} games per opponent, {len(res.results)} games, seed {res.seed}")
    t = Table()
    for col, just in (("opponent", "left"), ("share", "right"), ("games", "right"), ("W-L-D", "right"),
                      ("win rate [95% Wilson]", "right"), ("on the play", "right"),
                      ("on the draw", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    for r in res.rows():
        record = f"{r['wins']}-{r['losses']}-{r['draws']}"
        record += f" ({r['errors']} errors)" if r["errors"] else ""
        wr = {"rate": r["win_rate"], "ci_low": r["win_rate_ci_low"], "ci_high": r["win_rate_ci_high"]}
        t.add_row(r["opponent"], f"{r['share']:.1%}", str(r["games"]), record, _pct(wr),
                  f"{r['on_the_play']:.0%}" if not math.isnan(r["on_the_play"]) else "—",
                  f"{r['on_the_draw']:.0%}" if not math.isnan(r["on_the_draw"]) else "—")
    console.print(t)
    s = Table(show_header=False)
    s.add_column(style="bold")
    s.add_column()
    s.add_row("expected win rate vs the field", _pct(res.expected["all"]))
    s.add_row("on the play", _pct(res.expected["on_the_play"]))
    s.add_row("on the draw", _pct(res.expected["on_the_draw"]))
    console.print(s)
    console.print("weighted mean of the per-opponent win rates (decisive games); 95% interval: delta "
                  "method on adjusted proportions (Price-Bonett)")
    unknown = [r["opponent"] for r in res.rows() if math.isnan(r["win_rate"])]
    if unknown:
        console.print(f"no decisive game against {', '.join(unknown)}: the expected win rate is unknown")
