"""A person playing one seat in the terminal.

:class:`HumanAgent` shows the board from its player's redacted
:class:`~mtg_env.engine.view.PlayerView` (never the game itself) with the numbered legal options,
and reads an answer:

- a number (``3``), or an option's text, case-insensitive, where a unique prefix is enough
  (``play gia`` for ``play Giant Growth``);
- ``?`` or ``help``: the help; ``log`` (or ``log 50``, ``log all``): the recent game log;
- ``undo``: take back your last own decision, refused when hidden information may have come out
  since (see :func:`mtg_env.sim.replay.undo_refusal`);
- ``concede``: concede the game.

Anything else re-prompts with a one-line hint. End of input (Ctrl-D) or Ctrl-C concede and raise
:class:`HumanQuit` (``exit_code`` 0 and 130). Input and output are injectable (``input`` is any
object with ``readline`` or an iterable of lines, ``console`` a ``rich`` Console), so tests drive a
whole game from a script. ``undo`` and ``concede`` need the recording play loop
(:func:`mtg_env.sim.replay.record_game`), which catches :class:`UndoRequest` and
:class:`ConcedeRequest` (defined in :mod:`mtg_env.sim.interactive`, re-exported here).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO

from rich.console import Console

from mtg_env.engine.actions import Action
from mtg_env.engine.view import PlayerView
from mtg_env.sim.interactive import ConcedeRequest, HumanQuit, UndoRequest

from .base import BaseAgent

__all__ = ["ConcedeRequest", "HotSeat", "HumanAgent", "HumanQuit", "UndoRequest", "match_option"]

HELP = """\
Answer with the number of an option, or its text (case-insensitive; a unique prefix is enough:
'play gia' for 'play Giant Growth'). Commands:
  ?, help      this help
  log [N|all]  the last N lines of the game log (default 20)
  undo         take back your last decision (not after a draw, shuffle or other hidden change)
  concede      concede the game
Ctrl-D or Ctrl-C also concede and end the program. A command word wins over an option's text;
use the option's number then."""


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
    the game log, which is public.
    """

    name = "human"
    interactive = True

    def __init__(self, input: TextIO | Iterable[str] | None = None, console: Console | None = None,
                 names: Sequence[str] | None = None, hotseat: HotSeat | None = None,
                 recent_log: int = 12) -> None:
        super().__init__()
        self._input = input
        self._lines: Iterator[str] | None = None
        self.console = console if console is not None else Console(highlight=False)
        self.names = names
        self.hotseat = hotseat
        self.recent_log = recent_log
        self.log_source: Callable[[], Sequence[str]] | None = None
        self._log_seen = 0
        self._show_board = True

    def reset(self, player: int, seed: int) -> None:
        super().reset(player, seed)
        self._log_seen = 0
        self._show_board = True

    # -- i/o -------------------------------------------------------------------------------------
    def _readline(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()  # the prompt has no newline: show it before waiting for input
        src = self._input if self._input is not None else sys.stdin
        try:
            if hasattr(src, "readline"):
                line = src.readline()  # type: ignore[union-attr]
            else:
                if self._lines is None:
                    self._lines = iter(src)
                item = next(self._lines, None)  # each item is one line; running out is end of input
                line = "" if item is None else item if item.endswith("\n") else item + "\n"
        except KeyboardInterrupt:
            self.console.print()
            raise HumanQuit(130, f"player {self.player} pressed Ctrl-C and concedes") from None
        if line == "":
            self.console.print()
            raise HumanQuit(0, f"end of input: player {self.player} concedes")
        if not hasattr(src, "isatty") or not src.isatty():  # echo scripted input into the transcript
            self.console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line.rstrip("\r\n")

    def tell(self, message: str) -> None:
        """Show a one-line message from the play loop (e.g. why ``undo`` was refused)."""
        self.console.print(message, markup=False, highlight=False, style="yellow")
        self._show_board = message.startswith("undone")
        if self._show_board:  # the log went back with the game
            self._log_seen = len(self._log())

    def _log(self) -> Sequence[str]:
        return self.log_source() if self.log_source is not None else ()

    def _print_log(self, count: int | None) -> None:
        log = self._log()
        lines = list(log) if count is None else list(log[-count:]) if count > 0 else []
        if not lines:
            self.console.print("(the log is empty)", style="dim")
        for line in lines:
            self.console.print(line, markup=False, highlight=False, style="dim")

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

    def _show(self, view: PlayerView) -> None:
        from mtg_env.env.board import board_snapshot, render_board, render_options

        log = self._log()
        new = list(log[self._log_seen:])
        if new:
            skipped = max(len(new) - self.recent_log, 0)
            if skipped:
                self.console.print(f"... {skipped} earlier line(s): type 'log' to see more", style="dim")
            for line in new[skipped:]:
                self.console.print(line, markup=False, highlight=False, style="dim")
        self._log_seen = len(log)
        d = view.decision
        self.console.print(render_board(board_snapshot(view), self.names))
        self.console.print(render_options(d.prompt,
                                          [o.text for o in d.options]))

    # -- the agent -------------------------------------------------------------------------------
    def act(self, view: PlayerView) -> Action:
        d = view.decision
        if d is None:
            raise ValueError(f"player {view.viewer} has no decision to make")
        self._handover()
        if self._show_board:
            self._show(view)
        self._show_board = True
        while True:
            answer = self._readline(f"player {self.player}> ").strip()
            word = answer.lower()
            if not word:
                self.console.print(f"type a number from 1 to {len(d.options)} or an option's text "
                                   "(? for help)", style="yellow")
                continue
            if word in ("?", "help"):
                self.console.print(HELP, markup=False, highlight=False)
                continue
            if word == "log" or word.startswith("log "):
                arg = word[3:].strip()
                if arg in ("", "all") or arg.isdigit():
                    self._print_log(None if arg == "all" else int(arg) if arg else 20)
                else:
                    self.console.print("usage: log, log N or log all", style="yellow")
                continue
            if word == "undo":
                self._show_board = False
                raise UndoRequest
            if word == "concede":
                self.console.print(f"player {self.player} concedes", style="bold")
                raise ConcedeRequest
            action, hint = match_option(answer, d.options)
            if action is not None:
                return action
            self.console.print(hint, markup=False, highlight=False, style="yellow")
