"""Play one game between two agents, and the seeds that make every game reproducible."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..agent_registry import make_agent
from ..engine.deck import Deck
from ..engine.game import Game
from ..engine.view import view_for

__all__ = ["GAME_OPTIONS", "MAX_DECISIONS", "EngineFailure", "GameResult", "GameSpec", "derive_seed",
           "play_game", "run_spec"]

# A runaway game (an agent looping on a repeatable free action) ends as a draw.
MAX_DECISIONS = 20_000
# The engine options of every simulated game besides seed and max_turns (a replay stores them).
GAME_OPTIONS: dict[str, Any] = {"skip_trivial": True, "max_decisions": MAX_DECISIONS}


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts, stable across processes, machines and Python versions.

    >>> derive_seed(1, "pair", 0) == derive_seed(1, "pair", 0)
    True
    >>> derive_seed(1, "pair", 0) != derive_seed(1, "pair", 1)
    True
    """
    text = "\x1f".join(repr(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


class EngineFailure(RuntimeError):
    """The engine raised while applying a legal option (an engine bug, not bad input)."""

    def __init__(self, game: Game, action: Any, exc: BaseException) -> None:
        self.game = game
        self.action = str(action)
        self.cause = exc
        super().__init__(f"engine error on turn {game.turn} ({game.step}) applying {str(action)!r}: "
                         f"{type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class GameSpec:
    """One game to play: decks and agents by seat (index 0 = player 0), the engine seed.

    ``labels`` names the two sides for reporting (e.g. ``("a", "b")``: which side sits in each
    seat). Agents are given as specs :func:`mtg_env.agent_registry.make_agent` builds
    (``"heuristic"``, ``"mcts:ms=200"``) or as picklable zero-argument factories.
    """

    index: int
    decks: tuple[Deck, Deck]
    agents: tuple[str | Callable[[], Any], str | Callable[[], Any]]
    seed: int
    labels: tuple[str, str] = ("a", "b")
    max_turns: int | None = 100
    record: bool = False


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game. ``winner``/``on_the_play`` are side labels (``None`` = draw).

    ``error`` is set (and ``end_reason`` is ``"error"``) when the engine failed mid-game; such
    games count in no statistic. ``seconds`` is wall time and is not part of equality, so
    results from different runs and backends compare equal when the games were the same.
    ``actions`` is the text of every decision taken through ``Game.apply``, in order, when the
    spec asked for a record (``GameSpec.record``), else ``None``; it is left out of
    :meth:`to_dict` (a replay file holds it, see :mod:`mtg_env.sim.replay`).
    """

    index: int
    seed: int
    seats: tuple[str, str]
    winner: str | None
    on_the_play: str
    turns: int
    decisions: int
    end_reason: str
    life: tuple[int, int]
    error: str | None = None
    seconds: float = field(default=0.0, compare=False)
    actions: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (without ``actions``)."""
        d = asdict(self)
        del d["actions"]
        d["seats"] = list(self.seats)
        d["life"] = list(self.life)
        return d


def _make(agent: str | Callable[[], Any]) -> Any:
    return make_agent(agent) if isinstance(agent, str) else agent()


def play_game(decks: Sequence[Deck], agents: Sequence[Any], seed: int, max_turns: int | None = 100,
              on_decision: Callable[[Game], None] | None = None,
              record: list[str] | None = None,
              game_args: dict[str, Any] | None = None) -> Game:
    """Play one game to the end; ``agents[i]`` plays seat ``i`` from its redacted view.

    Decisions with a single option are applied by the engine (``skip_trivial``). Each agent is
    reset with a seed derived from ``seed`` and its seat. With ``record``, the text of every
    action applied is appended to it (what a replay needs, see :data:`GAME_OPTIONS`). Returns
    the finished game; raises :class:`EngineFailure` if the engine itself fails on a legal option.
    ``game_args``: more of :meth:`Game.new`'s arguments (a multiplayer game's ``options``).
    """
    game = Game.new(list(decks), seed=seed, max_turns=max_turns, **GAME_OPTIONS,
                    **(game_args or {}))
    for seat, agent in enumerate(agents):
        agent.reset(seat, derive_seed(seed, "agent", seat))
    while not game.is_over:
        d = game.decision
        if on_decision is not None:
            on_decision(game)
        action = agents[d.player].act(view_for(game, d.player))
        if record is not None:
            record.append(action.text)
        try:
            game.apply(action)
        except Exception as exc:
            raise EngineFailure(game, action, exc) from exc
    return game


def run_spec(spec: GameSpec, on_decision: Callable[[Game], None] | None = None) -> GameResult:
    """Play the game a :class:`GameSpec` describes and summarise it (``on_decision``: as in
    :func:`play_game`, for observers that collect more than the result)."""
    t0 = time.perf_counter()
    agents = [_make(a) for a in spec.agents]
    record: list[str] | None = [] if spec.record else None
    try:
        game = play_game(spec.decks, agents, spec.seed, spec.max_turns, on_decision, record)
    except EngineFailure as exc:
        g = exc.game
        return GameResult(
            index=spec.index, seed=spec.seed, seats=spec.labels, winner=None,
            on_the_play=spec.labels[g.starting_player], turns=g.turn, decisions=g.decisions_made,
            end_reason="error", life=(g.players[0].life, g.players[1].life),
            error=str(exc), seconds=time.perf_counter() - t0,
            actions=tuple(record) if record is not None else None)
    winner = spec.labels[game.winner] if game.winner is not None else None
    return GameResult(
        index=spec.index, seed=spec.seed, seats=spec.labels, winner=winner,
        on_the_play=spec.labels[game.starting_player], turns=game.turn,
        decisions=game.decisions_made, end_reason=game.end_reason,
        life=(game.players[0].life, game.players[1].life),
        seconds=time.perf_counter() - t0, actions=tuple(record) if record is not None else None)
