"""Multiplayer pods: three to six decks at one Free-for-All table, or two Two-Headed Giant teams,
seat-rotated.

A Free-for-All pod of N decks plays its games in rounds of N: in round ``r`` game ``k`` seats deck
``(s + k) % N`` in seat ``s``, and seat 0 always plays first, so every deck sits in every seat
(and starts) equally often. A game ends when one player is left (2012 800.4), or as a draw at the
turn cap. Reported per deck (its wins over its games, with a 95% Wilson interval, against the
``1/N`` of an even table) and per seat (how much sitting first or last is worth).

A Two-Headed Giant pod (``variant="two_headed_giant"``) takes four decks as two teams, the first
two decks against the last two (2012 810). Its rounds of four games swap which team sits in seats
0 and 1 (and so plays first: that team skips its first draw, 810.6) and the order of the
teammates, so each team plays first half the time and each deck sits in both seats of its team.
Reported per team and per deck (a deck wins when its team wins: an even table gives 50%), and
for the team that plays first against the other.

An Emperor pod (``variant="emperor"``, 2012 809) takes six decks as two teams of three, the first
three against the last three, the second deck of each team its emperor. Its rounds of four games
swap the teams' sides and their generals, and the emperor in seat 1 always goes first (809.4
draws it at random), so each team starts half the games.

    >>> r = run_pod(["starter_green", "starter_red", "starter_white"], games=3, agents="random",
    ...             workers=1, max_turns=30)
    >>> [row["deck"] for row in r.deck_rows()]
    ['starter_green', 'starter_red', 'starter_white']
    >>> sum(row["wins"] for row in r.deck_rows()) + r.draws == 3
    True
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..agent_registry import make_agent
from ..engine.deck import Deck
from ..engine.errors import MtgError
from ..engine.game import Game
from ..engine.seating import ATTACK_OPTIONS, MAX_PLAYERS, winners
from .decks import load_deck
from .parallel import check_backend, default_workers, run_games
from .progress import game_progress
from .runner import EngineFailure, derive_seed, play_game
from .stats import wilson_interval

__all__ = ["PodGameResult", "PodGames", "PodResult", "PodSpec", "check_entrants", "play_pod_game",
           "pod_specs", "run_pod"]


@dataclass(frozen=True)
class PodSpec:
    """One pod game: a deck and an agent spec by seat, the engine seed, the attack option."""

    index: int
    decks: tuple[Deck, ...]
    agents: tuple[str, ...]
    seed: int
    labels: tuple[str, ...]  # the deck names by seat
    attack: str = "left"
    max_turns: int | None = 100
    variant: str = "free_for_all"  # or two_headed_giant


@dataclass(frozen=True)
class PodGameResult:
    """One pod game's outcome: the winner's deck and seat (``None``: a draw), the order in which
    the others left the game (deck names, first out first), life totals by seat."""

    index: int
    seed: int
    seats: tuple[str, ...]
    winner: str | None
    winner_seat: int | None
    turns: int
    decisions: int
    end_reason: str
    out_order: tuple[str, ...]
    life: tuple[int, ...]
    error: str | None = None
    seconds: float = field(default=0.0, compare=False)
    winners: tuple[str, ...] = ()
    """The winning decks: the winner, or in Two-Headed Giant the winning team (2012 810.8a)."""
    ended_with: tuple[str, ...] = ()
    """The other decks still in the game when it ended (at a draw, or losing as it ended),
    by seat: they finished together, after the winners and before those who left earlier."""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("seats", "out_order", "life", "winners", "ended_with"):
            d[k] = list(d[k])
        return d


def _check_multiplayer(agent: Any, spec: str) -> None:
    if not getattr(agent, "multiplayer", False):
        raise MtgError(f"the {spec} agent plays two-player games only (agents that play "
                       f"multiplayer games: random, heuristic, mcts)")


def check_entrants(loaded: Sequence[Deck], agents: str | Sequence[str], attack: str, games: int,
                   what: str, each: str) -> tuple[list[str], list[str]]:
    """The checks a pod and a pod tournament make before any game (``what``: "a pod"; ``each``:
    what an entrant is called): distinct deck names, one agent for every seat or one per
    entrant, agents that play multiplayer games, a known attack option, at least one game.
    Returns the entrants' names and their agent specs."""
    n = len(loaded)
    names = [d.name or f"deck_{i}" for i, d in enumerate(loaded)]
    if len(set(names)) != n:
        raise MtgError(f"{what}'s decks need distinct names, got {names}")
    specs_ = [agents] * n if isinstance(agents, str) else list(agents)
    if len(specs_) != n:
        raise MtgError(f"give one agent for every seat or one per {each} ({n}), "
                       f"got {len(specs_)}")
    for s in dict.fromkeys(specs_):
        try:
            _check_multiplayer(make_agent(s), s)
        except ValueError as exc:
            raise MtgError(str(exc)) from None
    if attack not in ATTACK_OPTIONS:
        raise MtgError(f"unknown attack option {attack!r}: " + ", ".join(ATTACK_OPTIONS))
    if games < 1:
        raise MtgError(f"games must be at least 1, got {games}")
    return names, specs_


