"""The frame of choosing cards, permanents, players or spells (``choose``; choices.py): discard,
sacrifice, search, order, a copy's original, a shield's source. See :mod:`.frames`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from .frame_fields import SHARED, Count, ObjectId, PlayerIndex, Refers, RefList, stored
from .frames import Frame


@stored("choose", candidates="cands", min_count="min", max_count="max")
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

    player: PlayerIndex
    candidates: Annotated[list[RefList], SHARED]
    min_count: Count
    max_count: Count
    verb: str
    prompt: str
    chosen: list[RefList]
    then: Annotated[dict[str, Any], Refers("choose_then"), SHARED] | None = None
    item_id: ObjectId | None = None  # the stack object whose effect asks
    info: Annotated[dict[str, Any], SHARED] | None = None
    group: int | None = None
