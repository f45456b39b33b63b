"""Deck tuning: a local search over card swaps, spending games where they decide something.

A *swap* takes ``n`` copies of one card out of the deck and puts ``n`` copies of another card of
the pool in (``n`` is 1 or every copy that can move). The deck stays legal: its size is
unchanged, no more than four copies of a card other than a basic land (and no more than the pool
holds), its land count stays within ``land_slack`` of the starting deck's, and every spell can
be cast with the colors its lands make.

Every comparison is *paired*: pair ``k`` is one seed and one field opponent (drawn with the
field's shares), played twice with the seats swapped; the current deck and a candidate play the
very same pairs, so both meet the same opponents with the same shuffles and coin flips (the
swapped copies sit at the same library positions). A pair's score is the deck's mean over its two
games (a win 1, a draw 1/2, a loss 0); the measured effect of a swap is the mean, over pairs, of
the candidate's score minus the current deck's: its change of win rate against the field.

A round of the search:

1. *proposal*: a batch of candidate swaps, drawn at random with a bias from the card ratings of
   :func:`mtg_env.sim.limited.card_ratings.data_rating` (the weakest cards of the deck out, the
   strongest castable cards of the pool in);
2. *racing*: successive halving over the batch: every candidate plays the same pairs, the better
   half (by mean paired difference) plays as many pairs again, until two remain; they play
   twice as many and the better one goes on, if its mean difference is positive;
3. *confirmation*: on fresh pairs (none used in the racing, so the winner's luck there does not
   carry over), a group-sequential test with up to ``looks`` looks of ``look_pairs`` pairs each
   and Pocock's constant boundary (two-sided 5% over all the looks): the swap is accepted when
   the repeated-confidence interval of its mean difference excludes 0 from below, rejected at
   the first look where the mean is not positive or the interval lies below 0, and rejected when
   the looks run out. The reported interval is this repeated-confidence interval at the stopping
   look (coverage of at least 95% whichever look stopped it).

The current deck's results are kept and reused: it plays each pair once, however many candidates
are compared with it there, and an accepted candidate's results become the new deck's.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.deck import Deck
from ..engine.errors import MtgError
from .decks import load_deck
from .gauntlet import Field, load_field, parse_field
from .matchup import AgentRef, _check_agents, agent_label, json_safe
from .parallel import check_backend, default_workers, run_games
from .progress import game_progress
from .runner import GameResult, GameSpec, derive_seed
from .tune_swaps import (
    MAX_POOL_BYTES,
    Pool,
    Swap,
    _is_land,
    apply_swap,
    candidate_swaps,
    check_deck_in_pool,
    deck_of,
    deck_text,
    land_colors,
    load_pool,
    swap_ok,
)

__all__ = ["POCOCK", "Pool", "Schedule", "Swap", "TuneResult", "apply_swap", "candidate_swaps",
           "load_pool", "min_budget", "pair_specs", "run_tune", "schedule_for", "swap_ok",
           "MAX_POOL_BYTES", "check_deck_in_pool", "deck_of", "deck_text", "land_colors"]

POCOCK = {1: 1.960, 2: 2.178, 3: 2.289, 4: 2.361, 5: 2.413}
"""Pocock's constant z boundary for ``K`` equally spaced looks, two-sided 5% overall."""