def play_pod_game(spec: PodSpec) -> PodGameResult:
    """Play the pod game ``spec`` describes (a picklable module-level function for the workers)."""
    t0 = time.perf_counter()
    agents = [make_agent(a) for a in spec.agents]
    for a, s in zip(agents, spec.agents, strict=True):
        _check_multiplayer(a, s)
    game_args: dict[str, Any] = {"starting_player": 1 if spec.variant == "emperor" else 0,
                                 "variant": spec.variant}
    if spec.variant == "free_for_all":
        game_args["options"] = {"attack": spec.attack}
    try:
        g = play_game(spec.decks, agents, spec.seed, spec.max_turns, game_args=game_args)
        error = None
    except EngineFailure as exc:
        g, error = exc.game, str(exc)
    # The players who left, in order, then those the game ended on (together, by seat).
    left = sorted((P.index for P in g.players if P.lost), key=lambda pl: _left_at(g, pl))
    won = winners(g) if error is None else ()
    last = [P.index for P in g.players if not P.lost and P.index not in won]
    out = tuple(spec.labels[pl] for pl in (*left, *last)) if error is None else ()
    return PodGameResult(
        index=spec.index, seed=spec.seed, seats=spec.labels,
        winner=spec.labels[g.winner] if g.winner is not None and error is None else None,
        winner_seat=g.winner if error is None else None, turns=g.turn,
        decisions=g.decisions_made, end_reason="error" if error else g.end_reason,
        out_order=out, life=tuple(P.life for P in g.players), error=error,
        seconds=time.perf_counter() - t0, winners=tuple(spec.labels[pl] for pl in won),
        ended_with=tuple(spec.labels[pl] for pl in last) if error is None else ())


def _left_at(g: Game, pl: int) -> int:
    """The log line at which player ``pl`` left the game."""
    mark = f"player {pl} loses ("
    for i, line in enumerate(g.log):
        if line.startswith(mark) and line.endswith("leaves the game"):
            return i
    mark = f"player {pl} concedes"
    return next((i for i, line in enumerate(g.log) if line == mark), len(g.log))


# Two-Headed Giant seatings of the decks (teams 0+1 and 2+3), one round: each team in seats 0
# and 1 (playing first) twice, each deck in both seats of its team.
_GIANT_ROUND = ((0, 1, 2, 3), (2, 3, 0, 1), (1, 0, 3, 2), (3, 2, 1, 0))
# Emperor seatings (teams 0-2 and 3-5, emperors 1 and 4): the sides swapped, then the generals.
_EMPEROR_ROUND = ((0, 1, 2, 3, 4, 5), (3, 4, 5, 0, 1, 2), (2, 1, 0, 5, 4, 3), (5, 4, 3, 2, 1, 0))


