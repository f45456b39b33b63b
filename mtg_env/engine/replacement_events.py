"""The events replacement and prevention effects modify (2007 CR 419), and the effects that
resolved spells and abilities create, as typed values.

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

The effects of resolved spells and abilities (``game.replacements``: prevention and regeneration
shields, redirections, draw replacements) are stored the same way, each with its kind
(:data:`REPLACEMENT_CLASSES`). They last until the cleanup step (2012 514.2) or until used up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from .frame_fields import SHARED, ObjectId, PermId, PlayerIndex, Refers, Stored, stored

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


# -- the effects of resolved spells and abilities ------------------------------------------
@dataclass(slots=True)
class ResolvedReplacement(Stored):
    """A replacement or prevention effect a resolved spell or ability created (2007 CR 419):
    ``id`` (its timestamp when created, 2007 CR 418.5), ``name`` (its source's label), ``origin``
    (the object it came from, for the decision that orders effects) and ``card`` (that card's
    name), ``until`` when it ends (``"eot"``: in the cleanup step, 2012 514.2)."""

    KIND: ClassVar[str] = ""
    id: int
    ts: int
    name: str
    origin: ObjectId | None
    card: str
    until: Literal["eot"]


@stored("prevent", origin="src")
@dataclass(slots=True)
class PreventionShield(ResolvedReplacement):
    """"Prevent the next ``amount`` damage that would be dealt to ``target`` this turn" (2007 CR
    419.7): ``amount`` None prevents all of it, ``target`` None damage to anything; only damage
    from ``source`` (a permanent), from a source of one of ``source_colors``, from the spell
    ``source_spell`` (a stack id), or combat damage (``combat_only``), where given; ``once``:
    used up by the first damage it applies to ("the next time a source would deal damage",
    Story Circle)."""

    target: DamageTarget | None = None
    amount: int | None = None
    source: ObjectId | None = None
    combat_only: bool = False
    source_colors: str = ""
    source_spell: ObjectId | None = None
    once: bool = False


@stored("regenerate", origin="src")
@dataclass(slots=True)
class RegenerationShield(ResolvedReplacement):
    """"The next time ``pid`` would be destroyed this turn, instead tap it, remove all damage from
    it and remove it from combat" (2007 CR 419.6b)."""

    pid: ObjectId


@stored("redirect", origin="src")
@dataclass(slots=True)
class RedirectEffect(ResolvedReplacement):
    """"All [combat] damage that would be dealt to ``player`` [by unblocked creatures] this turn
    is dealt to ``to`` instead" (Kjeldoran Royal Guard); it does nothing once ``to`` has left play
    or is no longer a creature (2012 614.9)."""

    player: PlayerIndex
    to: DamageTarget
    combat_only: bool = False
    unblocked_only: bool = False


@stored("draw_instead", origin="src")
@dataclass(slots=True)
class DrawReplacement(ResolvedReplacement):
    """"If ``player`` would draw a card, instead that player skips that draw and ``to`` draws a
    card" (Plagiarize)."""

    player: PlayerIndex
    to: PlayerIndex


ReplacementEffect = PreventionShield | RegenerationShield | RedirectEffect | DrawReplacement
REPLACEMENT_CLASSES: tuple[type[ResolvedReplacement], ...] = (
    PreventionShield, RegenerationShield, RedirectEffect, DrawReplacement)
_BY_KIND: dict[str, type[ResolvedReplacement]] = {c.KIND: c for c in REPLACEMENT_CLASSES}


def replacement_from_json(d: dict[str, Any]) -> ReplacementEffect:
    """A stored effect of ``game.replacements`` read back (checked before, by its ``k``)."""
    effect: ReplacementEffect = _BY_KIND[d["k"]].from_json(d)  # type: ignore[assignment]
    return effect
