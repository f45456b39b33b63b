"""Limited events: Swiss rounds of matches between built decks, played by simulation, with
standings, match points and tie-breakers; and the sealed and draft events that build the decks.

**Rounds.** ``ceil(log2(players))`` Swiss rounds by default (3 for 8 players). Round 1 pairs
the players in a seeded random order. Later rounds sort them by match points (a seeded shuffle
first, so equal records are in random order) and pair from the top, never pairing two players
who have met when any pairing avoids it (a backtracking search; when none exists, rematches are
allowed). With an odd number of players the lowest-ranked player who has not had a bye gets one:
a match win, 2-0 in games.

**Matches.** Best of three by default: games until a player has won two, at most three, so a
drawn game (the turn cap) can leave a match drawn (1-1-1). ``best_of=1`` plays one game. The
first game's starting player is a seeded coin flip; after a decided game its loser plays first
(2007 tournament rules let the loser choose; a simulated player always plays); after a drawn
game the same player starts again. A game the engine fails on counts as a drawn game, with its
error kept in the record. Every game's seed comes from the event's seed, the round, the table
and the game number, so an event is the same for any number of workers.

**A person's matches.** With ``at_terminal`` (``mtg-env draft --human --play``) a player's
matches are played in this process through the interactive play loop, after the round's
simulated matches, with the same seeds and starting players a simulated match would have.

**Standings** (the DCI tie-breakers): match points (win 3, draw 1, loss 0); then opponents'
match-win percentage (OMW%: the mean of the opponents' match-win percentages, each at least
33%; byes are not opponents); then game-win percentage (GW%: game points, 3 a won game and 1 a
drawn one, over 3 per game played, at least 33%); then opponents' game-win percentage; a tie past
these goes to the lower player number.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...agent_registry import make_agent
from ...engine.deck import Deck
from ...engine.errors import MtgError
from ...engine.game import Game
from ...engine.view import view_for
from ..parallel import default_workers
from ..runner import GAME_OPTIONS, derive_seed
from .boosters import sealed_pool
from .card_ratings import CardRatings, default_ratings
from .deckbuild import LimitedDeck, build_deck
from .draft import BotDrafter, Drafter, DraftResult, run_draft

__all__ = ["Entrant", "EventResult", "GameRecord", "MatchResult", "MatchTask", "PersonFactory", "Standing",
           "check_agent", "default_rounds", "play_match", "play_match_here", "progress_bar",
           "run_draft_event", "run_event", "run_sealed_event", "standings", "swiss_pairings"]

BYE = None
_Runner = Callable[[Sequence["MatchTask"]], Iterator["MatchResult"]]


@dataclass(frozen=True)
class Entrant:
    """A player of an event: a name, a built deck (its pool included) and the agent playing it."""

    name: str
    deck: LimitedDeck
    agent: str = "heuristic"
    pool: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameRecord:
    """One game of a match: ``winner`` is 0 or 1 (the match's first or second player) or None
    for a draw; ``first`` is who played first. ``seen`` (when the event tracks cards) holds, for
    each player, the names of the cards that left their library during the game (drawn, or
    rarely searched for or milled): the cards "in hand" in that game."""

    seed: int
    first: int
    winner: int | None
    turns: int
    end_reason: str
    error: str | None = None
    seen: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (without ``seen``)."""
        return {"seed": self.seed, "first": self.first, "winner": self.winner, "turns": self.turns,
                "end_reason": self.end_reason, "error": self.error}


@dataclass(frozen=True)
class MatchTask:
    """A match to play: the two players' numbers, decks and agents, the match seed."""

    round: int
    table: int
    players: tuple[int, int]
    decks: tuple[Deck, Deck]
    agents: tuple[str, str]
    seed: int
    best_of: int = 3
    max_turns: int | None = 100
    track_cards: bool = False


@dataclass(frozen=True)
class MatchResult:
    """A finished match (or a bye: ``players[1]`` is None and there are no games)."""

    round: int
    table: int
    players: tuple[int, int | None]
    games: tuple[GameRecord, ...] = ()

    @property
    def is_bye(self) -> bool:
        """Is this a bye (a match win for ``players[0]``, no games)?"""
        return self.players[1] is None

    @property
    def score(self) -> tuple[int, int, int]:
        """Games won by the first player, by the second, and drawn (a bye: 2-0-0)."""
        if self.is_bye:
            return (2, 0, 0)
        w = Counter(g.winner for g in self.games)
        return (w[0], w[1], w[None])

    @property
    def winner(self) -> int | None:
        """The number of the player who won the match, or None for a drawn match."""
        a, b, _ = self.score
        return self.players[0] if a > b else self.players[1] if b > a else None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        a, b, d = self.score
        return {"round": self.round, "table": self.table, "players": list(self.players),
                "bye": self.is_bye, "score": [a, b, d], "winner": self.winner,
                "games": [g.to_dict() for g in self.games]}


@dataclass(frozen=True)
class Standing:
    """One row of the standings (percentages as fractions)."""

    rank: int
    player: int
    name: str
    points: int
    match_record: tuple[int, int, int]
    game_record: tuple[int, int, int]
    omw: float
    gw: float
    ogw: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {"rank": self.rank, "player": self.player, "name": self.name, "points": self.points,
                "matches": list(self.match_record), "games": list(self.game_record),
                "omw": round(self.omw, 4), "gw": round(self.gw, 4), "ogw": round(self.ogw, 4)}


def default_rounds(players: int) -> int:
    """Swiss rounds for ``players``: ``ceil(log2(players))``, at least 1."""
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1


# -- pairings -------------------------------------------------------------------------------------
_BUDGET = 200_000  # search steps before rematches are allowed


def _pair(order: list[int], met: Mapping[int, set[int]], steps: list[int]) -> list[tuple[int, int]] | None:
    if not order:
        return []
    a, rest = order[0], order[1:]
    for i, b in enumerate(rest):
        if b in met.get(a, ()):
            continue
        steps[0] += 1
        if steps[0] > _BUDGET:
            return None
        sub = _pair(rest[:i] + rest[i + 1:], met, steps)
        if sub is not None:
            return [(a, b), *sub]
    return None


def swiss_pairings(order: Sequence[int], met: Mapping[int, set[int]],
                   had_bye: Collection[int] = ()) -> list[tuple[int, int | None]]:
    """Pair the players of ``order`` (best ranked first): from the top, nobody against someone
    in ``met[player]`` when any pairing of everyone avoids it, else top-down regardless. With an
    odd number, the lowest-ranked player not in ``had_bye`` whose bye leaves a rematch-free
    pairing gets the bye ``(player, None)``, listed last."""
    order = list(order)
    byes: list[int | None] = [None]
    if len(order) % 2:
        byes = [p for p in reversed(order) if p not in had_bye] or [order[-1]]
    for bye in byes:
        rest = [p for p in order if p != bye]
        pairs = _pair(rest, met, [0])
        if pairs is not None:
            return [*pairs, *([(bye, BYE)] if bye is not None else [])]
    bye = byes[0]
    rest = [p for p in order if p != bye]
    out: list[tuple[int, int | None]] = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    return out + ([(bye, BYE)] if bye is not None else [])


# -- standings ------------------------------------------------------------------------------------
def standings(names: Sequence[str], matches: Sequence[MatchResult]) -> list[Standing]:
    """The standings after ``matches`` (see the module docstring for the tie-breakers)."""
    n = len(names)
    points = [0] * n
    mrec = [[0, 0, 0] for _ in range(n)]
    grec = [[0, 0, 0] for _ in range(n)]
    rounds = [0] * n
    opps: list[list[int]] = [[] for _ in range(n)]
    for m in matches:
        a, b = m.players
        ga, gb, gd = m.score
        sides = [(a, ga, gb)] + ([(b, gb, ga)] if b is not None else [])
        for p, won, lost in sides:
            rounds[p] += 1
            grec[p][0] += won
            grec[p][1] += lost
            grec[p][2] += gd
            k = 0 if won > lost else 1 if lost > won else 2
            mrec[p][k] += 1
            points[p] += (3, 0, 1)[k]
        if b is not None:
            opps[a].append(b)
            opps[b].append(a)

    def mw(p: int) -> float:
        return max(points[p] / (3 * rounds[p]), 1 / 3) if rounds[p] else 1 / 3

    def gw(p: int) -> float:
        played = sum(grec[p])
        return max((3 * grec[p][0] + grec[p][2]) / (3 * played), 1 / 3) if played else 1 / 3

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs) if xs else 0.0

    rows = [(p, mean([mw(o) for o in opps[p]]), gw(p), mean([gw(o) for o in opps[p]])) for p in range(n)]
    rows.sort(key=lambda r: (-points[r[0]], -r[1], -r[2], -r[3], r[0]))
    return [Standing(i + 1, p, names[p], points[p], tuple(mrec[p]), tuple(grec[p]), omw, g, ogw)  # type: ignore[arg-type]
            for i, (p, omw, g, ogw) in enumerate(rows)]


