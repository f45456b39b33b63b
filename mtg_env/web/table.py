"""The game behind the web table: one game between a person in the browser (one seat or both) and
any agent, played in a thread, with what each seat may see published for the page.

:class:`WebTable` owns the game. Its thread runs the play loop: an agent seat's ``act`` is called
with that seat's :class:`~mtg_env.engine.view.PlayerView`; a browser seat waits for a command
handed in by :meth:`WebTable.submit` (from the server's request handlers). Every command is
checked before it reaches the game: an option text that is not an option of the decision the
seat was shown, a decision that was already answered, a wrong seat or token raises
:class:`ActionRejected` and changes nothing. ``undo`` and ``concede`` work as for the terminal
seat (:func:`mtg_env.sim.replay.record_game`: an undo is refused once hidden information may
have come out), and the finished game is recorded as a :class:`~mtg_env.sim.replay.Replay` that
re-runs exactly.

Before each decision of a browser seat the table may pass priority for it: when the only options
are passing and mana abilities, and at the steps without a stop (``stops``, set per seat for its
own turns and the opponent's), unless the opponent's spell or ability is on top of the stack.
``pass until end of turn`` (to this turn's end step), ``until next turn`` and ``until my next
turn`` pass over the stops too.

What a seat is shown (:meth:`WebTable.state`) is built from its ``PlayerView`` only: the
opponent's hand is a count (and the cards of it the seat knows), and only the printed facts of
cards the seat can see are included.
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agent_registry import make_agent
from ..engine.actions import Action, DecisionKind
from ..engine.deck import Deck
from ..engine.game import Game
from ..engine.view import PlayerView, view_for
from ..env.board import board_snapshot
from ..sim.board_html import card_facts, label_name
from ..sim.decks import load_deck
from ..sim.replay import Replay, replay_of, undo_refusal
from ..sim.runner import GAME_OPTIONS, derive_seed

__all__ = ["DEFAULT_STOPS", "HUMAN", "STOP_STEPS", "UNTIL", "ActionRejected", "WebTable"]

HUMAN = "human"
"""The agent spec of a seat played in the browser."""

STOP_STEPS = ("upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
              "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end_of_turn")
"""The steps a stop can be set on (the untap and cleanup steps give no priority)."""

DEFAULT_STOPS: dict[str, tuple[str, ...]] = {"mine": ("precombat_main", "postcombat_main"),
                                             "theirs": ("declare_attackers",)}
"""Where a browser seat gets priority by default: its own main phases and the opponent's
attack."""

UNTIL = {"end": "pass until end of turn", "next": "pass until next turn",
         "mine": "pass until my next turn"}
"""The passing modes a seat can start, with their button texts."""

LOG_TAIL = 400  # log lines sent to the page with each state


class ActionRejected(Exception):
    """A command the table refuses (nothing changed): ``status`` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class _Command:
    seat: int
    kind: str  # "act", "undo", "concede" or "quit"
    text: str = ""


@dataclass
class _Seat:
    """A seat played in the browser."""

    index: int
    token: str
    stops: dict[str, set[str]] = field(default_factory=lambda: {k: set(v) for k, v in DEFAULT_STOPS.items()})
    until: tuple[str, int] | None = None  # (mode, the turn it was started in)
    notice: str = ""
    asked: int | None = None  # the id of the decision this seat is shown and may answer
    options: tuple[str, ...] = ()
    force_ask: bool = False


@dataclass
class _Snapshot:
    game: Game
    n_actions: int
    player: int


def _refs(args: Any) -> list[tuple[str, int]]:
    """The object references (``("o", 12)``, ``("p", 1)``, ...) among an action's arguments."""
    out: list[tuple[str, int]] = []
    for a in args:
        if isinstance(a, tuple) and len(a) == 2 and isinstance(a[0], str) and isinstance(a[1], int):
            out.append((a[0], a[1]))
        elif isinstance(a, tuple):
            out += _refs(a)
    return out