def pod_specs(decks: Sequence[Deck], agents: Sequence[str], games: int, seed: int, attack: str,
              max_turns: int | None, variant: str = "free_for_all") -> list[PodSpec]:
    """``games`` pod games in seat-rotated rounds (see the module's docstring)."""
    n = len(decks)
    specs = []
    for i in range(games):
        k = i % n
        if variant == "two_headed_giant":
            order = list(_GIANT_ROUND[k])
        elif variant == "emperor":
            order = list(_EMPEROR_ROUND[i % 4])
        else:
            order = [(s + k) % n for s in range(n)]
        specs.append(PodSpec(
            index=i, decks=tuple(decks[j] for j in order), agents=tuple(agents[j] for j in order),
            seed=derive_seed(seed, "pod", i), labels=tuple(decks[j].name for j in order),
            attack=attack, max_turns=max_turns, variant=variant))
    return specs


class PodGames:
    """The counts over a list of pod games (``results``) that every pod summary reports."""

    results: list[PodGameResult]

    @property
    def played(self) -> list[PodGameResult]:
        """The games that ended without an engine error."""
        return [r for r in self.results if r.error is None]

    @property
    def draws(self) -> int:
        """Games played to the end without a winner."""
        return sum(1 for r in self.played if r.winner is None)

    @property
    def errors(self) -> int:
        """Games that ended in an engine error (left out of the tables)."""
        return sum(1 for r in self.results if r.error is not None)


