"""What a stack object records beyond its targets, mode and X (``StackItem.data``), as a typed
value: where it came from, the event that triggered it, choices and costs made as it was played
or as it resolves, and what its effects counted.

Every field has a default and is stored only while it differs from it; its copy, stored form
and load-time check come from the declared fields (:func:`~mtg_env.engine.frame_fields.stored`).
A copy shares what is replaced and never changed in place (marked ``SHARED``: the event, the
effects, the choices, the combat damage rows and the shield choices); ``divided`` (appended to
as the amount is divided) and ``lki`` (filled as effects reference permanents) are copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from .frame_fields import SHARED, CardId, Count, ObjectId, Refers, Stored, stored


@stored(source_colors="src_colors", source_tapped="src_tapped", source_card="src_card",
        event="ev", copy_of="copy")
@dataclass(slots=True)
class StackData(Stored):
    """What a stack object records (module docstring). The fields, by who sets them:

    - played or put on the stack: ``card``, the name of its card or of its source's card;
      ``from_hand``, a spell played from its owner's hand (its permanent's comes-into-play
      event says so); ``source_colors`` (an ability's source's colors as it was played,
      for protection and "can't be the target of" checks); ``event``, the event a triggered
      ability triggered on (with its permanent's last known information, ``lki``, added if that
      permanent left play); ``source_tapped``, a triggered ability's source's last known tapped
      state (2012 608.2g); ``source_card``, the card a triggered ability of a card outside play
      comes from; ``effects``, the effects of a rules trigger or a delayed triggered ability,
      which name no ability of a card;
    - a spell's choices and costs: ``divided`` (``[kind, id, amount]`` per target: damage
      divided as it was played, 2012 601.2d), ``sacrificed_power`` (an additional cost's
      sacrificed creatures' total power), ``copy_of`` (the permanent a Clone spell copies, chosen
      as it resolves; None: none), ``chosen`` (choices made as it comes into play), and
      ``spell_copy`` (a copy of a spell, which ceases to exist as it leaves the stack, 2012
      706.10);
    - on resolution: ``may`` (the answer to its "you may", None before it is asked),
      ``removed_this_way`` (cards its effect removed, for a later "for each card removed this
      way"), ``lki`` (the controllers of the permanents its effects reference, by id, as they
      were last in play: 2012 608.2g), ``dest`` (where the spell goes as it resolves: its
      owner's library, shuffled in, for "shuffle it into its owner's library");
    - combat damage (2007 CR 310): ``assign``, one row ``[source id, "p" | "o", target, amount,
      source label, source colors, source controller, unblocked]`` per assignment;
      ``first_strike``, the first-strike damage step's; ``shield_first``, ``[shield id, source
      id]``, which source's damage a prevention shield prevents first (2012 615.7)."""

    card: str = ""
    from_hand: bool = False
    source_colors: str | None = None
    source_tapped: bool | None = None
    source_card: CardId | None = None
    event: Annotated[dict[str, Any], SHARED] = field(default_factory=dict)
    effects: Annotated[list[Any], Refers("effects"), SHARED] | None = None
    divided: Annotated[list[Any], Refers("divided")] = field(default_factory=list)
    sacrificed_power: int = 0
    copy_of: ObjectId | None = None
    chosen: Annotated[dict[str, Any], Refers("chosen"), SHARED] | None = None
    spell_copy: bool = False
    may: bool | None = None
    removed_this_way: Count = 0
    lki: dict[str, int] = field(default_factory=dict)
    dest: Literal["graveyard", "library_shuffle"] = "graveyard"
    assign: Annotated[list[Any], Refers("assign"), SHARED] = field(default_factory=list)
    first_strike: bool = False
    shield_first: Annotated[list[Any], Refers("shield_first"), SHARED] = field(
        default_factory=list)
