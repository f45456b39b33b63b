"""Deck matchups: seat-balanced paired games between two decks, with honest statistics.

Games come in pairs: both games of a pair use the same seed (the same shuffles and the same coin
flip) with the decks in swapped seats, so each deck plays every shuffle from both seats and is
on the play exactly as often as on the draw.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agent_registry import make_agent
from ..engine.deck import Deck
from ..engine.errors import MtgError
from .decks import load_deck
from .parallel import PlayFn, check_backend, default_workers, run_games
from .progress import game_progress
from .runner import GameResult, GameSpec, derive_seed, run_spec
from .stats import wilson_interval

__all__ = ["MatchupResult", "PlayedGames", "grouped_matchup_specs", "json_safe", "matchup_specs",
           "play_games", "run_matchup", "summarize"]

AgentRef = str | Callable[[], Any]


def matchup_specs(deck_a: Deck, deck_b: Deck, agents: tuple[AgentRef, AgentRef], games: int, seed: int,
                  max_turns: int | None = 100, start_index: int = 0, stream: str = "") -> list[GameSpec]:
    """The games of one matchup: ``ceil(games / 2)`` pairs, each seed played with seats swapped.

    ``agents`` are the agents of deck A and deck B. ``stream`` separates the seeds of different
    pairings run with the same base seed.
    """
    if games < 1:
        raise MtgError(f"the number of games must be at least 1, got {games}")
    specs = []
    for k in range((games + 1) // 2):
        s = derive_seed(seed, stream, k)
        i = start_index + 2 * k
        specs.append(GameSpec(i, (deck_a, deck_b), (agents[0], agents[1]), s, ("a", "b"), max_turns))
        specs.append(GameSpec(i + 1, (deck_b, deck_a), (agents[1], agents[0]), s, ("b", "a"), max_turns))
    return specs


def grouped_matchup_specs(pairings: Sequence[tuple[Deck, Deck, str]], agents: tuple[AgentRef, AgentRef],
                          games: int, seed: int, max_turns: int | None) -> list[list[GameSpec]]:
    """The games of several matchups numbered as one run: :func:`matchup_specs` of each
    ``(deck_a, deck_b, stream)``, its indices following the previous matchup's."""
    groups = []
    start = 0
    for deck_a, deck_b, stream in pairings:
        specs = matchup_specs(deck_a, deck_b, agents, games, seed, max_turns, start, stream=stream)
        groups.append(specs)
        start += len(specs)
    return groups


def _rate(wins: int, decisive: int) -> dict[str, float]:
    lo, hi = wilson_interval(wins, decisive)
    return {"rate": wins / decisive if decisive else math.nan, "ci_low": lo, "ci_high": hi}


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Statistics of side ``a`` against side ``b`` over finished games.

    Win rates are over decisive games (draws are reported apart) with 95% Wilson intervals.
    Games the engine failed on are counted in ``errors`` and left out of everything else.
    """
    ok = [r for r in results if r.error is None]
    wins_a = sum(r.winner == "a" for r in ok)
    wins_b = sum(r.winner == "b" for r in ok)
    draws = sum(r.winner is None for r in ok)
    play = [r for r in ok if r.on_the_play == "a" and r.winner is not None]
    draw = [r for r in ok if r.on_the_play == "b" and r.winner is not None]
    decisive = [r for r in ok if r.winner is not None]
    first = sum(r.winner == r.on_the_play for r in decisive)
    n = len(ok)
    return {
        "games": n, "wins_a": wins_a, "wins_b": wins_b, "draws": draws,
        "errors": len(results) - n,
        "win_rate_a": _rate(wins_a, wins_a + wins_b),
        "win_rate_a_on_the_play": _rate(sum(r.winner == "a" for r in play), len(play)),
        "win_rate_a_on_the_draw": _rate(sum(r.winner == "a" for r in draw), len(draw)),
        "on_the_play_win_rate": _rate(first, len(decisive)),
        "avg_turns": sum(r.turns for r in ok) / n if n else math.nan,
        "avg_decisions": sum(r.decisions for r in ok) / n if n else math.nan,
        "end_reasons": _count(r.end_reason for r in ok),
    }


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


@dataclass
class MatchupResult:
    """The games of a matchup and their statistics (``summary``, see :func:`summarize`)."""

    deck_a: str
    deck_b: str
    agents: tuple[str, str]
    seed: int
    results: list[GameResult]
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"
    saved: list[Path] = field(default_factory=list)  # replay files written (--save-games)
    summary: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.summary = summarize(self.results)

    @property
    def games_per_second(self) -> float:
        """Throughput of the run (wall time, all workers)."""
        return len(self.results) / self.seconds if self.seconds > 0 else math.nan

    def to_dict(self, games: bool = False) -> dict[str, Any]:
        """The summary (and with ``games=True`` every game) as plain data."""
        d = {"deck_a": self.deck_a, "deck_b": self.deck_b, "agent_a": self.agents[0],
             "agent_b": self.agents[1], "seed": self.seed, **self.summary,
             "seconds": self.seconds, "games_per_second": self.games_per_second,
             "workers": self.workers, "backend": self.backend}
        if games:
            d["game_results"] = [r.to_dict() for r in self.results]
        return d

    def write_json(self, path: str | Path) -> None:
        """Write the summary and every game as JSON (NaN as null)."""
        Path(path).write_text(json.dumps(json_safe(self.to_dict(games=True)), indent=2) + "\n")

    def write_csv(self, path: str | Path) -> None:
        """One row per game, from deck A's point of view."""
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["game", "seed", "seat_a", "winner", "on_the_play", "turns", "decisions",
                        "end_reason", "life_a", "life_b", "error"])
            for r in self.results:
                seat_a = r.seats.index("a")
                winner = {"a": self.deck_a, "b": self.deck_b}.get(r.winner or "", "draw")
                w.writerow([r.index, r.seed, seat_a, winner,
                            self.deck_a if r.on_the_play == "a" else self.deck_b, r.turns,
                            r.decisions, r.end_reason, r.life[seat_a], r.life[1 - seat_a],
                            r.error or ""])