# -- matches --------------------------------------------------------------------------------------
def _play_game(decks: Sequence[Deck], agents: Sequence[Any], seed: int, first: int,
               max_turns: int | None) -> Game:
    """One game with ``first`` playing first; agents act from their redacted views."""
    game = Game.new(list(decks), seed=seed, starting_player=first, max_turns=max_turns, **GAME_OPTIONS)
    for seat, agent in enumerate(agents):
        agent.reset(seat, derive_seed(seed, "agent", seat))
    while not game.is_over:
        d = game.decision
        game.apply(agents[d.player].act(view_for(game, d.player)))
    return game


def _seen(game: Game, deck: Deck, seat: int) -> tuple[str, ...]:
    left = Counter(c.name for c in game.players[seat].library)
    return tuple(sorted(n for n, k in Counter(deck.card_names()).items() if k > left[n]))


def _best_of(task: MatchTask, play_one: Callable[[int, int, int], GameRecord]) -> MatchResult:
    """A match of ``task.best_of`` games, stopped once a player has won most of them:
    ``play_one(k, seed, first)`` plays game ``k`` (0-based) with its seed and starting player;
    the first is a seeded coin flip, then the loser of the last decisive game plays first."""
    need = task.best_of // 2 + 1
    wins = [0, 0]
    games: list[GameRecord] = []
    first = random.Random(derive_seed(task.seed, "coin flip")).randrange(2)
    for k in range(task.best_of):
        rec = play_one(k, derive_seed(task.seed, "game", k), first)
        games.append(rec)
        if rec.winner is not None:
            wins[rec.winner] += 1
            first = 1 - rec.winner
        if max(wins) >= need:
            break
    return MatchResult(task.round, task.table, task.players, tuple(games))


