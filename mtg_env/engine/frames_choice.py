"""The frame of choosing cards, permanents, players or spells (``choose``; choices.py): discard,
sacrifice, search, order, a copy's original, a shield's source. See :mod:`.frames`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .frames import Frame


@dataclass(slots=True)
class ChooseFrame(Frame):
    """``player`` chooses between ``min_count`` and ``max_count`` of ``candidates`` (references
    ``[zone, id]``: ``"o"`` a permanent, ``"h"`` a card in hand, ``"c"`` a card in a library or
    graveyard, ``"p"`` a player, ``"s"`` a spell), one decision each, then "done"; ``then``
    says what is done with them (its ``"op"``, else ``verb``; ``choices.apply_choice``).

    ``info``: what else the question shows (a prevention shield's choice of source);
    ``group``: the frames of one look at the library's top cards (a card chosen in one leaves
    the others' candidates). ``then`` and ``info`` are never changed once made, so a copy
    shares them; ``candidates`` is replaced, never changed in place.
    """

    KIND: ClassVar[str] = "choose"
    player: int
    candidates: list[list[Any]]
    min_count: int
    max_count: int
    verb: str
    prompt: str
    chosen: list[list[Any]]
    then: dict[str, Any] | None = None
    item_id: int | None = None  # the stack object whose effect asks
    info: dict[str, Any] | None = None
    group: int | None = None

    def copy(self) -> ChooseFrame:
        return ChooseFrame(self.player, self.candidates, self.min_count, self.max_count,
                           self.verb, self.prompt, self.chosen[:], self.then, self.item_id,
                           self.info, self.group)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"k": "choose", "pl": self.player, "cands": self.candidates,
                             "min": self.min_count, "max": self.max_count, "verb": self.verb,
                             "prompt": self.prompt, "chosen": self.chosen, "then": self.then,
                             "sid": self.item_id}
        if self.info is not None:
            d["info"] = self.info
        if self.group is not None:
            d["group"] = self.group
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ChooseFrame:
        return cls(d["pl"], [list(c) for c in d["cands"]], d["min"], d["max"], d["verb"],
                   d["prompt"], [list(c) for c in d["chosen"]], d["then"], d.get("sid"),
                   d.get("info"), d.get("group"))