# -- the schedule ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Schedule:
    """How games are spent: ``batch`` candidates per round, ``first_pairs`` pairs each in the
    first racing stage, ``look_pairs`` pairs per look of the confirmation, at most ``looks``."""

    batch: int = 8
    first_pairs: int = 16
    look_pairs: int = 64
    looks: int = 3

    def racing_games(self) -> int:
        """The most games one racing round plays (candidates and the current deck)."""
        games, alive, pairs, step = 0, self.batch, 0, self.first_pairs
        while True:
            games += 2 * alive * step
            pairs += step
            if alive <= 2:
                break
            alive = max(alive // 2, 2)
            if alive == 2:
                step = pairs  # the final two play as many again (twice as many in all)
        return games + 2 * pairs


def schedule_for(budget: int) -> Schedule:
    """The schedule a budget gets: bigger stages for bigger budgets (a 6,000-game budget plays
    15 pairs per candidate first and looks of 60 pairs)."""
    return Schedule(batch=8, first_pairs=max(2, min(budget // 400, 24)),
                    look_pairs=max(4, min(budget // 100, 96)), looks=3)


def min_budget(s: Schedule) -> int:
    """The fewest games that run one round: its racing and one confirmation look."""
    return s.racing_games() + 4 * s.look_pairs


# -- games ----------------------------------------------------------------------------------------
def pair_specs(cards: Sequence[str], name: str, field_: Field, pairs: Sequence[int], seed: int,
               agents: tuple[AgentRef, AgentRef], max_turns: int | None,
               start_index: int = 0) -> list[GameSpec]:
    """The games of ``cards`` on the given pair indices: pair ``k`` is the seed
    ``derive_seed(seed, "tune", k)`` against the opponent drawn for ``k`` with the field's
    shares, played in both seats. The same pair gives the same seeds and opponent to any deck."""
    deck = deck_of(cards, name)
    specs: list[GameSpec] = []
    i = start_index
    for k in pairs:
        s = derive_seed(seed, "tune", k)
        opp = opponent_of(field_, seed, k)
        specs.append(GameSpec(i, (deck, opp), (agents[0], agents[1]), s, ("a", "b"), max_turns))
        specs.append(GameSpec(i + 1, (opp, deck), (agents[1], agents[0]), s, ("b", "a"), max_turns))
        i += 2
    return specs


def opponent_of(field_: Field, seed: int, k: int) -> Deck:
    """The field opponent of pair ``k``: drawn with the field's shares from its own seed."""
    u = random.Random(derive_seed(seed, "tune-opponent", k)).random()
    acc = 0.0
    for e in field_.entries:
        acc += e.share
        if u < acc:
            return e.deck
    return field_.entries[-1].deck


def _score(r: GameResult) -> float | None:
    if r.error is not None:
        return None
    return 0.5 if r.winner is None else float(r.winner == "a")


def _mean_ci(d: Sequence[float], z: float) -> tuple[float, float, float]:
    n = len(d)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(d) / n
    if n < 2:
        return (m, -math.inf, math.inf)
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    h = z * math.sqrt(var / n)
    return (m, m - h, m + h)


# -- the result -----------------------------------------------------------------------------------
@dataclass
class Accepted:
    """An accepted swap: its measured effect on the win rate (paired mean difference) with the
    repeated-confidence interval, on ``pairs`` confirmation pairs, and the games spent by then."""

    swap: Swap
    effect: float
    ci_low: float
    ci_high: float
    pairs: int
    games_spent: int
    win_rate: float  # the new deck's score on the confirmation pairs

    def to_dict(self) -> dict[str, Any]:
        """Plain data."""
        return {"out": self.swap.out, "in": self.swap.into, "copies": self.swap.copies,
                "effect": self.effect, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "confirmation_pairs": self.pairs, "games_spent": self.games_spent,
                "win_rate": self.win_rate}


@dataclass
class TuneResult:
    """A tuning run: the start and final decks (one name per copy), the accepted swaps, the
    progress (``history``: ``(games spent, win rate, low, high)`` of the current deck) and the
    swaps tried."""

    deck: str
    pool: str
    field: Field
    agents: tuple[str, str]
    seed: int
    budget: int
    schedule: Schedule
    start: tuple[str, ...]
    final: tuple[str, ...]
    accepted: list[Accepted]
    tried: list[dict[str, Any]]
    history: list[tuple[int, float, float, float]]
    games: int
    seconds: float
    workers: int = 1
    stopped: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {"deck": self.deck, "pool": self.pool, "field": self.field.name,
                "field_file": self.field.source, "agent": self.agents[0],
                "opponent_agent": self.agents[1], "seed": self.seed, "budget": self.budget,
                "schedule": self.schedule.__dict__, "games_spent": self.games,
                "seconds": self.seconds, "workers": self.workers, "stopped": self.stopped,
                "start_deck": deck_text(self.start), "final_deck": deck_text(self.final),
                "accepted": [a.to_dict() for a in self.accepted], "tried": self.tried,
                "history": [{"games": g, "win_rate": w, "ci_low": lo, "ci_high": hi}
                            for g, w, lo, hi in self.history],
                "interval": "95% repeated-confidence interval (Pocock boundary) of the paired "
                            "mean difference in win rate (a draw counts 1/2)"}

    def write_json(self, path: str | Path) -> None:
        """Write :meth:`to_dict` as JSON (NaN as null)."""
        Path(path).write_text(json.dumps(json_safe(self.to_dict()), indent=2) + "\n")

    def chart(self, path: str | Path) -> None:
        """A PNG of the current deck's estimated win rate against the field (95% interval) as
        games are spent, a marker at each accepted swap."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(9, 4.8))
        xs = [h[0] for h in self.history]
        ys = [h[1] for h in self.history]
        lo = [h[2] for h in self.history]
        hi = [h[3] for h in self.history]
        ax.step([*xs, self.games], ys + ys[-1:], where="post", color="tab:blue",
                label="current deck's win rate vs the field")
        ax.fill_between([*xs, self.games], lo + lo[-1:], hi + hi[-1:], step="post",
                        color="tab:blue", alpha=0.15, label="95% interval")
        for a in self.accepted:
            ax.annotate(f"+{a.effect:.1%}: {a.swap.copies}x {a.swap.into}", (a.games_spent, a.win_rate),
                        xytext=(4, -12), textcoords="offset points", fontsize=7)
        ax.plot([a.games_spent for a in self.accepted], [a.win_rate for a in self.accepted], "o",
                color="tab:green", label="accepted swap")
        ax.set_xlim(0, max(self.budget, self.games, 1))
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
        ax.set_xlabel("games spent")
        ax.set_ylabel("win rate (a draw counts 1/2)")
        label = f" '{self.field.name}'" if self.field.name else ""
        n = len(self.accepted)
        ax.set_title(f"tuning {self.deck} vs the field{label}: {n} swap{'' if n == 1 else 's'} "
                     f"accepted, {self.games} games", fontsize=10)
        ax.legend(fontsize=8, loc="lower right")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


# -- the search -----------------------------------------------------------------------------------
class _Tuner:
    """The state of one run: the pair counter, the cache of results, the games spent."""

    def __init__(self, name: str, field_: Field, seed: int, agents: tuple[AgentRef, AgentRef],
                 max_turns: int | None, workers: int, backend: str, address: str | None,
                 advance: Callable[[int], None]) -> None:
        self.name, self.field, self.seed, self.agents = name, field_, seed, agents
        self.max_turns, self.workers, self.backend, self.address = max_turns, workers, backend, address
        self.advance = advance
        self.next_pair = 0
        self.games = 0
        self.cache: dict[tuple[str, ...], dict[int, float | None]] = {}

    def fresh(self, n: int) -> list[int]:
        out = list(range(self.next_pair, self.next_pair + n))
        self.next_pair += n
        return out

    def cost(self, jobs: Sequence[tuple[tuple[str, ...], Sequence[int]]]) -> int:
        """Games the jobs would play (results already known are not played again)."""
        n = 0
        for cards, pairs in jobs:
            have = self.cache.get(cards, {})
            n += 2 * sum(k not in have for k in set(pairs))
        return n

    def play(self, jobs: Sequence[tuple[tuple[str, ...], Sequence[int]]]) -> None:
        """Play every (deck, pairs) job's missing pairs, in one parallel run."""
        specs: list[GameSpec] = []
        owners: list[tuple[tuple[str, ...], int]] = []
        for cards, pairs in jobs:
            have = self.cache.setdefault(cards, {})
            todo = [k for k in dict.fromkeys(pairs) if k not in have and (cards, k) not in owners]
            specs += pair_specs(cards, self.name, self.field, todo, self.seed, self.agents,
                                self.max_turns, start_index=len(specs))
            owners += [(cards, k) for k in todo]
        if not specs:
            return
        results = run_games(specs, self.workers, self.backend, self.address, self.advance)
        self.games += len(results)
        for j, (cards, k) in enumerate(owners):
            a, b = _score(results[2 * j]), _score(results[2 * j + 1])
            self.cache[cards][k] = None if a is None or b is None else (a + b) / 2

    def diffs(self, cand: tuple[str, ...], cur: tuple[str, ...], pairs: Sequence[int]) -> list[float]:
        c, b = self.cache[cand], self.cache[cur]
        return [c[k] - b[k] for k in pairs  # type: ignore[operator]
                if c.get(k) is not None and b.get(k) is not None]

    def rate(self, cards: tuple[str, ...], pairs: Sequence[int] | None = None) -> tuple[float, float, float]:
        have = self.cache.get(cards, {})
        keys = have if pairs is None else pairs
        vals = [v for k in keys if (v := have.get(k)) is not None]
        return _mean_ci(vals, 1.96)


def run_tune(deck: str | Deck, field_: Field | str | Path | Mapping[str, Any], pool: Pool | str,
             budget: int, seed: int = 0, agents: AgentRef | tuple[AgentRef, AgentRef] = "heuristic",
             workers: int | None = None, backend: str = "local", address: str | None = None,
             max_turns: int | None = 100, land_slack: int = 2, schedule: Schedule | None = None,
             progress: bool = False) -> TuneResult:
    """Tune ``deck`` against ``field_`` with at most ``budget`` games (see the module
    docstring). Seeded: the same arguments give the same swaps and numbers for any ``workers``.
    Raises :class:`~mtg_env.MtgError` for a pool the deck does not match or a budget too small
    for one round of the schedule."""
    me = load_deck(deck)
    if isinstance(field_, str | Path):
        field_ = load_field(field_)
    elif not isinstance(field_, Field):
        field_ = parse_field(field_)
    pool = load_pool(pool) if isinstance(pool, str) else pool
    pair = (agents, agents) if not isinstance(agents, tuple) else agents
    _check_agents(pair)
    check_backend(workers, backend)
    workers = default_workers() if workers is None else workers
    name = me.name or "deck"
    start = tuple(me.card_names())
    check_deck_in_pool(start, pool, name)
    sched = schedule or schedule_for(budget)
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < min_budget(sched):
        raise MtgError(f"the budget of {budget} games is too small: one round of the search needs "
                       f"at least {min_budget(sched)} games")
    lands = sum(_is_land(n) for n in start)
    bounds = (max(lands - land_slack, 0), lands + land_slack)
    z = POCOCK.get(sched.looks, 2.5)
    cur = start
    accepted: list[Accepted] = []
    tried: list[dict[str, Any]] = []
    history: list[tuple[int, float, float, float]] = []
    tabu: set[Swap] = set()
    stopped = "budget spent"
    t0 = time.perf_counter()
    with game_progress(budget, f"tuning {name}", progress) as advance:
        t = _Tuner(name, field_, seed, pair, max_turns, workers, backend, address, advance)
        for rnd in range(10**6):
            rng = random.Random(derive_seed(seed, "tune-round", rnd))
            cands = candidate_swaps(cur, pool, bounds, sched.batch, rng, tabu)
            if not cands:
                stopped = "no legal swap left to try"
                break
            # racing: the current deck's known pairs first, then fresh ones
            known = sorted(k for k, v in t.cache.get(cur, {}).items() if v is not None)
            alive = [(s, apply_swap(cur, s)) for s in cands]
            used: list[int] = []
            step = sched.first_pairs
            lost = False
            while True:
                need = len(used) + step
                more = [k for k in known if k not in used][:step]
                pairs = used + more + t.fresh(need - len(used) - len(more))
                jobs = [(cur, pairs)] + [(c, pairs) for _, c in alive]
                if t.games + t.cost(jobs) > budget:
                    lost = True
                    break
                t.play(jobs)
                used = pairs
                ranked = sorted(alive, key=lambda sc: -_mean_ci(t.diffs(sc[1], cur, used), z)[0])
                if not history:
                    history.append((t.games, *t.rate(cur, used)))
                if len(alive) <= 2:
                    alive = ranked[:1]
                    break
                alive = ranked[:max(len(alive) // 2, 2)]
                step = len(used) if len(alive) == 2 else sched.first_pairs
            if lost:
                break
            for s, c in zip(cands, [apply_swap(cur, s) for s in cands], strict=True):
                if (s, c) != alive[0]:
                    tabu.add(s)
                    tried.append({"swap": str(s), "stage": "racing",
                                  "racing_effect": _mean_ci(t.diffs(c, cur, used), z)[0]})
            best, cand = alive[0]
            race = _mean_ci(t.diffs(cand, cur, used), z)[0]
            if not race > 0:
                tabu.add(best)
                tried.append({"swap": str(best), "stage": "racing", "racing_effect": race})
                continue
            # confirmation: a group-sequential test on fresh pairs
            conf: list[int] = []
            verdict = "rejected: the looks ran out"
            m = lo = hi = math.nan
            for _look in range(sched.looks):
                new = t.fresh(sched.look_pairs)
                jobs = [(cur, new), (cand, new)]
                if t.games + t.cost(jobs) > budget:
                    verdict = "undecided: budget spent"
                    break
                t.play(jobs)
                conf += new
                m, lo, hi = _mean_ci(t.diffs(cand, cur, conf), z)
                if lo > 0:
                    verdict = "accepted"
                    break
                if not m > 0 or hi < 0:
                    verdict = "rejected: no improvement"
                    break
            tried.append({"swap": str(best), "stage": "confirmation", "racing_effect": race,
                          "effect": m, "ci_low": lo, "ci_high": hi, "pairs": len(conf),
                          "verdict": verdict})
            if verdict == "accepted":
                w = t.rate(cand, conf)
                accepted.append(Accepted(best, m, lo, hi, len(conf), t.games, w[0]))
                history.append((t.games, *w))
                cur = cand
                tabu = set()
            else:
                tabu.add(best)
                if verdict.startswith("undecided"):
                    break
    seconds = time.perf_counter() - t0
    return TuneResult(name, pool.name, field_, (agent_label(pair[0]), agent_label(pair[1])), seed,
                      budget, sched, start, cur, accepted, tried, history, t.games, seconds, workers,
                      stopped)


def print_tune(res: TuneResult, console: Any) -> None:
    """Print a tuning run's accepted swaps and final deck on a rich console."""
    from rich.table import Table

    console.print(f"[bold]tuning {res.deck}[/bold] against the field "
                  f"{res.field.name or res.field.source}: pool {res.pool}, {res.agents[0]} vs "
                  f"{res.agents[1]} agents, seed {res.seed}, {res.games} of {res.budget} games "
                  f"({res.stopped})")
    t = Table(title="accepted swaps (effect: change of win rate vs the field, paired; 95% "
                    "repeated-confidence interval)")
    for col in ("#", "swap", "effect", "95% interval", "pairs", "games spent"):
        t.add_column(col, justify="left" if col == "swap" else "right")
    for i, a in enumerate(res.accepted, 1):
        t.add_row(str(i), str(a.swap), f"{a.effect:+.1%}", f"[{a.ci_low:+.1%}, {a.ci_high:+.1%}]",
                  str(a.pairs), str(a.games_spent))
    console.print(t)
    rejected = sum(1 for x in res.tried if x.get("verdict", "").startswith("rejected")
                   or x["stage"] == "racing")
    console.print(f"{len(res.accepted)} swap(s) accepted, {rejected} rejected")
    console.print("[bold]final deck[/bold]")
    console.print(deck_text(res.final), end="")
