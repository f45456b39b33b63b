"""What an interactive seat's ``act`` may raise in the recording play loop
(:func:`mtg_env.sim.replay.record_game`), which catches them: take back a decision, concede, or
quit the program.

They live here, next to the loop that handles them, so the simulation does not depend on the
agents that raise them (``agents.human.HumanAgent``, which re-exports them).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["ConcedeRequest", "HumanQuit", "LineSource", "UndoRequest"]


class UndoRequest(Exception):
    """Raised by an agent's ``act``: take this player back before their last own decision."""


class ConcedeRequest(Exception):
    """Raised by an agent's ``act``: this player concedes."""


class HumanQuit(ConcedeRequest):
    """The person left (end of input or Ctrl-C): the game is conceded and the program should end
    with ``exit_code`` (0 for end of input, 130 for Ctrl-C). The recording loop attaches the
    finished ``game`` and its ``replay`` before re-raising it."""

    def __init__(self, exit_code: int, message: str) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.game: Any = None
        self.replay: Any = None


class LineSource:
    """Where a person's answers come from: a text stream (``None``: standard input) or an
    iterable of lines (a script, a test), for the terminal seats (``agents.human.HumanAgent``,
    the human drafter)."""

    def __init__(self, source: TextIO | Iterable[str] | None = None) -> None:
        self.source = source
        self._lines: Iterator[str] | None = None

    def read(self, console: Console, prompt: str) -> str | None:
        """Print ``prompt`` on ``console`` and read one line: its text without the line end, or
        None at the end of input. Ctrl-C propagates as ``KeyboardInterrupt``; the prompt's line
        is ended first in both cases. A scripted answer (not from a terminal) is echoed, so the
        transcript reads as if the answers were typed."""
        console.print(prompt, end="", markup=False, highlight=False)
        console.file.flush()  # the prompt has no newline: show it before waiting for input
        src = self.source if self.source is not None else sys.stdin
        try:
            if hasattr(src, "readline"):
                line = src.readline()
            else:
                if self._lines is None:
                    self._lines = iter(src)
                item = next(self._lines, None)  # each item is one line; running out is end of input
                line = "" if item is None else item if item.endswith("\n") else item + "\n"
        except KeyboardInterrupt:
            console.print()
            raise
        if line == "":
            console.print()
            return None
        if not hasattr(src, "isatty") or not src.isatty():
            console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line.rstrip("\r\n")