def json_safe(obj: Any) -> Any:
    """``obj`` with every NaN float replaced by None, through dicts, lists and tuples (JSON has
    no NaN: it is written as null)."""
    if isinstance(obj, float) and math.isnan(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    return obj


def agent_label(agent: AgentRef) -> str:
    """A display name for an agent given by name or factory."""
    return agent if isinstance(agent, str) else getattr(agent, "name", getattr(agent, "__name__", "agent"))


def run_matchup(deck_a: str | Deck, deck_b: str | Deck, games: int = 100,
                agents: AgentRef | tuple[AgentRef, AgentRef] = "heuristic", seed: int = 0,
                workers: int | None = None, backend: str = "local", address: str | None = None,
                max_turns: int | None = 100, progress: bool = False,
                save_games: str | Path | None = None, only_losses_of: str | None = None) -> MatchupResult:
    """Play a seat-balanced matchup of deck A against deck B (decks by name, path or object).

    ``agents`` is one agent for both decks or a pair (deck A's, deck B's), as names
    (``"heuristic"``, ``"random"``) or picklable zero-argument factories. With ``save_games`` (a
    folder) every game's replay is written there, or with ``only_losses_of`` (an agent name)
    only the games that agent lost (see :func:`mtg_env.sim.replay.save_games`).
    """
    da, db = load_deck(deck_a), load_deck(deck_b)
    pair = (agents, agents) if not isinstance(agents, tuple) else agents
    _check_agents(pair)
    name_a, name_b = da.name or "deck_a", db.name or "deck_b"
    specs = matchup_specs(da, db, pair, games, seed, max_turns, stream=f"{name_a}|{name_b}")
    run = play_games(specs, f"{name_a} vs {name_b}", workers, backend, address, progress, save_games,
                     only_losses_of)
    return MatchupResult(name_a, name_b, (agent_label(pair[0]), agent_label(pair[1])), seed, run.results,
                         run.seconds, run.workers, backend, run.saved)


def recording(specs: list[GameSpec], save_games: str | Path | None,
              only_losses_of: str | None) -> list[GameSpec]:
    """``specs`` set to record their actions when games are to be saved (checks the options)."""
    if save_games is None:
        if only_losses_of is not None:
            raise MtgError("--only-losses-of needs --save-games DIR")
        return specs
    from .replay import check_losses_of

    check_losses_of(specs, only_losses_of)
    return [dataclasses.replace(s, record=True) for s in specs]


def save_games_of(specs: Sequence[GameSpec], results: Sequence[GameResult],
                  save_games: str | Path | None, only_losses_of: str | None) -> list[Path]:
    """Write the replays of a finished run (nothing when ``save_games`` is ``None``)."""
    if save_games is None:
        return []
    from .replay import save_games as _save

    return _save(specs, results, save_games, only_losses_of)


@dataclass
class PlayedGames:
    """The outcome of :func:`play_games`: the results in index order, the run's wall time, the
    number of workers it used and the replay files it wrote."""

    results: list[GameResult]
    seconds: float
    workers: int
    saved: list[Path]

    def split(self, groups: Sequence[Sequence[GameSpec]]) -> list[list[GameResult]]:
        """The results of each group of specs, in the group's order."""
        by_index = {r.index: r for r in self.results}
        return [[by_index[s.index] for s in group] for group in groups]

    def seconds_of(self, n: int) -> float:
        """The share of the wall time of ``n`` of the games."""
        return self.seconds * n / max(len(self.results), 1)


def play_games(specs: list[GameSpec], description: str, workers: int | None, backend: str,
               address: str | None, progress: bool, save_games: str | Path | None,
               only_losses_of: str | None, play: PlayFn = run_spec) -> PlayedGames:
    """Play ``specs`` in one parallel run under a progress bar labelled ``description``, then
    write their replays (``save_games``/``only_losses_of`` as in :func:`run_matchup`, checked
    before any game starts). ``play`` plays one game (see :func:`~mtg_env.sim.parallel.run_games`)."""
    specs = recording(specs, save_games, only_losses_of)
    check_backend(workers, backend)
    workers = default_workers() if workers is None else workers
    t0 = time.perf_counter()
    with game_progress(len(specs), description, progress) as advance:
        results = run_games(specs, workers, backend, address, advance, play=play)
    seconds = time.perf_counter() - t0
    saved = save_games_of(specs, results, save_games, only_losses_of)
    return PlayedGames(results, seconds, workers, saved)


def _check_agents(agents: Sequence[AgentRef]) -> None:
    for a in agents:
        if not isinstance(a, str):
            continue
        # Building checks the parameters (mcts:ms=200), the file (ppo:PATH) and a network's
        # missing [rl] extra here, in one line, rather than in a worker.
        try:
            agent = make_agent(a)
        except ValueError as exc:
            raise MtgError(str(exc)) from None
        if getattr(agent, "interactive", False):
            raise MtgError(f"the {a} agent is interactive: it plays only in 'mtg-env play'")
