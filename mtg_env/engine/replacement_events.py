"""The events replacement and prevention effects modify (2007 CR 419), as typed values.

An event is built where it would happen (damage about to be dealt, a permanent about to be
destroyed, a card about to be drawn), run through the effects that apply to it
(:func:`mtg_env.engine.replacement.run_event`) and then performed. An effect never changes an
event in place: :func:`~mtg_env.engine.replacement_effects.apply_effect` gives a new one, of
another class where the effect replaces the event with a different one (regeneration replaces a
destruction, 2007 CR 419.6b; Abundance replaces a draw with revealing cards). ``applied`` holds
the keys of the effects that have modified it, each at most once (2012 616.1).

Damage and draws can wait for a player's choice inside a frame (the order of the effects, 2012
616.1; Abundance's optional replacement), so those two are :func:`~mtg_env.engine.frame_fields.stored`:
their copy, stored form and load-time check come from their declared fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from .frame_fields import SHARED, PermId, PlayerIndex, Refers, Stored, stored

DamageTarget = Annotated[tuple[str, int], Refers("damage_ref")]
"""``("p", player)`` or ``("o", permanent id)``: what damage is dealt to."""
DamageSource = Annotated[dict[str, Any], Refers("damage_source"), SHARED]
"""The source as it was when the damage was created: ``pid`` (None once it left play),
``label``, ``colors``, ``controller``, and for combat damage ``unblocked``, for a spell's damage
its stack id ``sid`` (``damage.damage_source``)."""


@stored(source="src")
@dataclass(slots=True)
class DamageEvent(Stored):
    """``amount`` damage about to be dealt by ``source`` to ``target`` (2007 CR 212; 419:
    prevented, doubled or redirected on the way)."""

    name: ClassVar[str] = "damage"
    source: DamageSource
    target: DamageTarget
    amount: int
    combat: bool = False
    no_regen: bool = False
    """Lethal damage to a creature destroys it and it can't be regenerated (Incinerate)."""
    applied: tuple[str, ...] = ()


@dataclass(slots=True)
class DestroyEvent:
    """Permanent ``pid`` about to be destroyed (2007 CR 419.6b: a regeneration shield replaces
    it unless it "can't be regenerated", ``no_regen``)."""

    name: ClassVar[str] = "destroy"
    pid: PermId
    no_regen: bool = False
    applied: tuple[str, ...] = ()


@dataclass(slots=True)
class RegenerateEvent:
    """A destruction a regeneration shield replaced: the permanent is tapped, all damage is
    removed from it and it is removed from combat (2007 CR 419.6b)."""

    name: ClassVar[str] = "regenerate"
    pid: PermId
    applied: tuple[str, ...] = ()


@stored()
@dataclass(slots=True)
class DrawEvent(Stored):
    """Player ``player`` about to draw one card (each card drawn is its own event, 2012 120.2;
    Plagiarize moves it to another player)."""

    name: ClassVar[str] = "draw"
    player: PlayerIndex
    applied: tuple[str, ...] = ()


@dataclass(slots=True)
class DigEvent:
    """A draw Abundance replaced: player ``player`` reveals cards until one of ``kind``
    (``replacement.dig``)."""

    name: ClassVar[str] = "dig"
    player: PlayerIndex
    kind: Literal["land", "nonland"]
    applied: tuple[str, ...] = ()


ReplacementEvent = DamageEvent | DestroyEvent | RegenerateEvent | DrawEvent | DigEvent