@dataclass
class PodResult(PodGames):
    """A pod's games and their statistics."""

    decks: list[str]
    agents: list[str]
    attack: str
    seed: int
    results: list[PodGameResult]
    seconds: float = 0.0
    workers: int = 1
    backend: str = "local"
    variant: str = "free_for_all"

    @property
    def teams(self) -> list[tuple[str, ...]]:
        """The teams by deck name: two pairs in Two-Headed Giant, two threes in Emperor, one
        deck each otherwise."""
        k = {"two_headed_giant": 2, "emperor": 3}.get(self.variant, 1)
        return [tuple(self.decks[i:i + k]) for i in range(0, len(self.decks), k)]

    def deck_rows(self) -> list[dict[str, Any]]:
        """Per deck: games, wins, draws, win rate with its 95% Wilson interval, and the share
        an even table would give it (``1/N``)."""
        rows = []
        n = len(self.teams)
        for d in self.decks:
            games = [r for r in self.played if d in r.seats]
            wins = sum(1 for r in games if d in r.winners)
            lo, hi = wilson_interval(wins, len(games))
            rows.append({"deck": d, "games": len(games), "wins": wins,
                         "draws": sum(1 for r in games if r.winner is None),
                         "win_rate": wins / len(games) if games else float("nan"),
                         "ci_low": lo, "ci_high": hi, "even_share": 1 / n})
        return rows

    def team_rows(self) -> list[dict[str, Any]]:
        """Per team (Two-Headed Giant; each deck its own team otherwise): games, wins, draws,
        win rate with its 95% Wilson interval, and an even table's share."""
        rows = []
        for team in self.teams:
            games = [r for r in self.played if team[0] in r.seats]
            wins = sum(1 for r in games if team[0] in r.winners)
            lo, hi = wilson_interval(wins, len(games))
            rows.append({"team": " + ".join(team), "games": len(games), "wins": wins,
                         "draws": sum(1 for r in games if r.winner is None),
                         "win_rate": wins / len(games) if games else float("nan"),
                         "ci_low": lo, "ci_high": hi, "even_share": 1 / len(self.teams)})
        return rows

    def seat_rows(self) -> list[dict[str, Any]]:
        """Per seat (0 plays first): games won from that seat, with the interval; in Two-Headed
        Giant per team seat (0: seats 0 and 1, which play first; 1: seats 2 and 3)."""
        rows = []
        games = self.played
        k = {"two_headed_giant": 2, "emperor": 3}.get(self.variant, 1)
        for s in range(len(self.decks) // k):
            wins = sum(1 for r in games if r.winner_seat is not None
                       and r.winner_seat // k == s)
            lo, hi = wilson_interval(wins, len(games))
            rows.append({"seat": s, "games": len(games), "wins": wins,
                         "win_rate": wins / len(games) if games else float("nan"),
                         "ci_low": lo, "ci_high": hi})
        return rows

    def write_json(self, path: str | Path) -> None:
        """The summary, the tables and every game, as JSON."""
        data = {"variant": self.variant, "decks": self.decks, "agents": self.agents,
                "attack": self.attack,
                "seed": self.seed, "games": len(self.results), "draws": self.draws,
                "errors": self.errors, "seconds": round(self.seconds, 3), "workers": self.workers,
                "backend": self.backend, "by_deck": self.deck_rows(), "by_seat": self.seat_rows(),
                **({"by_team": self.team_rows()} if len(self.teams) < len(self.decks) else {}),
                "results": [r.to_dict() for r in self.results]}
        Path(path).write_text(json.dumps(data, indent=1))

    def write_csv(self, path: str | Path) -> None:
        """One row per game: its seats (deck by seat), winner, turns, end."""
        n = len(self.decks)
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["index", "seed", *(f"seat_{s}" for s in range(n)), "winner", "winner_seat",
                        "winners", "turns", "decisions", "end_reason", "out_order", "error"])
            for r in self.results:
                w.writerow([r.index, r.seed, *r.seats, r.winner or "", "" if r.winner_seat is None
                            else r.winner_seat, " ".join(r.winners), r.turns, r.decisions,
                            r.end_reason, " ".join(r.out_order), r.error or ""])


def run_pod(decks: Sequence[str | Deck], games: int = 30, agents: str | Sequence[str] = "random",
            seed: int = 0, attack: str | None = None, workers: int | None = None,
            backend: str = "local", address: str | None = None, max_turns: int | None = 100,
            progress: bool = False, variant: str = "free_for_all") -> PodResult:
    """Play a seat-rotated pod (names, paths or ``Deck`` objects): a Free-for-All of 3 to 6
    decks, or (``variant="two_headed_giant"``) two teams of two, the first two decks against
    the last two. ``games`` games (rounded up to whole rounds of seat rotations), ``agents`` one
    spec for every seat or one per deck, ``attack`` the Free-for-All attack option (2012
    802-803; default left)."""
    loaded = [load_deck(d) for d in decks]
    n = len(loaded)
    if variant not in ("free_for_all", "two_headed_giant", "emperor"):
        raise MtgError(f"unknown pod variant {variant!r}: free_for_all, two_headed_giant or "
                       f"emperor")
    if variant in ("two_headed_giant", "emperor"):
        want = 4 if variant == "two_headed_giant" else 6
        if n != want:
            raise MtgError(f"a Two-Headed Giant pod needs four decks (two teams: the first two "
                           f"against the last two), got {n}" if want == 4 else
                           f"an Emperor pod needs six decks (two teams: the first three against "
                           f"the last three, each team's second deck its emperor), got {n}")
        if attack is not None:
            raise MtgError("the attack option is for Free-for-All pods (the team variants fix "
                           "whom a player attacks)")
    elif not 3 <= n <= MAX_PLAYERS:
        raise MtgError(f"a pod needs 3 to {MAX_PLAYERS} decks, got {n}")
    attack = "left" if attack is None else attack
    names, specs_ = check_entrants(loaded, agents, attack, games, "a pod", "deck")
    games = -(-games // n) * n if variant != "emperor" else -(-games // 4) * 4
    # Every deck is checked before any game: one a multiplayer game refuses fails here.
    if variant != "free_for_all":
        Game.new(loaded, seed=seed, variant=variant)
    else:
        Game.new(loaded, seed=seed, options={"attack": attack})
    check_backend(workers, backend)
    workers = default_workers() if workers is None else workers
    specs = pod_specs(loaded, specs_, games, seed, attack, max_turns, variant)
    t0 = time.perf_counter()
    what = {"two_headed_giant": "Two-Headed Giant", "emperor": "Emperor"}.get(variant, f"pod of {n}")
    with game_progress(len(specs), what, progress) as advance:
        results = run_games(specs, workers, backend, address, advance, play=play_pod_game)
    return PodResult(names, specs_, attack if variant == "free_for_all" else "", seed, results,
                     time.perf_counter() - t0, workers, backend, variant)
