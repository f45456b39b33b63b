"""Replays: a small JSON record of one game that re-runs it exactly.

A game is fully determined by its deck lists (one per seat, in list order: two, or 3 to 6 at a
multiplayer table), its seed, its engine options (a multiplayer game's variant and attack option
among them), the seats that conceded while the others played on, and the text of every decision
taken through :meth:`Game.apply <mtg_env.engine.game.Game.apply>` (one-option decisions the
engine applies itself, ``skip_trivial``, are not recorded: replaying with the same options applies
them again). A :class:`Replay` holds exactly that, plus the agent
names and the result, so :meth:`Replay.run` can check that the game still reproduces: at every
step the recorded text must be a legal option, and at the end the winner and end reason must
match. The first divergence raises :class:`ReplayDivergence` with a one-line message.

The file format (``format`` ``"mtg_env-replay"``, ``version`` 1) is documented in ``docs/play.md``.

>>> from mtg_env.agent_registry import make_agent
>>> from mtg_env.sim.replay import record_game
>>> players = [make_agent("random"), make_agent("random")]
>>> game, rep = record_game(["starter_green", "starter_red"], players, seed=2)
>>> again = Replay.from_json(rep.to_json()).run()
>>> (again.winner, again.end_reason) == (game.winner, game.end_reason)
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.deck import Deck
from ..engine.errors import MtgError
from ..engine.game import Game
from ..engine.seating import MAX_PLAYERS
from ..engine.view import view_for
from .decks import load_deck
from .interactive import ConcedeRequest, HumanQuit, UndoRequest
from .runner import GAME_OPTIONS, GameResult, GameSpec, derive_seed

__all__ = ["ABANDONED", "FORMAT", "VERSION", "Replay", "ReplayDivergence", "ReplayError", "engine_version",
           "check_losses_of", "game_arguments", "record_game", "replay_of", "replay_steps", "result_text",
           "save_games", "spectator_log", "table_options", "undo_refusal"]

FORMAT = "mtg_env-replay"
VERSION = 1
# Engine options a replay may carry (the keyword arguments of Game.new besides decks and seed).
# ``variant`` and ``attack`` (a multiplayer table's Game.new(variant=..., options={"attack": ...}))
# are recorded only for games of more than two players.
OPTION_KEYS = ("max_turns", "max_decisions", "skip_trivial", "manual_mana", "starting_player", "goldfish",
               "variant", "attack")
ABANDONED = "abandoned"
"""The end reason of a multiplayer game left unfinished: a person quit the program (end of input,
Ctrl-C) while the other seats were still playing."""


class ReplayError(MtgError):
    """A replay file that can't be read: not JSON, wrong format or version, missing fields."""


class ReplayDivergence(MtgError):
    """A replay that does not reproduce: the first decision (1-based) where it diverges."""

    def __init__(self, message: str, decision: int | None = None) -> None:
        super().__init__(message)
        self.decision = decision


