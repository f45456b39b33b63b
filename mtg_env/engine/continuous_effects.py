"""The continuous effects that resolved spells and abilities create (2007 CR 418.3), as typed
values: ``game.effects``, in the order they were created.

Each names the permanent it affects (``pid``), carries its timestamp (``ts``, set when
:func:`mtg_env.engine.layers.add_effect` adds it: the order within a layer, 2007 CR 418.5) and
its duration: ``until`` (``"eot"``: it ends in the cleanup step, 2012 514.2; ``"forever"`` or
None: it lasts as long as the permanent) and ``while_`` (``"enchanted"``: "for as long as that
creature is enchanted", 2012 611.2b, Rootwater Matriarch). An effect ends when its permanent
leaves play (2007 CR 217.1c: a new object).

What each kind does, and the layer (418.5) it applies in (:func:`mtg_env.engine.layers.refresh`):

- :class:`CopyEffect`, layer 1: the permanent's copiable values become a card's (Clone).
- :class:`ControlChange`, layer 2: a player gains control of it (Threaten; Persuasion's "You
  control enchanted creature" is a static ability, applied in the same layer).
- :class:`TextChange`, layer 3: a color word or basic land type replaced by another (Mind Bend).
- :class:`Animation`, layers 4, 5 and 6b: "becomes a 3/3 green Ape creature with trample"
  (Treetop Village): types, then colors, keywords and abilities, then its P/T.
- :class:`KeywordGrant`, layer 5: it gains keywords (Jump: flying).
- :class:`PowerToughnessSetting` and :class:`PowerToughnessBoost`, layer 6b: "has base power and
  toughness 0/2", "+3/+3" (Giant Growth), in one timestamp order (a 2007 difference).
- :class:`CantBlock`: not a characteristic but a blocking restriction ("target creature can't
  block [this] this turn", Duct Crawler; 2007 CR 309.2), read when blockers are declared.

Created once and never changed after :func:`~mtg_env.engine.layers.add_effect`: a game's copy
shares them. Stored with their kind under ``"k"``; the copy, the stored form and the load-time
check come from the declared fields (:func:`~mtg_env.engine.frame_fields.stored`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from .frame_fields import ObjectId, PlayerIndex, Refers, Stored, stored

Keyword = Annotated[str, Refers("keyword")]
TextWord = Annotated[str, Refers("text_word")]
"""A color (``W``, ``U``, ...) or a basic land type: the words a text change replaces."""


@dataclass(slots=True, kw_only=True)
class ContinuousEffect(Stored):
    """What every continuous effect of a resolved spell or ability has (module docstring)."""

    KIND: ClassVar[str] = ""
    pid: ObjectId
    """The permanent it affects."""
    ts: int = 0
    """Its timestamp, given as it is added."""
    until: Literal["eot", "forever"] | None = None
    while_: Literal["enchanted"] | None = None


@stored("copy", while_="while")
@dataclass(slots=True, kw_only=True)
class CopyEffect(ContinuousEffect):
    """The permanent's copiable values are the card ``card``'s (2007 CR 503; layer 1)."""

    card: Annotated[str, Refers("card_name")]


@stored("control", while_="while")
@dataclass(slots=True, kw_only=True)
class ControlChange(ContinuousEffect):
    """``controller`` controls the permanent (layer 2)."""

    controller: PlayerIndex


@stored("text", while_="while", from_word="from", to_word="to")
@dataclass(slots=True, kw_only=True)
class TextChange(ContinuousEffect):
    """Every instance of ``from_word`` in the permanent's text becomes ``to_word`` (layer 3):
    two colors or two basic land types, never the same word."""

    from_word: TextWord
    to_word: TextWord


@stored("animate", while_="while")
@dataclass(slots=True, kw_only=True)
class Animation(ContinuousEffect):
    """The permanent becomes a creature (or gains other ``types``, ``subtypes``: layer 4), with
    the ``colors`` (replacing its own) and ``keywords`` and activated ``abilities`` (by their
    references, ``model.set_ability_refs``) of layer 5, and base P/T ``p``/``t`` (layer 6b)
    where given: "It's still a land"."""

    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...] | None = None
    p: int | None = None
    t: int | None = None
    add: tuple[Keyword, ...] = ()
    abilities: tuple[Annotated[Any, Refers("ability_ref")], ...] = ()


@stored("grant", while_="while")
@dataclass(slots=True, kw_only=True)
class KeywordGrant(ContinuousEffect):
    """The permanent gains the keywords ``add`` (layer 5)."""

    add: tuple[Keyword, ...]


@stored("set_pt", while_="while")
@dataclass(slots=True, kw_only=True)
class PowerToughnessSetting(ContinuousEffect):
    """The permanent has base power and toughness ``p``/``t`` (layer 6b)."""

    p: int
    t: int


@stored("pt", while_="while")
@dataclass(slots=True, kw_only=True)
class PowerToughnessBoost(ContinuousEffect):
    """The permanent gets +``p``/+``t`` (layer 6b)."""

    p: int
    t: int


@stored("cant_block", while_="while")
@dataclass(slots=True, kw_only=True)
class CantBlock(ContinuousEffect):
    """The permanent can't block ``attacker`` (2007 CR 309.2; None: the attacker is gone)."""

    attacker: ObjectId | None


EFFECT_CLASSES: tuple[type[ContinuousEffect], ...] = (
    CopyEffect, ControlChange, TextChange, Animation, KeywordGrant, PowerToughnessSetting,
    PowerToughnessBoost, CantBlock)
_BY_KIND: dict[str, type[ContinuousEffect]] = {c.KIND: c for c in EFFECT_CLASSES}


def effect_from_json(d: dict[str, Any]) -> ContinuousEffect:
    """A stored effect of ``game.effects`` read back (checked before, by its ``k``)."""
    return _BY_KIND[d["k"]].from_json(d)
