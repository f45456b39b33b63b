"""A person playing one seat in the terminal.

:class:`HumanAgent` shows the board from its player's redacted
:class:`~mtg_env.engine.view.PlayerView` (never the game itself) with the numbered legal options,
and reads an answer:

- a number (``3``), or an option's text, case-insensitive, where a unique prefix is enough
  (``play gia`` for ``play Giant Growth``);
- ``?`` or ``help``: the help; ``log`` (or ``log 50``, ``log all``): the recent game log (your
  own draws name the cards, the opponent's only count them);
- ``board``: the board and the options again; ``card NAME`` or ``card N``: the printed Tenth
  Edition text, cost and type of a card (by name, or the cards option ``N`` is about);
- ``mana``: the mana abilities you may play now (they are left out of the list);
- ``stops``: show or set the steps where you get to act (below); ``pass turn``: pass until the
  next turn begins, answering only what can't be answered by passing;
- ``undo``: take back your last own decision, refused when hidden information may have come out
  since (see :func:`mtg_env.sim.replay.undo_refusal`);
- ``concede``: concede the game.

Priority is passed for you, without a prompt, when passing and playing mana abilities are all you
could do; when you played the spell or ability on top of the stack (MTGO does the same); and,
with an empty stack, in the steps without a *stop* (a stop in the declare attackers, declare
blockers or combat damage step counts only when a creature attacks). The defaults
(:data:`DEFAULT_STOPS`): your main phases and your declare blockers step, your opponent's declare
attackers and declare blockers steps, so a quiet turn cycle asks at most three times (a land drop,
then passing each main phase while holding an instant).
A spell or ability of your opponent on the stack always stops (when you could respond).
Decisions that are not priority (attackers, blockers, targets, mulligans) are always asked.

Anything else re-prompts with a one-line hint. End of input (Ctrl-D) or Ctrl-C concede and raise
:class:`HumanQuit` (``exit_code`` 0 and 130). Input and output are injectable (``input`` is any
object with ``readline`` or an iterable of lines, ``console`` a ``rich`` Console), so tests drive a
whole game from a script. ``undo`` and ``concede`` need the recording play loop
(:func:`mtg_env.sim.replay.record_game`), which catches :class:`UndoRequest` and
:class:`ConcedeRequest` (defined in :mod:`mtg_env.sim.interactive`, re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console

from mtg_env.engine.actions import Action, DecisionKind
from mtg_env.engine.view import PlayerView
from mtg_env.sim.interactive import ConcedeRequest, HumanQuit, LineSource, UndoRequest

from .base import BaseAgent

if TYPE_CHECKING:
    from mtg_env.engine.model import Card

__all__ = ["DEFAULT_STOPS", "STEP_NAMES", "ConcedeRequest", "HotSeat", "HumanAgent", "HumanQuit",
           "UndoRequest", "card_text", "describe_stops", "match_option", "parse_stops"]

HELP = """\
Answer with the number of an option, or its text (case-insensitive; a unique prefix is enough:
'play gia' for 'play Giant Growth'). Commands:
  ?, help         this help
  board           the board and the options again
  card NAME       a card's printed text, cost and type ('card kamahl'); card N: the cards of option N
  mana            the mana abilities you may play now (left out of the list; their numbers work)
  pass turn       pass until the next turn begins (blocks, targets and other choices are still asked)
  stops           the steps where you get priority with an empty stack; set them with
                  'stops main1,main2,opp:end', add or remove with 'stops +opp:end' / 'stops -main2',
                  'stops default', 'stops none'. Steps: {steps}
                  (opp: = your opponent's turn)
  log [N|all]     the last N lines of the game log (default 20)
  undo            take back your last decision (not after a draw, shuffle or other hidden change)
  concede         concede the game
Priority passes by itself when you could only pass or tap for mana, after you play a spell, and
in steps without a stop (combat stops only count when a creature attacks); your opponent's
spells and abilities always stop. Ctrl-D or Ctrl-C also
concede and end the program. A command word wins over an option's text; use the option's number
then."""

STEP_NAMES: dict[str, str] = {
    "upkeep": "upkeep", "draw": "draw", "main1": "precombat_main", "combat": "beginning_of_combat",
    "attackers": "declare_attackers", "blockers": "declare_blockers", "damage": "combat_damage",
    "end_combat": "end_of_combat", "main2": "postcombat_main", "end": "end_of_turn",
}
"""The short step names of the ``stops`` command -> the engine's step names (also accepted)."""

_SHORT = {step: short for short, step in STEP_NAMES.items()}
_STEP_OF = {**STEP_NAMES, **{step: step for step in STEP_NAMES.values()}, "main": "precombat_main",
            "eot": "end_of_turn"}
_WHOSE = {"": "you", "you": "you", "my": "you", "me": "you", "opp": "opp", "opponent": "opp",
          "their": "opp"}

Stop = tuple[str, str]  # ("you" or "opp", engine step name)
_COMBAT_STOPS = frozenset({"declare_attackers", "declare_blockers", "combat_damage"})

DEFAULT_STOPS: frozenset[Stop] = frozenset({
    ("you", "precombat_main"), ("you", "declare_blockers"), ("you", "postcombat_main"),
    ("opp", "declare_attackers"), ("opp", "declare_blockers")})
"""Where a person gets priority with an empty stack unless they change it: their main phases,
their declare blockers step (a trick once blocks are known), their opponent's declare attackers
(before blocking) and declare blockers steps."""


def describe_stops(stops: Iterable[Stop]) -> str:
    """The stops as one line, in turn order.

    >>> describe_stops(DEFAULT_STOPS)
    "your turn: main1, blockers, main2 · opponent's turn: attackers, blockers"
    """
    order = list(_SHORT)
    parts = []
    for whose, title in (("you", "your turn"), ("opp", "opponent's turn")):
        steps = sorted((st for w, st in stops if w == whose), key=order.index)
        parts.append(f"{title}: {', '.join(_SHORT[st] for st in steps) or 'none'}")
    return " · ".join(parts)


def _parse_stop(item: str) -> Stop:
    whose, _, step = item.rpartition(":")
    if whose not in _WHOSE:
        raise ValueError(f"{item!r}: the turn must be opp: or you:, e.g. opp:end")
    if step not in _STEP_OF:
        raise ValueError(f"unknown step {step!r}; steps: {', '.join(STEP_NAMES)} (opp: for your "
                         "opponent's turn)")
    return _WHOSE[whose], _STEP_OF[step]


def parse_stops(arg: str, current: Iterable[Stop]) -> frozenset[Stop]:
    """The stops after the ``stops`` command's argument: a list (``main1,main2,opp:end``) replaces
    them, ``+X``/``-X`` items add and remove, ``default`` and ``none`` reset them. Raises
    ``ValueError`` with a one-line message.

    >>> sorted(parse_stops("main1, opp:end", ()))
    [('opp', 'end_of_turn'), ('you', 'precombat_main')]
    >>> sorted(parse_stops("-main2 +opp:eot", {("you", "postcombat_main")}))
    [('opp', 'end_of_turn')]
    """
    items = [x for x in arg.lower().replace(",", " ").split() if x]
    if items == ["default"]:
        return DEFAULT_STOPS
    if items == ["none"]:
        return frozenset()
    if not items:
        raise ValueError("usage: stops main1,main2,opp:end (or +STEP, -STEP, default, none)")
    signed = [x[0] in "+-" for x in items]
    if any(signed) and not all(signed):
        raise ValueError("give either a list of steps or +STEP/-STEP changes, not both")
    if not any(signed):
        return frozenset(_parse_stop(x) for x in items)
    out = set(current)
    for x in items:
        stop = _parse_stop(x[1:])
        if x[0] == "+":
            out.add(stop)
        else:
            out.discard(stop)
    return frozenset(out)


@lru_cache(maxsize=1)
def _facts() -> dict[str, dict]:
    from mtg_env.cards.loader import load_facts

    facts = load_facts()
    return {**facts.get("tokens", {}), **facts["cards"]}


@lru_cache(maxsize=1)
def _registered() -> frozenset[str]:
    from mtg_env.engine.registry import all_cards

    return frozenset(all_cards())


@lru_cache(maxsize=1)
def _all_names() -> tuple[str, ...]:
    return tuple(sorted(_registered() | set(_facts())))


def card_text(name: str) -> str:
    """A card's printed Tenth Edition text, cost, type and power/toughness, several lines.

    >>> print(card_text("Kamahl, Pit Fighter"))
    Kamahl, Pit Fighter  {4}{R}{R}
    Legendary Creature — Human Barbarian  6/1
    Haste (This creature can attack and {T} as soon as it comes under your control.)
    {T}: Kamahl, Pit Fighter deals 3 damage to target creature or player.
    """
    from mtg_env.engine.registry import get_card

    f = _facts().get(name)
    if f is not None:
        cost, type_line, text = f.get("mana_cost") or "", f["type_line"], f.get("text") or ""
        power, toughness = f.get("power"), f.get("toughness")
    else:
        cdef = get_card(name)
        cost, text = cdef.cost.text, cdef.text
        kinds = " ".join([*sorted(cdef.supertypes), *sorted(cdef.types)])
        type_line = kinds + (" — " + " ".join(cdef.subtypes) if cdef.subtypes else "")
        power, toughness = cdef.power, cdef.toughness
    head = name + (f"  {cost}" if cost else "")
    kind = type_line + (f"  {power}/{toughness}" if power is not None else "")
    if not text and name in _registered():  # a basic land prints none: its type's mana ability
        abilities = " ".join(a.text for a in get_card(name).activated if a.text)
        text = f"({abilities})" if abilities else ""
    return "\n".join([head, kind, *([text] if text else [])])


class HotSeat:
    """Shared by the human seats of a hot-seat game: clears the screen and waits for the next
    player before showing their board, so neither sees the other's hand."""

    def __init__(self) -> None:
        self.last_seat: int | None = None


def match_option(answer: str, options: Sequence[Action]) -> tuple[Action | None, str]:
    """The option an answer picks, or ``None`` and a one-line hint.

    >>> opts = [Action("pass", "pass"), Action("play", "play Forest"), Action("play", "play Fog")]
    >>> match_option("2", opts)[0]
    Action('play Forest')
    >>> match_option("PLAY FOR", opts)[0]
    Action('play Forest')
    >>> match_option("play fo", opts)[1]
    "'play fo' matches 2 options (play Forest, play Fog): type more of it, or a number"
    """
    a = answer.strip()
    n = len(options)
    if a.isdigit():
        k = int(a)
        if 1 <= k <= n:
            return options[k - 1], ""
        return None, f"there is no option {k}: type a number from 1 to {n}, or ? for help"
    low = " ".join(a.lower().split())
    for o in options:
        if o.text.lower() == low:
            return o, ""
    hits = [o for o in options if o.text.lower().startswith(low)]
    if len(hits) == 1:
        return hits[0], ""
    if hits:
        shown = ", ".join(o.text for o in hits[:4]) + (", ..." if len(hits) > 4 else "")
        return None, f"{a!r} matches {len(hits)} options ({shown}): type more of it, or a number"
    return None, f"no option starts with {a!r}: type a number from 1 to {n}, an option's text, or ? for help"


class HumanAgent(BaseAgent):
    """A person at the terminal (see the module docstring for the input grammar).

    ``names`` labels the two seats on the board (e.g. the agents' names); ``hotseat`` is the
    :class:`HotSeat` shared by two human seats; ``log_source`` (set by the play loop) returns
    the game log as this seat reads it; ``stops`` the steps where priority stops (default
    :data:`DEFAULT_STOPS`). After each :meth:`act`, ``answered_automatically`` says whether the
    answer was given without asking (an auto-pass): the play loop offers ``undo`` only back to
    decisions the person made.
    """

    name = "human"
    interactive = True

    def __init__(self, input: TextIO | Iterable[str] | None = None, console: Console | None = None,
                 names: Sequence[str] | None = None, hotseat: HotSeat | None = None,
                 recent_log: int = 12, stops: Iterable[Stop] = DEFAULT_STOPS) -> None:
        super().__init__()
        self._input = LineSource(input)
        self.console = console if console is not None else Console(highlight=False)
        self.names = names
        self.hotseat = hotseat
        self.recent_log = recent_log
        self.stops: frozenset[Stop] = frozenset(stops)
        self.log_source: Callable[[], Sequence[str]] | None = None
        self.answered_automatically = False
        self._log_seen = 0
        self._show_board = True
        self._pass_turn: int | None = None  # `pass turn`: the turn to pass through

    def reset(self, player: int, seed: int) -> None:
        super().reset(player, seed)
        self._log_seen = 0
        self._show_board = True
        self._pass_turn = None
        self.answered_automatically = False

    # -- i/o -------------------------------------------------------------------------------------
    def _readline(self, prompt: str) -> str:
        try:
            line = self._input.read(self.console, prompt)
        except KeyboardInterrupt:
            raise HumanQuit(130, f"player {self.player} pressed Ctrl-C and concedes") from None
        if line is None:
            raise HumanQuit(0, f"end of input: player {self.player} concedes")
        return line

    def _say(self, text: str, style: str = "yellow") -> None:
        self.console.print(text, markup=False, highlight=False, style=style)

    def tell(self, message: str) -> None:
        """Show a one-line message from the play loop (e.g. why ``undo`` was refused)."""
        self._say(message)
        self._show_board = message.startswith("undone")
        if self._show_board:  # the log went back with the game
            self._log_seen = len(self._log())
            self._pass_turn = None

    def _log(self) -> Sequence[str]:
        return self.log_source() if self.log_source is not None else ()

    def _print_log(self, count: int | None) -> None:
        log = self._log()
        lines = list(log) if count is None else list(log[-count:]) if count > 0 else []
        if not lines:
            self.console.print("(the log is empty)", style="dim")
        for line in lines:
            self._say(line, style="dim")

    def _handover(self) -> None:
        hs = self.hotseat
        if hs is None or hs.last_seat == self.player:
            return
        if hs.last_seat is not None:
            self.console.clear()
            self._readline(f"Player {self.player}: your turn to decide. Press Enter when the other "
                           "player is not looking. ")
            self.console.clear()
        hs.last_seat = self.player

    # -- what is shown ---------------------------------------------------------------------------
    def _print_new_log(self) -> None:
        log = self._log()
        new = list(log[self._log_seen:])
        if new:
            skipped = max(len(new) - self.recent_log, 0)
            if skipped:
                self.console.print(f"... {skipped} earlier line(s): type 'log' to see more", style="dim")
            for line in new[skipped:]:
                self._say(line, style="dim")
        self._log_seen = len(log)

    def _board(self, view: PlayerView) -> dict[str, Any]:
        """The board snapshot, with the attackers and blockers of a declaration in progress marked."""
        from mtg_env.env.board import board_snapshot

        board = board_snapshot(view)
        d = view.decision
        ctx = d.context if d is not None else {}
        by_id = {p["id"]: p for p in board["permanents"]}
        if d is not None and d.kind is DecisionKind.DECLARE_ATTACKERS:
            for pid in ctx.get("declared", ()):
                if pid in by_id:
                    by_id[pid]["attacking"] = True
        if d is not None and d.kind is DecisionKind.DECLARE_BLOCKERS:
            for b_id, a_id in ctx.get("pairs", ()):
                b, a = by_id.get(b_id), by_id.get(a_id)
                if b is not None and a is not None:
                    b["blocking"] = [*b["blocking"], a["label"]]
                    a["blocked_by"] = [*a["blocked_by"], b["label"]]
                    a["blocked"] = True
        return board

    def _goldfish_line(self, view: PlayerView) -> str | None:
        fish = view.goldfish
        if fish is None:
            return None
        me = 1 - fish
        line = f"goldfish: player {fish} · turn {view.turn} (player {me}'s turn {_own_turn(view, me)})"
        dead = view.goldfish_dead_turn
        if dead is not None:
            line += f" · its life reached 0 on turn {dead} (player {me}'s turn {_own_turn(view, me, dead)})"
        else:
            line += f" · its life: {view.players[fish].life}"
        return line

    def _show(self, view: PlayerView, new_log: bool = True) -> None:
        from mtg_env.env.board import render_board, render_options

        if new_log:
            self._print_new_log()
        d = view.decision
        self.console.print(render_board(self._board(view), self.names))
        fish = self._goldfish_line(view)
        if fish is not None:
            self._say(fish, style="bold")
        if d is None:
            return
        shown, n_main = _ordered(d.options)
        self.console.print(render_options(d.prompt, [o.text for o in shown[:n_main]]))
        if n_main < len(shown):
            n = len(shown) - n_main
            self._say(f"     (+{n} mana abilit{'y' if n == 1 else 'ies'}, {n_main + 1}"
                      f"{f'-{len(shown)}' if n > 1 else ''}: type 'mana' to list them)", style="dim")

    def _show_mana(self, options: Sequence[Action]) -> None:
        shown, n_main = _ordered(options)
        if n_main == len(shown):
            self._say("you have no mana ability to play now")
            return
        for i in range(n_main, len(shown)):
            self._say(f"{i + 1:>3}  {shown[i].text}", style="")

    def _show_card(self, view: PlayerView, arg: str) -> None:
        names, hint = _card_names(view, arg)
        if not names:
            self._say(hint)
            return
        for i, name in enumerate(names):
            if i:
                self.console.print()
            self._say(card_text(name), style="")

    def _stops_command(self, arg: str) -> None:
        if arg:
            try:
                self.stops = parse_stops(arg, self.stops)
            except ValueError as exc:
                self._say(str(exc))
                return
        self._say(f"stops: {describe_stops(self.stops)}", style="")

    # -- passing for the person ------------------------------------------------------------------
    def _automatic(self, view: PlayerView) -> Action | None:
        """The answer given without asking, or ``None`` to ask (see the module docstring)."""
        d = view.decision
        assert d is not None
        if self._pass_turn is not None and view.turn != self._pass_turn:
            self._pass_turn = None
        if d.kind is DecisionKind.DECLARE_ATTACKERS and self._pass_turn is not None:
            return next((o for o in d.options if o.verb == "done"), None)
        if d.kind is not DecisionKind.PRIORITY:
            return None
        passing = next((o for o in d.options if o.verb == "pass"), None)
        if passing is None:
            return None
        if self._pass_turn is not None or all(o.verb in ("pass", "mana") for o in d.options):
            return passing
        if view.stack and view.stack[-1].kind != "combat_damage":
            return passing if view.stack[-1].controller == self.player else None
        whose = "you" if view.active == self.player else "opp"
        if (whose, view.step) not in self.stops:
            return passing
        if view.step in _COMBAT_STOPS and not any(p.attacking for p in view.permanents):
            return passing  # no combat this turn: nothing to stop for
        return None

    # -- the agent -------------------------------------------------------------------------------
    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        auto = self._automatic(view)
        self.answered_automatically = auto is not None
        if auto is not None:
            return auto
        self._handover()
        if self._show_board:
            self._show(view)
        self._show_board = True
        shown, _ = _ordered(d.options)
        while True:
            answer = self._readline(f"player {self.player}> ").strip()
            word = " ".join(answer.lower().split())
            cmd, _, arg = word.partition(" ")
            if not word:
                self._say(f"type a number from 1 to {len(d.options)} or an option's text (? for help)")
                continue
            if word in ("?", "help"):
                self._say(HELP.format(steps=", ".join(STEP_NAMES)), style="")
                continue
            if cmd == "log":
                if arg in ("", "all") or arg.isdigit():
                    self._print_log(None if arg == "all" else int(arg) if arg else 20)
                else:
                    self._say("usage: log, log N or log all")
                continue
            if word == "board":
                self._show(view, new_log=False)
                continue
            if cmd == "card":
                self._show_card(view, answer.strip()[len("card"):].strip())
                continue
            if word == "mana":
                self._show_mana(d.options)
                continue
            if cmd == "stops":
                self._stops_command(arg)
                continue
            if word == "pass turn":
                self._pass_turn = view.turn
                self._say(f"passing until turn {view.turn + 1} (blocks and other choices are still "
                          "asked)", style="dim")
                auto = self._automatic(view)
                if auto is not None:
                    return auto
                self._pass_turn = None
                self._say("this decision can't be passed: answer it first, then 'pass turn'")
                continue
            if word == "undo":
                self._show_board = False
                raise UndoRequest
            if word == "concede":
                self._say(f"player {self.player} concedes", style="bold")
                raise ConcedeRequest
            action, hint = match_option(answer, shown)
            if action is not None:
                return action
            self._say(hint)


def _ordered(options: Sequence[Action]) -> tuple[list[Action], int]:
    """The options as numbered for the person: everything but mana abilities first, then the
    mana abilities (listed on request); and how many come before them."""
    main = [o for o in options if o.verb != "mana"]
    return main + [o for o in options if o.verb == "mana"], len(main)


def _own_turn(view: PlayerView, player: int, turn: int | None = None) -> int:
    """How many turns ``player`` has begun by game turn ``turn`` (no extra turns counted)."""
    t = view.turn if turn is None else turn
    return (t + 1) // 2 if view.starting_player == player else t // 2


def _visible_cards(view: PlayerView) -> list[Card]:
    """Every card the viewer can see: hands they know, permanents, the stack, graveyards, removed
    cards, their own library."""
    cards: list[Card] = [p.card for p in view.permanents]
    cards += [s.card for s in view.stack if s.card is not None]
    for P in view.players:
        cards += [*P.known_hand, *P.graveyard, *P.removed]
    cards += view.library
    return cards


def _card_names(view: PlayerView, arg: str) -> tuple[list[str], str]:
    """The card names ``card ARG`` shows, or no names and a one-line hint."""
    if not arg:
        return [], "usage: card NAME (a card's name or the start of it) or card N (an option's number)"
    visible = _visible_cards(view)
    d = view.decision
    if arg.isdigit():
        shown = _ordered(d.options)[0] if d is not None else []
        k = int(arg)
        if not 1 <= k <= len(shown):
            return [], f"there is no option {k}: card N takes an option's number, from 1 to {len(shown)}"
        text = shown[k - 1].text
        found: list[str] = []
        for c in sorted(visible, key=lambda c: -len(c.label)):  # "Forest#12" before "Forest"
            if c.label in text:
                text = text.replace(c.label, "\x00")
                if c.name not in found:
                    found.append(c.name)
        return (found, "") if found else ([], f"option {k} ({shown[k - 1].text}) is about no card")
    low = " ".join(arg.lower().split())
    by_label = {c.label.lower(): c.name for c in visible}
    if low in by_label:
        return [by_label[low]], ""
    names = _all_names()
    exact = [n for n in names if n.lower() == low]
    if exact:
        return exact, ""
    seen = sorted({c.name for c in visible})
    for pool in (seen, names):
        hits = [n for n in pool if n.lower().startswith(low)]
        if len(hits) == 1:
            return hits, ""
        if hits:
            more = ", ..." if len(hits) > 5 else ""
            return [], f"{arg!r} matches {len(hits)} cards ({'; '.join(hits[:5])}{more}): type more of it"
    hits = [n for n in names if low in n.lower()]
    if len(hits) == 1:
        return hits, ""
    if hits:
        return [], f"{arg!r} matches {len(hits)} cards ({'; '.join(hits[:5])}): type more of it"
    return [], f"no Tenth Edition card is called {arg!r}"