def engine_version() -> str:
    """The installed ``mtg_env`` package version (``"unknown"`` when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mtg_env")
    except PackageNotFoundError:
        return "unknown"


def _deck_record(deck: Deck) -> dict[str, Any]:
    return {"name": deck.name, "cards": [[n, c] for n, c in deck.entries]}


def _deck_from_record(data: Any, seat: int) -> Deck:
    try:
        name = str(data.get("name", ""))
        entries = [(int(n), str(c)) for n, c in data["cards"]]
    except (AttributeError, KeyError, TypeError, ValueError):
        raise ReplayError(f"deck {seat} of the replay must be {{'name': ..., 'cards': [[count, name], ...]}}"
                          ) from None
    text = "\n".join(f"{n} {c}" for n, c in entries)
    return Deck.from_text(text, name=name, min_size=0)


@dataclass
class Replay:
    """One game as a replayable record (see the module docstring).

    ``decks`` are the decks by seat (two, or 3 to 6 at a multiplayer table); ``options`` the
    engine options of ``Game.new`` (keys of :data:`OPTION_KEYS`); ``actions`` the decision texts
    in order; ``conceded_by`` the player whose concession ended the recording (it comes after
    the last action), else ``None``; ``concessions`` the concessions a multiplayer game went on
    after, as ``(actions before it, seat)`` pairs in order. A multiplayer game a person quit
    before it ended has ``end_reason`` :data:`ABANDONED` and no winner.
    """

    decks: tuple[Deck, ...]
    seed: int
    options: dict[str, Any]
    agents: tuple[str, ...]
    actions: list[str] = field(default_factory=list)
    winner: int | None = None
    end_reason: str = ""
    turns: int = 0
    conceded_by: int | None = None
    engine_version: str = field(default_factory=engine_version)
    concessions: list[tuple[int, int]] = field(default_factory=list)

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.decks)

    @property
    def variant(self) -> str:
        """``two_player``, ``free_for_all`` or ``two_headed_giant``."""
        return str(self.options.get("variant", "two_player" if self.players == 2 else "free_for_all"))

    def result_text(self) -> str:
        """The recorded result in words: ``player 2 wins (life)``, ``players 0 and 1 win
        (life)`` (a Two-Headed Giant team), ``a draw (max_turns)``."""
        return _result_text_of(self.winner, self.end_reason, self.variant)

    # -- the file -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (the file format)."""
        return {
            "format": FORMAT, "version": VERSION, "engine_version": self.engine_version,
            "decks": [_deck_record(d) for d in self.decks], "seed": self.seed,
            "options": dict(self.options), "agents": list(self.agents),
            "actions": list(self.actions),
            "result": {"winner": self.winner, "end_reason": self.end_reason, "turns": self.turns,
                       "conceded_by": self.conceded_by,
                       **({"concessions": [list(c) for c in self.concessions]} if self.concessions else {})},
        }

    def to_json(self) -> str:
        """The file text: one JSON object, a deck or an action per line (small and diff-friendly)."""
        d = self.to_dict()
        lines = []
        for key, value in d.items():
            if key in ("decks", "actions") and value:
                inner = ",\n  ".join(json.dumps(v) for v in value)
                lines.append(f"{json.dumps(key)}: [\n  {inner}\n ]")
            else:
                lines.append(f"{json.dumps(key)}: {json.dumps(value)}")
        return "{\n " + ",\n ".join(lines) + "\n}\n"

    def save(self, path: str | Path) -> Path:
        """Write the replay file (folders created as needed); returns the path."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.to_json())
        return p

    @classmethod
    def from_dict(cls, data: Any) -> Replay:
        """Read the file format; raises :class:`ReplayError` naming what is wrong."""
        if not isinstance(data, dict):
            raise ReplayError("a replay must be a JSON object")
        if data.get("format") != FORMAT:
            raise ReplayError(f"not an mtg_env replay (format {data.get('format')!r}, expected {FORMAT!r})")
        if data.get("version") != VERSION:
            raise ReplayError(f"replay format version {data.get('version')!r} is not supported "
                              f"(this mtg_env reads version {VERSION})")
        missing = [k for k in ("decks", "seed", "options", "agents", "actions", "result") if k not in data]
        if missing:
            raise ReplayError(f"replay is missing {', '.join(missing)}")
        decks, options, agents = data["decks"], data["options"], data["agents"]
        actions, result = data["actions"], data["result"]
        if not isinstance(decks, list) or not 2 <= len(decks) <= MAX_PLAYERS:
            raise ReplayError(f"replay 'decks' must list 2 to {MAX_PLAYERS} decks (one per seat)")
        n = len(decks)
        if isinstance(data["seed"], bool) or not isinstance(data["seed"], int):
            raise ReplayError(f"replay 'seed' must be an integer, got {data['seed']!r}")
        if not isinstance(options, dict) or set(options) - set(OPTION_KEYS):
            raise ReplayError(f"replay 'options' must be a mapping with keys among {', '.join(OPTION_KEYS)}")
        if not isinstance(agents, list) or len(agents) != n:
            raise ReplayError(f"replay 'agents' must name {n} agents, one per deck")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ReplayError("replay 'actions' must be a list of action texts")
        if not isinstance(result, dict) or "winner" not in result or "end_reason" not in result:
            raise ReplayError("replay 'result' must give 'winner' and 'end_reason'")
        seats = (*range(n), None)
        if (any(isinstance(result.get(k), bool) for k in ("winner", "conceded_by"))
                or result["winner"] not in seats or result.get("conceded_by") not in seats):
            raise ReplayError(f"replay 'winner' and 'conceded_by' must be a seat 0 to {n - 1} or null")
        concessions = _concessions_from(result.get("concessions", []), n, len(actions))
        return cls(decks=tuple(_deck_from_record(d, i) for i, d in enumerate(decks)),
                   seed=data["seed"], options=dict(options), agents=tuple(str(a) for a in agents),
                   actions=list(actions), winner=result["winner"], end_reason=str(result["end_reason"]),
                   turns=int(result.get("turns", 0)), conceded_by=result.get("conceded_by"),
                   engine_version=str(data.get("engine_version", "unknown")), concessions=concessions)

    @classmethod
    def from_json(cls, text: str) -> Replay:
        """Parse a replay file's text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"replay is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """Read a replay file; raises :class:`ReplayError` with a one-line message."""
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise ReplayError(f"cannot read replay file {str(path)!r}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise ReplayError(f"replay file {str(path)!r} is not text") from None
        return cls.from_json(text)

    # -- re-running -----------------------------------------------------------------------------
    def new_game(self) -> Game:
        """The game at its start (same decks, seed and options)."""
        return Game.new(list(self.decks), seed=self.seed, **game_arguments(self.options))

    def run(self, on_decision: Callable[[Game, int, str], None] | None = None) -> Game:
        """Re-run the game and check it reproduces; returns the finished game.

        ``on_decision(game, n, text)`` is called before decision ``n`` (0-based) is applied.
        Raises :class:`ReplayDivergence` at the first step that differs from the record.
        """
        game = self.new_game()
        pending = list(self.concessions)
        for n, text in enumerate(self.actions):
            while pending and pending[0][0] == n:
                game.concede(pending.pop(0)[1])
            d = game.decision
            if d is None:
                raise ReplayDivergence(
                    f"decision {n + 1}: the game is already over ({_result_text(game)}) but the replay "
                    f"has {len(self.actions) - n} more action(s), next {text!r}", n + 1)
            if d.find(text) is None:
                legal = ", ".join(repr(a.text) for a in d.options)
                raise ReplayDivergence(
                    f"decision {n + 1} (player {d.player}, {d.kind.value}, turn {game.turn}): "
                    f"{text!r} is not a legal option; legal: {legal}", n + 1)
            if on_decision is not None:
                on_decision(game, n, text)
            game.apply(text)
        for _, seat in pending:
            game.concede(seat)
        if self.conceded_by is not None and not game.is_over:
            game.concede(self.conceded_by)
        if not game.is_over and self.end_reason == ABANDONED and self.winner is None:
            return game
        if not game.is_over:
            d = game.decision
            raise ReplayDivergence(
                f"after all {len(self.actions)} decisions the game is not over: player "
                f"{d.player if d else '?'} still has a {d.kind.value if d else '?'} decision", None)
        if (game.winner, game.end_reason) != (self.winner, self.end_reason):
            raise ReplayDivergence(
                f"the result differs: the replay says {self.result_text()}, "
                f"re-running gives {_result_text(game)}", None)
        return game


def _concessions_from(data: Any, n: int, n_actions: int) -> list[tuple[int, int]]:
    """The ``concessions`` of a file's result: ``[[actions before it, seat], ...]`` in order."""
    out: list[tuple[int, int]] = []
    ok = isinstance(data, list)
    for item in data if ok else ():
        if (not isinstance(item, list) or len(item) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in item)
                or not 0 <= item[0] <= n_actions or not 0 <= item[1] < n
                or (out and item[0] < out[-1][0])):
            ok = False
            break
        out.append((item[0], item[1]))
    if not ok:
        raise ReplayError(f"replay 'concessions' must list [decisions before it, seat 0 to {n - 1}] "
                          "pairs in order")
    return out