def option_keys(action: Action, view: PlayerView, visible_cards: set[int]) -> list[str]:
    """The page keys of what ``action`` is about: ``o:ID`` a permanent, ``c:ID`` a card in a
    zone, ``p:N`` a player, ``s:ID`` a stack object (the card to click to take it)."""
    keys: list[str] = []
    args = action.args
    if action.verb == "play" and args and isinstance(args[0], int):
        keys.append(f"c:{args[0]}")
    elif action.verb in ("activate", "mana", "attack") and args and isinstance(args[0], int):
        keys.append(f"o:{args[0]}")
    elif action.verb == "block":
        keys += [f"o:{a}" for a in args[:2] if isinstance(a, int)]
    for kind, n in _refs(args):
        if kind == "p":
            keys.append(f"p:{n}")
        elif kind == "o" and view.perm(n) is not None:
            keys.append(f"o:{n}")
        elif kind == "s" and view.stack_object(n) is not None:
            keys.append(f"s:{n}")
        elif n in visible_cards:
            keys.append(f"c:{n}")
    return list(dict.fromkeys(keys))


def _mark_declared(board: dict[str, Any], view: PlayerView) -> None:
    """Show the attackers and blocks the seat has chosen so far in a declaration it is making
    (the engine marks them only when the declaration ends)."""
    d = view.decision
    if d is None or d.kind not in (DecisionKind.DECLARE_ATTACKERS, DecisionKind.DECLARE_BLOCKERS):
        return
    by_id = {p["id"]: p for p in board["permanents"]}
    for pid in d.context.get("declared", ()):
        if pid in by_id:
            by_id[pid]["attacking"] = True
    for blocker, attacker in d.context.get("pairs", ()):
        if blocker in by_id and attacker in by_id:
            b, a = by_id[blocker], by_id[attacker]
            if a["label"] not in b["blocking"]:
                b["blocking"].append(a["label"])
            if b["label"] not in a["blocked_by"]:
                a["blocked_by"].append(b["label"])


def seat_board(view: PlayerView) -> tuple[dict[str, Any], dict[str, str], dict[str, str],
                                          dict[str, dict[str, Any]], set[int]]:
    """The board a seat sees, as the page draws it: the snapshot of ``view``
    (:func:`~mtg_env.env.board.board_snapshot`, with stack ids, the known cards of a hidden hand,
    and "sick" only for a creature without haste), then the card name and page key of every
    visible card label, the printed facts of every visible card name and the visible card ids."""
    board = board_snapshot(view)
    for p, pv in zip(board["permanents"], view.permanents, strict=True):
        if "haste" in pv.keywords:
            p["sick"] = False
    for item, s in zip(board["stack"], reversed(view.stack), strict=True):
        item["id"] = s.id
    _mark_declared(board, view)
    names: dict[str, str] = {}
    keys: dict[str, str] = {}
    cards: dict[str, dict[str, Any]] = {}
    visible: set[int] = set()
    for P, bp in zip(view.players, board["players"], strict=True):
        if P.hand is None:
            bp["known"] = [c.label for c in P.known_hand]
        for c in (*(P.hand or ()), *P.known_hand, *P.graveyard, *P.removed):
            names[c.label] = c.name
            keys[c.label] = f"c:{c.cid}"
            visible.add(c.cid)
            if c.name not in cards:
                cards[c.name] = card_facts(c.cdef)
    for pv in view.permanents:
        names[pv.label] = pv.name
        if pv.name not in cards:
            cards[pv.name] = card_facts(pv.cdef)
    for s in view.stack:
        src = view.perm(s.source) if s.source is not None else None
        if s.card is not None:
            names[s.label] = s.card.name
            cards.setdefault(s.card.name, card_facts(s.card.cdef))
        elif src is not None:
            names[s.label] = src.name
            cards.setdefault(src.name, card_facts(src.cdef))
        elif label_name(s.label) in cards:
            names[s.label] = label_name(s.label)
    return board, names, keys, cards, visible


