"""What an interactive seat's ``act`` may raise in the recording play loop
(:func:`mtg_env.sim.replay.record_game`), which catches them: take back a decision, concede, or
quit the program.

They live here, next to the loop that handles them, so the simulation does not depend on the
agents that raise them (``agents.human.HumanAgent``, which re-exports them).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ConcedeRequest", "HumanQuit", "UndoRequest"]


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