def game_arguments(options: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of :meth:`Game.new` for a replay's ``options``: ``attack`` goes
    into ``options={"attack": ...}``, the rest as they are."""
    args = {k: v for k, v in options.items() if k != "attack"}
    if "attack" in options:
        args["options"] = {"attack": options["attack"]}
    return args


def result_text(game: Game) -> str:
    """A game's result in words: ``player 2 wins (life)``, ``players 0 and 1 win (life)`` (a
    Two-Headed Giant team), ``a draw (max_turns)``, or ``abandoned`` for a game not over."""
    if not game.is_over:
        return ABANDONED
    return _result_text(game)


def _result_text_of(winner: int | None, reason: str, variant: str = "two_player") -> str:
    if winner is None:
        return "abandoned" if reason == ABANDONED else f"a draw ({reason})"
    if variant == "two_headed_giant":
        a, b = sorted((winner, winner ^ 1))
        return f"players {a} and {b} win ({reason})"
    return f"player {winner} wins ({reason})"


def _result_text(game: Game) -> str:
    return _result_text_of(game.winner, game.end_reason, game.variant)


def table_options(game: Game) -> dict[str, Any]:
    """What a replay records of a multiplayer game's table: its ``variant`` and ``attack``
    option (nothing for a two-player game)."""
    if len(game.players) == 2:
        return {}
    out: dict[str, Any] = {"variant": game.variant}
    if game.attack_option:
        out["attack"] = game.attack_option
    return out


def replay_of(game: Game, decks: Sequence[Deck], seed: int, options: dict[str, Any],
              agents: Sequence[str], actions: Sequence[str], conceded_by: int | None = None,
              concessions: Sequence[tuple[int, int]] = ()) -> Replay:
    """The :class:`Replay` of a finished (or abandoned) game; ``options`` are the engine options
    it was started with (a multiplayer table's variant and attack option are read from the game).
    A multiplayer game that is not over is recorded as :data:`ABANDONED`."""
    opts = {k: v for k, v in options.items() if k not in ("variant", "options")}
    opts.update(table_options(game))
    over = game.is_over
    return Replay(decks=tuple(decks), seed=seed, options=opts,
                  agents=tuple(str(a) for a in agents), actions=list(actions),
                  winner=game.winner if over else None, end_reason=game.end_reason if over else ABANDONED,
                  turns=game.turn, conceded_by=conceded_by, concessions=list(concessions))


# -- playing a recorded game with human seats -----------------------------------------------------
class _Snapshot:
    """The game just before one of a player's own decisions, for ``undo``."""

    __slots__ = ("game", "n_actions", "player")

    def __init__(self, game: Game, n_actions: int, player: int) -> None:
        self.game = game
        self.n_actions = n_actions
        self.player = player


def _hidden_signature(game: Game) -> tuple:
    """What changes when hidden information may have been revealed: the RNG (any shuffle or random
    choice), every library's size (draws, searches, mills) and each hand's contents."""
    return (game.rng.state,
            tuple(len(P.library) for P in game.players),
            tuple(tuple(c.cid for c in P.hand) for P in game.players))


def undo_refusal(snapshot_game: Game, game: Game, player: int) -> str | None:
    """Why taking ``player`` back to ``snapshot_game`` would be unfair, or ``None`` if it is fine.

    Conservative: refused after any draw, shuffle or random event (the RNG moved, a library
    changed size), and after any change to another player's hand (a card played or discarded
    from it says something about it). The player's own hand may change (that is their own move).
    """
    a, b = _hidden_signature(snapshot_game), _hidden_signature(game)
    if a[0] != b[0]:
        return "a random event (shuffle, coin flip or random choice) happened since"
    if a[1] != b[1]:
        return "a card was drawn or a library changed since"
    others = [q for q in range(len(a[2])) if q != player and a[2][q] != b[2][q]]
    if others:
        return ("your opponent's hand changed since" if len(a[2]) == 2
                else f"player {others[0]}'s hand changed since")
    return None


def record_game(decks: Sequence[str | Deck], agents: Sequence[Any], seed: int = 0,
                max_turns: int | None = 100, options: dict[str, Any] | None = None,
                log_lines: bool = True) -> tuple[Game, Replay]:
    """Play one game between the agents (one per deck) and record it; returns the game and its
    :class:`Replay`. ``options`` are more engine options (keys of :data:`OPTION_KEYS`: a
    multiplayer table's ``variant`` and ``attack`` among them).

    Unlike the fast :func:`~mtg_env.sim.runner.play_game`, this loop serves interactive seats:
    an agent's ``act`` may raise :class:`~mtg_env.sim.interactive.UndoRequest` (the loop takes
    that player back to just before their last own decision, unless :func:`undo_refusal`
    objects, in which case the agent's ``tell`` hears why) or
    :class:`~mtg_env.sim.interactive.ConcedeRequest` (the player concedes; the exception is
    re-raised after the game is ended and recorded, as ``exc.game``/``exc.replay``, when it is a
    :class:`~mtg_env.sim.interactive.HumanQuit`; Ctrl-C while any
    agent decides is such a quit of a human seat). In a multiplayer game a player who concedes
    leaves it and the others play on (2012 800.4a); a quit ends the recording there, the game
    :data:`ABANDONED` unless the concession ended it. Agents with a
    ``log_source`` attribute are handed a function returning the game log as their seat reads
    it (:meth:`Game.log_for <mtg_env.engine.game.Game.log_for>`: their own draws name the cards,
    the opponent's only count them).

    A seat whose agent has a true ``goldfish`` attribute (:class:`agents.goldfish.GoldfishAgent`)
    is the game's goldfish seat (the engine option ``goldfish``, recorded in the replay), unless
    ``options`` sets ``goldfish`` itself.
    """
    loaded = [load_deck(d) for d in decks]
    opts = dict(GAME_OPTIONS)
    fish = [seat for seat, a in enumerate(agents) if getattr(a, "goldfish", False) is True]
    if len(fish) == 1:
        opts["goldfish"] = fish[0]
    opts.update(options or {})
    opts["max_turns"] = max_turns
    game_box: list[Game] = [Game.new(loaded, seed=seed, **game_arguments(opts))]
    for seat, agent in enumerate(agents):
        agent.reset(seat, derive_seed(seed, "agent", seat))
        if log_lines and hasattr(agent, "log_source"):
            agent.log_source = _seat_log(game_box, seat)
    names = [getattr(a, "name", type(a).__name__) for a in agents]
    actions: list[str] = []
    snapshots: list[_Snapshot] = []
    conceded_by: int | None = None
    concessions: list[tuple[int, int]] = []
    quit_exc: HumanQuit | None = None
    while not game_box[0].is_over:
        game = game_box[0]
        d = game.decision
        agent = agents[d.player]
        try:
            action = agent.act(view_for(game, d.player))
        except KeyboardInterrupt:
            # Ctrl-C outside a prompt (while the board prints, an agent thinks): the deciding
            # human seat, else the first one, concedes; without a human seat it stays an interrupt.
            seats = [i for i, a in enumerate(agents) if getattr(a, "interactive", False)]
            if not seats:
                raise
            who = d.player if d.player in seats else seats[0]
            exc = HumanQuit(130, f"player {who} pressed Ctrl-C and concedes")
            conceded_by = who
            game.concede(who)
            quit_exc = exc
            break
        except UndoRequest:
            mine = [i for i, s in enumerate(snapshots) if s.player == d.player]
            if not mine:
                agent.tell("nothing to undo: you have made no decision yet")
                continue
            snap = snapshots[mine[-1]]
            why = undo_refusal(snap.game, game, d.player)
            if why is not None:
                agent.tell(f"can't undo: {why} (hidden information may have been revealed)")
                continue
            del snapshots[mine[-1]:]
            del actions[snap.n_actions:]
            game_box[0] = snap.game.copy()
            agent.tell(f"undone: back before your decision {snap.n_actions + 1}")
            continue
        except ConcedeRequest as exc:
            game.concede(d.player)
            quit = isinstance(exc, HumanQuit)
            if not game.is_over and not quit:  # a multiplayer game goes on without them
                concessions.append((len(actions), d.player))
                snapshots.clear()  # nobody takes back a decision from before a player left
                continue
            conceded_by = d.player
            if quit:
                quit_exc = exc
            break
        if getattr(agent, "interactive", False) and not getattr(agent, "answered_automatically", False):
            snapshots.append(_Snapshot(game.copy(), len(actions), d.player))
        actions.append(action.text)
        game.apply(action)
    game = game_box[0]
    rep = replay_of(game, loaded, seed, opts, names, actions, conceded_by, concessions)
    if quit_exc is not None:
        quit_exc.game = game
        quit_exc.replay = rep
        raise quit_exc
    return game, rep


def _seat_log(game_box: list[Game], seat: int) -> Callable[[], list[str]]:
    return lambda: game_box[0].log_for(seat)


def spectator_log(game: Game) -> list[str]:
    """The log as someone who sees both hands reads it (a replay's viewer: its boards show both
    hands too): every draw names its cards. :meth:`Game.log_for <mtg_env.engine.game.Game.log_for>`
    gives one seat's log, ``game.log`` the public one."""
    log = list(game.log)
    for i, _pl, text in game.private_log:
        log[i] = text
    return log


def _hands(game: Game) -> list[list[str]]:
    return [[c.label for c in P.hand] for P in game.players]


# -- per-decision snapshots (the --step mode and the HTML viewer) ----------------------------------
def replay_steps(replay: Replay) -> tuple[list[dict[str, Any]], Game]:
    """Re-run ``replay`` (checking it) and return one step per decision plus the finished game.

    Each step is plain data: ``n`` (1-based), ``player`` (who decides), ``kind``, ``prompt``,
    ``options`` (texts), ``chosen`` (index into options), ``log_end`` (how many log lines were
    written before the decision) and ``board``, a spectator snapshot of the board with every hand
    and who sits where (:func:`mtg_env.sim.table_board.table_snapshot`). A last step with
    ``player`` ``None`` shows the finished (or abandoned) game.
    """
    from .table_board import table_snapshot

    steps: list[dict[str, Any]] = []

    def on_decision(game: Game, n: int, text: str) -> None:
        d = game.decision
        opts = [a.text for a in d.options]
        steps.append({"n": n + 1, "player": d.player, "kind": d.kind.value, "prompt": d.prompt,
                      "options": opts, "chosen": opts.index(text), "log_end": len(game.log),
                      "board": table_snapshot(view_for(game, d.player), _hands(game))})

    game = replay.run(on_decision)
    steps.append({"n": len(replay.actions) + 1, "player": None, "kind": "game_over",
                  "prompt": result_text(game), "options": [], "chosen": None,
                  "log_end": len(game.log), "board": table_snapshot(view_for(game, 0), _hands(game))})
    return steps, game


# -- saving the games of a simulation -------------------------------------------------------------
def _label(agent: Any) -> str:
    return agent if isinstance(agent, str) else getattr(agent, "name", getattr(agent, "__name__", "agent"))


def check_losses_of(specs: Sequence[GameSpec], losses_of: str | None) -> None:
    """Raise :class:`~mtg_env.MtgError` when ``losses_of`` names no agent of the run."""
    if losses_of is None:
        return
    names = sorted({_label(a) for s in specs for a in s.agents})
    if losses_of not in names:
        raise MtgError(f"--only-losses-of {losses_of!r} is not an agent of this run; "
                       f"agents: {', '.join(names)}")


def save_games(specs: Sequence[GameSpec], results: Sequence[GameResult], directory: str | Path,
               losses_of: str | None = None) -> list[Path]:
    """Write the replay of every recorded game (specs with ``record=True``) into ``directory``.

    With ``losses_of`` (an agent name) only the games that agent lost are written. Games the
    engine failed on have no result to reproduce and are never written. Files are named
    ``game00012_DECK0-AGENT0_vs_DECK1-AGENT1.json`` (game index, then seat 0 and seat 1).
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    by_index = {s.index: s for s in specs}
    written = []
    opts = dict(GAME_OPTIONS)
    for r in results:
        spec = by_index[r.index]
        if r.error is not None or r.actions is None:
            continue
        names = (_label(spec.agents[0]), _label(spec.agents[1]))
        seat_won = None if r.winner is None else r.seats.index(r.winner)
        if losses_of is not None and (seat_won is None or names[1 - seat_won] != losses_of):
            continue
        rep = Replay(decks=spec.decks, seed=spec.seed, options={**opts, "max_turns": spec.max_turns},
                     agents=names, actions=list(r.actions), winner=seat_won, end_reason=r.end_reason,
                     turns=r.turns)
        fname = (f"game{r.index:05d}_{spec.decks[0].name or 'deck'}-{names[0]}_vs_"
                 f"{spec.decks[1].name or 'deck'}-{names[1]}.json")
        written.append(rep.save(out / fname))
    return written