class WebTable:
    """One game with browser seats (spec ``"human"``) and agent seats (any spec of
    :func:`mtg_env.agent_registry.make_agent`).

    ``start()`` runs the game in a thread; :meth:`state` is what a seat's page shows,
    :meth:`submit` hands in a seat's command, :meth:`quit` ends the game early (the deciding
    browser seat, else the first one, concedes). ``replay`` is set when the game is over.
    ``tokens[seat]`` is the secret a browser seat's requests must carry.
    """

    def __init__(self, decks: Sequence[str | Deck], agents: Sequence[str], seed: int = 0,
                 max_turns: int | None = 100, options: dict[str, Any] | None = None) -> None:
        if len(decks) != 2 or len(agents) != 2:
            raise ValueError("a table has two decks and two agents")
        if HUMAN not in agents:
            raise ValueError("a web table needs a 'human' seat")
        self.decks = [load_deck(d) for d in decks]
        self.agent_names = tuple(str(a) for a in agents)
        self.seed = seed
        self.options = {**GAME_OPTIONS, **(options or {}), "max_turns": max_turns}
        self.seats = {i: _Seat(i, secrets.token_urlsafe(12)) for i, a in enumerate(agents) if a == HUMAN}
        self.tokens = {i: s.token for i, s in self.seats.items()}
        self._agents = {i: make_agent(a) for i, a in enumerate(agents) if a != HUMAN}
        fish = [i for i, a in self._agents.items() if getattr(a, "goldfish", False)]
        if len(fish) == 1 and "goldfish" not in self.options:  # as record_game does
            self.options["goldfish"] = fish[0]
        self.game = Game.new(self.decks, seed=seed, **self.options)
        self.replay: Replay | None = None
        self.failure: str | None = None
        self.actions: list[str] = []
        self.conceded_by: int | None = None
        self.finished = threading.Event()
        self.version = 0
        self._lock = threading.Lock()
        self._states: dict[int, dict[str, Any]] = {}
        self._commands: queue.Queue[_Command] = queue.Queue()
        self._decision_id = 0
        self._last_publish = 0.0
        self._thread: threading.Thread | None = None
        self._publish()

    # -- the thread ------------------------------------------------------------------------------
    def start(self) -> WebTable:
        """Start the game thread (once); returns the table."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="mtg-env-web-table", daemon=True)
            self._thread.start()
        return self

    def quit(self, timeout: float = 10.0) -> None:
        """End the game now if it is not over (a browser seat concedes) and wait for the thread."""
        if not self.finished.is_set():
            self._commands.put(_Command(-1, "quit"))
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # an engine or agent failure ends the game; the page says why
            self.failure = f"{type(exc).__name__}: {exc}"
        finally:
            self.replay = replay_of(self.game, self.decks, self.seed, self.options, self.agent_names,
                                    self.actions, self.conceded_by)
            self.finished.set()
            self._publish()

    def _concede(self, seat: int) -> None:
        self.conceded_by = seat
        self.game.concede(seat)

    def _pending_concession(self) -> int | None:
        """A seat that conceded (or the browser seat that concedes on quit) while not deciding."""
        try:
            cmd = self._commands.get_nowait()
        except queue.Empty:
            return None
        d = self.game.decision
        if cmd.kind == "quit":
            return d.player if d is not None and d.player in self.seats else min(self.seats)
        return cmd.seat if cmd.kind == "concede" else None

    def _play(self) -> None:
        for seat, agent in self._agents.items():
            agent.reset(seat, derive_seed(self.seed, "agent", seat))
        snapshots: list[_Snapshot] = []
        while not self.game.is_over:
            game = self.game
            quitter = self._pending_concession()
            if quitter is not None:
                self._concede(quitter)
                break
            d = game.decision
            seat = self.seats.get(d.player)
            if seat is None:
                if time.monotonic() - self._last_publish > 0.25:
                    self._publish()
                action = self._agents[d.player].act(view_for(game, d.player))
            else:
                view = view_for(game, d.player)
                passed = None if seat.force_ask else self._auto_pass(seat, view)
                if passed is not None:
                    action = passed
                else:
                    cmd = self._ask(seat)
                    if cmd.kind == "quit":
                        self._concede(d.player)
                        break
                    if cmd.kind == "concede":
                        self._concede(cmd.seat)
                        break
                    if cmd.kind == "undo":
                        self._undo(seat, snapshots)
                        continue
                    found = d.find(cmd.text)
                    if found is None:  # submit() checked it: only a bug gets here
                        seat.notice = f"{cmd.text!r} is not an option of this decision"
                        continue
                    action = found
                    seat.force_ask = False
                    snapshots.append(_Snapshot(game.copy(), len(self.actions), d.player))
            self.actions.append(action.text)
            game.apply(action)

    def _ask(self, seat: _Seat) -> _Command:
        """Show ``seat`` its decision and wait for its answer (or a concession or quit)."""
        d = self.game.decision
        with self._lock:
            self._decision_id += 1
            seat.asked = self._decision_id
            seat.options = tuple(a.text for a in d.options)
        self._publish()
        while True:
            cmd = self._commands.get()
            if cmd.kind in ("quit", "concede") or cmd.seat == seat.index:
                with self._lock:
                    seat.asked = None
                    seat.notice = ""
                return cmd

    def _undo(self, seat: _Seat, snapshots: list[_Snapshot]) -> None:
        seat.force_ask = True  # the decision undone, or the one refused, is asked again
        mine = [i for i, s in enumerate(snapshots) if s.player == seat.index]
        if not mine:
            seat.notice = "nothing to undo: you have made no decision yet"
            return
        snap = snapshots[mine[-1]]
        why = undo_refusal(snap.game, self.game, seat.index)
        if why is not None:
            seat.notice = f"can't undo: {why} (hidden information may have been revealed)"
            return
        del snapshots[mine[-1]:]
        del self.actions[snap.n_actions:]
        self.game = snap.game.copy()
        seat.until = None
        seat.notice = f"undone: back before your decision {snap.n_actions + 1}"

    def _auto_pass(self, seat: _Seat, view: PlayerView) -> Action | None:
        """The pass this seat makes without being asked, or ``None`` to ask it."""
        d = view.decision
        if d is None or d.kind is not DecisionKind.PRIORITY:
            return None
        pass_action = d.find("pass")
        if pass_action is None:
            return None
        top = view.stack[-1] if view.stack else None
        if top is not None and top.controller != seat.index and top.kind != "combat_damage":
            seat.until = None  # the opponent did something: a chance to respond
            return None
        if seat.until is not None:
            mode, started = seat.until
            if mode == "end" and view.turn == started:
                if view.step != "end_of_turn":
                    return pass_action
                seat.until = None
                return None
            if mode == "next" and view.turn == started:
                return pass_action
            if mode == "mine" and (view.turn == started or view.active != seat.index):
                return pass_action
            seat.until = None
        if all(a.verb in ("pass", "mana") for a in d.options):
            return pass_action
        mine = "mine" if view.active == seat.index else "theirs"
        if view.step not in seat.stops[mine]:
            return pass_action
        return None

    # -- what the page sees ----------------------------------------------------------------------
    def _publish(self) -> None:
        states = {i: self._seat_state(i) for i in self.seats}
        with self._lock:
            self.version += 1
            for i, s in states.items():
                s["version"] = self.version
                s["stops"] = {k: sorted(v, key=STOP_STEPS.index) for k, v in self.seats[i].stops.items()}
                self._states[i] = s
            self._last_publish = time.monotonic()

    def _result(self) -> dict[str, Any] | None:
        game = self.game
        if not game.is_over and not self.finished.is_set():
            return None
        if self.failure is not None:
            return {"result": "error", "text": f"the game stopped: {self.failure}"}
        names = self.agent_names
        if game.winner is None:
            text, short = f"a draw ({game.end_reason})", "draw"
        else:
            text = f"player {game.winner} ({names[game.winner]}) wins ({game.end_reason})"
            short = f"player {game.winner} wins"
        if self.conceded_by is not None:
            text += f"; player {self.conceded_by} conceded"
        return {"result": short, "text": f"Game over: {text} after {game.turn} turns",
                "replay": self.finished.is_set() and self.replay is not None}

    def _seat_state(self, i: int) -> dict[str, Any]:
        game = self.game
        seat = self.seats[i]
        view = view_for(game, i)
        board, names, keys, cards, visible = seat_board(view)
        decision = None
        if view.decision is not None and seat.asked is not None:
            d = view.decision
            decision = {"id": seat.asked, "kind": d.kind.value, "prompt": d.prompt,
                        "options": [{"text": a.text, "verb": a.verb, "about": option_keys(a, view, visible)}
                                    for a in d.options]}
        waiting = None
        if decision is None and view.deciding is not None:
            who = view.deciding
            waiting = (f"player {who} ({self.agent_names[who]}) is deciding: "
                       f"{view.deciding_kind.value.replace('_', ' ') if view.deciding_kind else ''}")
        log = game.log_for(i)  # the public log with this seat's own draws named
        goldfish = None
        if view.goldfish is not None:
            goldfish = {"seat": view.goldfish, "dead_turn": view.goldfish_dead_turn}
        return {
            "seat": i, "agents": list(self.agent_names), "decks": [d.name for d in self.decks],
            "board": board, "names": names, "keys": keys, "cards": cards, "decision": decision,
            "waiting": waiting, "log": list(log[-LOG_TAIL:]), "log_size": len(log),
            "notice": seat.notice, "over": self._result(),
            "stops": {k: sorted(v, key=STOP_STEPS.index) for k, v in seat.stops.items()},
            "until": seat.until[0] if seat.until else None, "steps": list(STOP_STEPS),
            "until_texts": UNTIL, "goldfish": goldfish,
        }

    def state(self, seat: int, token: str | None) -> dict[str, Any]:
        """What ``seat``'s page shows now (``version`` grows with every change)."""
        self._check_seat(seat, token)
        with self._lock:
            return self._states[seat]

    def state_json(self, seat: int, token: str | None) -> str:
        """:meth:`state` as JSON text."""
        return json.dumps(self.state(seat, token), separators=(",", ":"))

    # -- commands from the page ------------------------------------------------------------------
    def _check_seat(self, seat: Any, token: Any) -> _Seat:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.seats:
            raise ActionRejected(f"seat {seat!r} is not played in the browser (browser seats: "
                                 f"{', '.join(map(str, sorted(self.seats)))})", 403)
        s = self.seats[seat]
        if not isinstance(token, str) or not secrets.compare_digest(token, s.token):
            raise ActionRejected(f"wrong or missing token for seat {seat}: open the address the "
                                 "server printed", 403)
        return s

    def submit(self, command: Any) -> str:
        """Hand in a command from a seat's page; returns a one-line acknowledgement.

        ``command`` is a JSON object with ``seat``, ``token`` and ``kind``:

        - ``act``: ``decision`` (the id the page was shown) and ``action`` (an option's text);
        - ``pass_until``: ``decision`` and ``until`` (``end``, ``next`` or ``mine``): pass now
          and keep passing;
        - ``undo`` (at the seat's own decision), ``concede`` (at any time);
        - ``stops``: ``mine`` and ``theirs``, lists of steps of :data:`STOP_STEPS`.

        Raises :class:`ActionRejected` (nothing changes) for anything else, a stale decision id,
        an option text that is not an option of the decision, or a seat that is not deciding.
        """
        if not isinstance(command, dict):
            raise ActionRejected("a command must be a JSON object", 400)
        seat = self._check_seat(command.get("seat"), command.get("token"))
        kind = command.get("kind")
        if self.finished.is_set() or self.game.is_over:
            raise ActionRejected("the game is over", 409)
        if kind == "stops":
            return self._set_stops(seat, command)
        if kind == "concede":
            self._commands.put(_Command(seat.index, "concede"))
            return f"player {seat.index} concedes"
        if kind not in ("act", "pass_until", "undo"):
            raise ActionRejected(f"unknown command {kind!r}: act, pass_until, undo, concede or stops", 400)
        with self._lock:
            asked = seat.asked
            if asked is None:
                raise ActionRejected("it is not your decision now (the page was out of date)", 409)
            if command.get("decision") != asked:
                raise ActionRejected("that decision was already answered or the game moved on: "
                                     "the page now shows the current one", 409)
            if kind == "undo":
                seat.asked = None
                self._commands.put(_Command(seat.index, "undo"))
                return "undo requested"
            if kind == "pass_until":
                until = command.get("until")
                if until not in UNTIL:
                    raise ActionRejected(f"'until' must be one of {', '.join(UNTIL)}", 400)
                if "pass" not in seat.options:
                    raise ActionRejected("passing is not an option of this decision", 409)
                text = "pass"
                seat.until = (until, self.game.turn)
            else:
                text = command.get("action")
                if not isinstance(text, str):
                    raise ActionRejected("'action' must be an option's text", 400)
                if text not in seat.options:
                    shown = text if len(text) <= 80 else text[:77] + "..."
                    raise ActionRejected(f"{shown!r} is not an option of this decision", 409)
            seat.asked = None
            self._commands.put(_Command(seat.index, "act", text))
        return f"player {seat.index}: {text}"

    def _set_stops(self, seat: _Seat, command: dict[str, Any]) -> str:
        new: dict[str, set[str]] = {}
        for side in ("mine", "theirs"):
            steps = command.get(side)
            if not isinstance(steps, list) or not all(isinstance(s, str) and s in STOP_STEPS for s in steps):
                raise ActionRejected(f"'{side}' must list steps among {', '.join(STOP_STEPS)}", 400)
            new[side] = set(steps)
        with self._lock:
            seat.stops = new
            # The game thread may be inside the game: patch the published state, don't rebuild it.
            self.version += 1
            self._states[seat.index] = {**self._states[seat.index], "version": self.version,
                                        "stops": {k: sorted(v, key=STOP_STEPS.index) for k, v in new.items()}}
        return "stops set"
