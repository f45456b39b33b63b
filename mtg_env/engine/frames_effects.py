"""Procedures asked by effects and replacement effects, as typed frames (see :mod:`.frames`).

Events (``event`` fields) are replacement events (:mod:`.replacement_events`): a procedure
replaces its event with a new one as effects apply and never changes one in place, so a copy of
the frame shares it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from .frame_fields import (
    NONEMPTY,
    SHARED,
    CardId,
    Count,
    ObjectId,
    PermId,
    PlayerIndex,
    Refers,
    StackId,
    stored,
)
from .frames import Frame
from .replacement_events import DamageEvent, DrawEvent

TextWord = Annotated[str, Refers("text_word")]  # a color word or a basic land type


@stored("draws", remaining="n")
@dataclass(slots=True)
class DrawsFrame(Frame):
    """Draws made one at a time while an optional draw replacement is in play (Abundance; 2012
    120.2, 616.1): ``remaining`` draws still to make, the current draw ``event`` (None between
    draws), then the event ``after`` (``(name, data)``, the draw step's) is sent."""

    player: PlayerIndex
    remaining: Count
    event: Annotated[DrawEvent, SHARED] | None = None
    after: Annotated[tuple[str, dict[str, Any]], Refers("draw_after")] | None = None


@stored("order_repl")
@dataclass(slots=True)
class OrderReplFrame(Frame):
    """An event waiting for the affected player to choose which replacement or prevention effect
    applies first (2012 616.1); ``event`` is the event as modified so far (only damage waits
    for that choice: ``replacement.run_event``)."""

    event: Annotated[DamageEvent, SHARED]


@stored("text_change", from_word="from")
@dataclass(slots=True)
class TextChangeFrame(Frame):
    """Player ``player`` chooses what to replace in permanent ``perm_id``'s text (Mind Bend; 2012
    612.2): ``what`` ("color" or "land"), then the word to replace (``from_word``), then the word
    replacing it (layers.py)."""

    player: PlayerIndex
    perm_id: ObjectId
    item_id: StackId | None
    label: str  # the effect's source, for prompts and the log
    what: Literal["color", "land"] | None = None
    from_word: TextWord | None = None


@stored("enter_together", item_id="sid")
@dataclass(slots=True)
class EnterTogetherFrame(Frame):
    """Cards put into play at the same time after their Auras' hosts are chosen (Warp World;
    zones.py): each Aura card of ``auras`` (card ids, the active player's first) gets a host
    (``hosts``: (Aura card, permanent) pairs) or joins ``bottom``; then the Auras and ``others``
    come into play together and ``bottom`` goes to the bottom of the libraries."""

    item_id: StackId | None
    label: str
    auras: list[CardId]
    hosts: list[tuple[CardId, ObjectId]]
    others: list[CardId]
    bottom: list[CardId]


@stored("enter_choice")
@dataclass(slots=True)
class EnterChoiceFrame(Frame):
    """"As [this] comes into play, choose ..." (2012 614.12; enter_choices.py), asked of
    ``player``: the choice ``kinds`` in text order, ``chosen`` those made so far. Either for a
    resolving spell (``item_id``, on its resolve frame) or for a permanent put into play by an
    effect (``perm_id``), whose comes-into-play event's data ``etb`` is sent once they are made."""

    player: PlayerIndex
    kinds: Annotated[list[Annotated[str, Refers("choice_kind")]], NONEMPTY, SHARED]
    chosen: Annotated[dict[str, str], Refers("chosen")]
    item_id: StackId | None
    perm_id: PermId | None
    label: str
    etb: Annotated[dict[str, Any], Refers("etb"), SHARED] | None = None