def play_match(task: MatchTask) -> MatchResult:
    """Play a match (see the module docstring): best of ``task.best_of`` games."""

    def play_one(k: int, seed: int, first: int) -> GameRecord:
        agents = [make_agent(a) for a in task.agents]
        try:
            g = _play_game(task.decks, agents, seed, first, task.max_turns)
            return GameRecord(seed, first, g.winner, g.turn, g.end_reason,
                              seen=((_seen(g, task.decks[0], 0), _seen(g, task.decks[1], 1))
                                    if task.track_cards else None))
        except Exception as exc:  # an engine bug: the game counts as drawn, the error is kept
            return GameRecord(seed, first, None, 0, "error", f"{type(exc).__name__}: {exc}")

    return _best_of(task, play_one)


PersonFactory = Callable[[Sequence[str]], Any]
"""Builds the agent of a person at the terminal, given the two players' labels."""


def play_match_here(task: MatchTask, person: int, make_person: PersonFactory, names: tuple[str, str],
                    say: Callable[[str], None] = print,
                    board_labels: tuple[str, ...] | None = None) -> MatchResult:
    """Play a match in this process with a person in seat ``person`` (0 or 1), as
    :func:`play_match` would (the same seeds and starting players), each game through the
    recording loop that serves interactive seats (:func:`mtg_env.sim.replay.record_game`: undo
    and concede work; a conceded game is lost). ``make_person`` gets ``board_labels`` (default
    ``names``); ``say`` announces each game and its result. A
    :class:`~mtg_env.sim.interactive.HumanQuit` (end of input, Ctrl-C) is passed on."""
    from ..replay import record_game

    def play_one(k: int, seed: int, first: int) -> GameRecord:
        agents = [make_agent(a) for a in task.agents]
        agents[person] = make_person(board_labels or names)
        say(f"Round {task.round}, game {k + 1}: {names[0]} (player 0) vs {names[1]} (player 1); "
            f"{names[first]} plays first")
        game, _ = record_game(task.decks, agents, seed, task.max_turns, options={"starting_player": first})
        rec = GameRecord(seed, first, game.winner, game.turn, game.end_reason)
        say("game drawn" if rec.winner is None else f"{names[rec.winner]} wins game {k + 1}")
        return rec

    return _best_of(task, play_one)


