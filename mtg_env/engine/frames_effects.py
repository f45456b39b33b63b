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


@dataclass(slots=True)
class TextChangeFrame(Frame):
    """Player ``player`` chooses what to replace in permanent ``perm_id``'s text (Mind Bend; 2012
    612.2): ``what`` ("color" or "land"), then the word to replace (``from_word``), then the word
    replacing it (layers.py)."""

    KIND: ClassVar[str] = "text_change"
    player: int
    perm_id: int
    item_id: int | None
    label: str  # the effect's source, for prompts and the log
    what: str | None = None
    from_word: str | None = None

    def copy(self) -> TextChangeFrame:
        return TextChangeFrame(self.player, self.perm_id, self.item_id, self.label, self.what,
                               self.from_word)

    def to_json(self) -> dict[str, Any]:
        return {"k": "text_change", "pl": self.player, "pid": self.perm_id, "sid": self.item_id,
                "label": self.label, "what": self.what, "from": self.from_word}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TextChangeFrame:
        return cls(d["pl"], d["pid"], d["sid"], d["label"], d["what"], d["from"])


@dataclass(slots=True)
class EnterTogetherFrame(Frame):
    """Cards put into play at the same time after their Auras' hosts are chosen (Warp World;
    zones.py): each Aura card of ``auras`` (card ids, the active player's first) gets a host
    (``hosts``: (Aura card, permanent) pairs) or joins ``bottom``; then the Auras and ``others``
    come into play together and ``bottom`` goes to the bottom of the libraries."""

    KIND: ClassVar[str] = "enter_together"
    item_id: int | None
    label: str
    auras: list[int]
    hosts: list[tuple[int, int]]
    others: list[int]
    bottom: list[int]

    def copy(self) -> EnterTogetherFrame:
        return EnterTogetherFrame(self.item_id, self.label, self.auras[:], self.hosts[:],
                                  self.others[:], self.bottom[:])

    def to_json(self) -> dict[str, Any]:
        return {"k": "enter_together", "sid": self.item_id, "label": self.label,
                "auras": self.auras[:], "hosts": [list(h) for h in self.hosts],
                "others": self.others[:], "bottom": self.bottom[:]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EnterTogetherFrame:
        return cls(d["sid"], d["label"], list(d["auras"]), [(c, h) for c, h in d["hosts"]],
                   list(d["others"]), list(d["bottom"]))


@dataclass(slots=True)
class EnterChoiceFrame(Frame):
    """"As [this] comes into play, choose ..." (2012 614.12; enter_choices.py), asked of
    ``player``: the choice ``kinds`` in text order, ``chosen`` those made so far. Either for a
    resolving spell (``item_id``, on its resolve frame) or for a permanent put into play by an
    effect (``perm_id``), whose comes-into-play event's data ``etb`` is sent once they are made."""

    KIND: ClassVar[str] = "enter_choice"
    player: int
    kinds: list[str]
    chosen: dict[str, str]
    item_id: int | None
    perm_id: int | None
    label: str
    etb: dict[str, Any] | None = None

    def copy(self) -> EnterChoiceFrame:
        return EnterChoiceFrame(self.player, self.kinds, self.chosen.copy(), self.item_id,
                                self.perm_id, self.label, self.etb)

    def to_json(self) -> dict[str, Any]:
        return {"k": "enter_choice", "pl": self.player, "kinds": self.kinds, "chosen": self.chosen,
                "sid": self.item_id, "pid": self.perm_id, "label": self.label, "etb": self.etb}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EnterChoiceFrame:
        return cls(d["pl"], list(d["kinds"]), dict(d["chosen"]), d["sid"], d["pid"], d["label"],
                   d["etb"])
