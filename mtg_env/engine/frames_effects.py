"""Procedures asked by effects and replacement effects, as typed frames (see :mod:`.frames`).

Events (``event`` fields) are the replacement module's event dicts (``replacement.py``): a
procedure replaces its event with a new one as effects apply and never changes one in place, so
a copy of the frame shares it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .frames import Frame


@dataclass(slots=True)
class DrawsFrame(Frame):
    """Draws made one at a time while an optional draw replacement is in play (Abundance; 2012
    120.2, 616.1): ``remaining`` draws still to make, the current draw ``event`` (None between
    draws), then the event ``after`` (``(name, data)``, the draw step's) is sent."""

    KIND: ClassVar[str] = "draws"
    player: int
    remaining: int
    event: dict[str, Any] | None = None
    after: tuple[str, dict[str, Any]] | None = None

    def copy(self) -> DrawsFrame:
        return DrawsFrame(self.player, self.remaining, self.event, self.after)

    def to_json(self) -> dict[str, Any]:
        return {"k": "draws", "pl": self.player, "n": self.remaining, "ev": self.event,
                "after": self.after}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DrawsFrame:
        after = d["after"]
        return cls(d["pl"], d["n"], d["ev"], None if after is None else (after[0], after[1]))


@dataclass(slots=True)
class OrderReplFrame(Frame):
    """An event waiting for the affected player to choose which replacement or prevention effect
    applies first (2012 616.1); ``event`` is the event as modified so far."""

    KIND: ClassVar[str] = "order_repl"
    event: dict[str, Any]

    def copy(self) -> OrderReplFrame:
        return OrderReplFrame(self.event)

    def to_json(self) -> dict[str, Any]:
        return {"k": "order_repl", "ev": self.event}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> OrderReplFrame:
        return cls(d["ev"])