@contextmanager
def _match_runner(workers: int, n_tasks: int) -> Iterator[_Runner]:
    if workers <= 1 or n_tasks <= 1:
        yield lambda tasks: (play_match(t) for t in tasks)
        return
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    with mp.get_context(method).Pool(processes=min(workers, n_tasks)) as pool:
        yield lambda tasks: pool.imap_unordered(play_match, tasks)


@contextmanager
def progress_bar(total: int, enabled: bool = True, unit: str = "matches",
                 first: str = "round 1") -> Iterator[Callable[[int, str], None]]:
    """A progress bar on stderr; yields ``advance(n, description)``."""
    if not enabled:
        yield lambda n, desc: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    con = Console(stderr=True, width=None if sys.stderr.isatty() else 120)
    progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=24),
                        MofNCompleteColumn(), TextColumn(unit), TimeElapsedColumn(), console=con)
    with progress:
        task = progress.add_task(first, total=total)
        yield lambda n, desc: progress.update(task, advance=n, description=desc)


# -- events ---------------------------------------------------------------------------------------
@dataclass
class EventResult:
    """A finished event: its players, every round's matches and the final standings."""

    kind: str
    seed: int
    entrants: list[Entrant]
    rounds: list[list[MatchResult]]
    best_of: int
    seconds: float = 0.0
    draft: DraftResult | None = None
    ratings_source: str = ""
    standings: list[Standing] = field(init=False)

    def __post_init__(self) -> None:
        self.standings = standings([e.name for e in self.entrants], [m for r in self.rounds for m in r])

    @property
    def matches(self) -> list[MatchResult]:
        """Every match of every round, in order."""
        return [m for r in self.rounds for m in r]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: players with their decks and pools, rounds, standings."""
        d: dict[str, Any] = {
            "kind": self.kind, "seed": self.seed, "best_of": self.best_of,
            "ratings": self.ratings_source, "seconds": round(self.seconds, 3),
            "players": [{"player": i, "name": e.name, "agent": e.agent, "deck": e.deck.to_dict(),
                         "pool": list(e.pool)} for i, e in enumerate(self.entrants)],
            "rounds": [[m.to_dict() for m in r] for r in self.rounds],
            "standings": [s.to_dict() for s in self.standings]}
        if self.draft is not None:
            d["draft"] = self.draft.to_dict(picks=True)
        return d

    def write_json(self, path: str | Path) -> Path:
        """Write :meth:`to_dict` as JSON."""
        p = Path(path)
        p.write_text(json.dumps(self.to_dict(), indent=1) + "\n")
        return p


def check_agent(spec: str) -> None:
    """Raise :class:`~mtg_env.MtgError` (one line) for an agent spec that can't play an event."""
    try:
        agent = make_agent(spec)
    except ValueError as exc:
        raise MtgError(str(exc).splitlines()[0]) from None
    if getattr(agent, "interactive", False):
        raise MtgError(f"the {spec} agent is interactive: events are played by simulated agents")


def run_event(entrants: Sequence[Entrant], seed: int = 0, rounds: int | None = None, best_of: int = 3,
              max_turns: int | None = 100, workers: int | None = 1, progress: bool = False,
              track_cards: bool = False, kind: str = "event",
              at_terminal: Mapping[int, PersonFactory] | None = None,
              say: Callable[[str], None] = print) -> EventResult:
    """Play a Swiss event between ``entrants`` (see the module docstring). Matches of a round
    run on ``workers`` processes (default 1; ``None``: all cores); results do not depend on it.

    ``at_terminal`` maps player numbers to factories of a person's agent: their matches are
    played in this process, after the round's other matches, by :func:`play_match_here`."""
    n = len(entrants)
    if n < 2:
        raise MtgError(f"an event needs at least 2 players, got {n}")
    if best_of not in (1, 3):
        raise MtgError(f"matches are best of 1 or 3, got {best_of}")
    rounds = default_rounds(n) if rounds is None else rounds
    if rounds < 1:
        raise MtgError(f"rounds must be at least 1, got {rounds}")
    for a in {e.agent for e in entrants}:
        check_agent(a)
    workers = default_workers() if workers is None else workers
    names = [e.name for e in entrants]
    decks = [e.deck.deck for e in entrants]
    played: list[list[MatchResult]] = []
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    had_bye: set[int] = set()
    t0 = time.perf_counter()
    tables = n // 2
    with progress_bar(rounds * tables, progress) as advance, _match_runner(workers, tables) as run:
        for r in range(rounds):
            rng = random.Random(derive_seed(seed, "pairing", r))
            order = list(range(n))
            rng.shuffle(order)
            if played:
                table = {s.player: s.points for s in standings(names, [m for x in played for m in x])}
                order.sort(key=lambda p: -table[p])
            pairs = swiss_pairings(order, met, had_bye)
            tasks = [MatchTask(r + 1, t + 1, (a, b), (decks[a], decks[b]),
                               (entrants[a].agent, entrants[b].agent),
                               derive_seed(seed, "match", r, t), best_of, max_turns, track_cards)
                     for t, (a, b) in enumerate(pairs) if b is not None]
            here = at_terminal or {}
            results = []
            advance(0, f"round {r + 1}/{rounds}")
            for res in run([t for t in tasks if not set(t.players) & set(here)]):
                results.append(res)
                advance(1, f"round {r + 1}/{rounds}")
            for t in tasks:
                person = next((i for i, p in enumerate(t.players) if p in here), None)
                if person is not None:
                    labels = (names[t.players[0]], names[t.players[1]])
                    boards = tuple(f"{entrants[p].deck.colors} deck" if i == person
                                   else f"{names[p]}, {entrants[p].deck.colors}"
                                   for i, p in enumerate(t.players))
                    results.append(play_match_here(t, person, here[t.players[person]], labels, say,
                                                   boards))
                    advance(1, f"round {r + 1}/{rounds}")
            results += [MatchResult(r + 1, len(pairs), (a, None)) for a, b in pairs if b is None]
            results.sort(key=lambda m: m.table)
            for m in results:
                a, b = m.players
                if b is None:
                    had_bye.add(a)
                else:
                    met[a].add(b)
                    met[b].add(a)
            played.append(results)
    return EventResult(kind, seed, list(entrants), played, best_of, time.perf_counter() - t0)


def _ratings(ratings: CardRatings | None) -> CardRatings:
    return default_ratings() if ratings is None else ratings


def run_sealed_event(players: int = 8, seed: int = 0, ratings: CardRatings | None = None,
                     agent: str = "heuristic", **event: Any) -> EventResult:
    """A sealed event: each player opens six boosters (seeded from ``seed`` and the player),
    the deck builder builds each deck by ``ratings``, then :func:`run_event` plays it (its
    options passed through ``event``)."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise MtgError(f"an event needs at least 2 players, got {players!r}")
    r = _ratings(ratings)
    entrants = []
    for i in range(players):
        pool = sealed_pool(derive_seed(seed, "sealed pool", i))
        name = f"player {i + 1}"
        entrants.append(Entrant(name, build_deck(pool, r, name), agent, tuple(pool)))
    res = run_event(entrants, seed=derive_seed(seed, "event"), kind="sealed", **event)
    res.seed, res.ratings_source = seed, r.source
    return res


def run_draft_event(seed: int = 0, ratings: CardRatings | None = None, agent: str = "heuristic",
                    seats: int = 8, human: Drafter | None = None, human_seat: int = 0,
                    human_name: str = "you", on_decks: Callable[[EventResult], None] | None = None,
                    **event: Any) -> EventResult:
    """A booster draft (bots drafting by ``ratings``; with ``human``, that drafter takes seat
    ``human_seat``), the deck builder on every pool, then :func:`run_event`. ``on_decks`` is
    called with the event before its first round (its ``entrants`` hold the built decks)."""
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 2:
        raise MtgError(f"a draft needs at least 2 seats, got {seats!r}")
    r = _ratings(ratings)
    drafters: list[Drafter] = [BotDrafter(r) for _ in range(seats)]
    if human is not None:
        drafters[human_seat] = human
    draft = run_draft(derive_seed(seed, "draft"), drafters)
    entrants = []
    for i, pool in enumerate(draft.pools):
        name = human_name if human is not None and i == human_seat else f"seat {i + 1}"
        entrants.append(Entrant(name, build_deck(pool, r, name), agent, tuple(pool)))
    if on_decks is not None:
        on_decks(EventResult("draft", seed, entrants, [], event.get("best_of", 3), draft=draft))
    res = run_event(entrants, seed=derive_seed(seed, "event"), kind="draft", **event)
    res.seed, res.draft, res.ratings_source = seed, draft, r.source
    return res
