"""The replacement and prevention effects: where they come from, which of them would modify an
event, and what each does to it.

2007 CR 419.1 (a replacement effect watches for an event and replaces it: "instead", "skip"),
419.1a-b (prevention effects are the ones that use the word "prevent"), 419.6b (regeneration
replaces destruction: the permanent is tapped, all damage is removed from it and it is removed
from combat), 419.7 (prevention shields "prevent the next N damage": they last until used up or
the stated duration ends), 419.8 (effects that prevent all damage). Where 2007 is silent the 2012
rules are used: 514.2 ("this turn" effects end in the cleanup step), 614.1a ("instead"), 614.9
(a redirection to an object that is gone does nothing), 615.1a (prevention shields), 615.7 (a
shield with an amount is reduced by what it prevented), 702.15 (protection: damage from sources
of the stated quality is prevented).

**Where effects come from.**
- ``game.replacements`` holds the effects of resolved spells and abilities, typed values of
  :mod:`mtg_env.engine.replacement_events` (stored in JSON, copied with the game), each with a
  timestamp ``ts`` and a duration ``until`` (``"eot"``: ends at cleanup, 2012 514.2; all of them
  are also removed once used up): :class:`~.replacement_events.PreventionShield` ("prevent the
  next N damage that would be dealt to X this turn"), :class:`~.replacement_events.
  RegenerationShield`, :class:`~.replacement_events.RedirectEffect` (Kjeldoran Royal Guard) and
  :class:`~.replacement_events.DrawReplacement` (Plagiarize).
- Static abilities of permanents in play, gathered when an event is checked
  (:func:`static_effects`): ``double_damage`` (Furnace of Rath), ``prevent_damage`` with
  ``affects: self`` or ``enchanted``, of damage dealt to it (``dealt_to``, the default) and/or by
  it (``dealt_by``) (Cho-Manno, Revolutionary; Heart of Light), ``redirect_to_enchanted`` (Pariah)
  and the protection keywords.

:func:`applicable` lists the effects that would modify an event now, :func:`apply_effect` gives
the event one of them makes. Running an event through them (their order, 2012 616.1) and
performing it is :mod:`mtg_env.engine.replacement`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .errors import MtgError
from .ids import next_timestamp
from .replacement_events import (
    DamageEvent,
    DestroyEvent,
    DigEvent,
    DrawEvent,
    DrawReplacement,
    PreventionShield,
    RedirectEffect,
    RegenerateEvent,
    RegenerationShield,
    ReplacementEvent,
)
from .rules import PROTECTION, protected_from

if TYPE_CHECKING:
    from .abilities import StaticAbility
    from .game import Game

# Static ability kinds that are replacement or prevention effects.
STATIC_KINDS = frozenset({"double_damage", "prevent_damage", "redirect_to_enchanted"})
# "If you would draw a card, you may instead choose land or nonland and reveal cards from the top
# of your library until you reveal a card of the chosen kind ..." (Abundance): an optional
# replacement of its controller's draws with a choice, made in the ``draws`` frame.
DIG_KIND = "reveal_until_kind_instead_of_draw"
DIG_CHOICES = ("land", "nonland")
_COLOR_WORD = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
_static_cache: dict[int, tuple[Any, tuple[tuple[int, StaticAbility], ...]]] = {}


def replacement_statics(cdef: Any) -> tuple[tuple[int, StaticAbility], ...]:
    """``((index, static), ...)`` of a card's replacement statics (cached per card definition)."""
    key = id(cdef)
    hit = _static_cache.get(key)
    if hit is None or hit[0] is not cdef:
        found = tuple((i, s) for i, s in enumerate(cdef.static) if s.kind in STATIC_KINDS)
        for _, s in found:
            if s.kind == "prevent_damage" and s.affects not in ("self", "enchanted"):
                raise MtgError(f"{cdef.name}: prevent_damage supports only affects: self or "
                               f"enchanted, not {s.affects!r}")
        hit = (cdef, found)
        _static_cache[key] = hit
    return hit[1]


def static_effects(g: Game) -> list[tuple[Any, int, Any]]:
    """``(permanent, static index, static)`` of every replacement static in play."""
    out = []
    for p in g.perms.values():
        if p.base.static:  # its copiable values' statics (a Clone of Cho-Manno prevents too)
            for i, s in replacement_statics(p.base):
                out.append((p, i, s))
    return out


# -- which effects apply -------------------------------------------------------------------
@dataclass(slots=True)
class ApplicableEffect:
    """One effect that would modify an event now (:func:`applicable`).

    ``key`` names it for the event's ``applied`` (``s{permanent}.{index}`` a static ability,
    ``p{permanent}`` protection, ``r{id}`` an effect of ``game.replacements``, whose id is
    ``rid``); effects with the same ``sig`` have the same result, so no one chooses between
    them; ``ts`` orders them (timestamps); ``op`` is what it does: ``double``, ``prevent`` (at
    most ``left`` damage, None: all of it), ``redirect`` (to ``to``), ``regenerate``,
    ``draw_instead`` (``to_player`` draws) or ``dig`` (``optional``: Abundance's "you may",
    ``choice`` the kind chosen). ``name``, ``src`` and ``card`` say where it comes from, for the
    log and the order decision; ``outcomes`` are the results each order reaches
    (``replacement.order_choice``)."""

    key: str
    sig: str
    ts: int
    op: Literal["double", "prevent", "redirect", "regenerate", "draw_instead", "dig"]
    name: str
    src: int | None
    card: str
    left: int | None = None
    rid: int | None = None
    to: tuple[str, int] | None = None
    to_player: int | None = None
    optional: bool = False
    choice: str = ""
    outcomes: list[tuple[Any, ...]] = field(default_factory=list)

    def chosen(self, choice: str) -> ApplicableEffect:
        """This optional effect with the player's ``choice`` (Abundance: land or nonland)."""
        return ApplicableEffect(self.key, self.sig, self.ts, self.op, self.name, self.src,
                                self.card, self.left, self.rid, self.to, self.to_player,
                                self.optional, choice)

def applicable(g: Game, ev: ReplacementEvent) -> list[ApplicableEffect]:
    """The effects that would modify ``ev`` now and have not yet applied to it (2012 616.1), in
    timestamp order."""
    done = ev.applied
    out: list[ApplicableEffect] = []
    if isinstance(ev, DamageEvent):
        if ev.amount <= 0:
            return out  # no damage would be dealt: nothing to replace or prevent
        tgt = ev.target
        zone, v = tgt
        src = ev.source
        victim = g.perms.get(v) if zone == "o" else None
        if zone == "o" and (victim is None or not victim.is_creature):
            return out
        for p, i, s in static_effects(g):
            key = f"s{p.id}.{i}"
            if key in done:
                continue
            if s.kind == "double_damage":
                out.append(ApplicableEffect(key, "double", p.timestamp, "double", p.card.label,
                                            p.id, p.card.name))
            elif s.kind == "prevent_damage" and _prevents(s, p, zone, v, src):
                out.append(ApplicableEffect(key, "prevent_all", p.timestamp, "prevent",
                                            p.card.label, p.id, p.card.name))
            elif (s.kind == "redirect_to_enchanted" and zone == "p" and p.controller == v
                  and p.attached_to in g.perms and g.perms[p.attached_to].is_creature):
                out.append(ApplicableEffect(key, f"redirect{p.attached_to}", p.timestamp,
                                            "redirect", p.card.label, p.id, p.card.name,
                                            to=("o", p.attached_to)))
        if victim is not None and victim.keywords:
            colors = src.get("colors", "")
            if protected_from(victim, colors):
                key = f"p{victim.id}"
                if key not in done:
                    words = "/".join(_COLOR_WORD[c] for c in colors
                                     if PROTECTION.get(c) in victim.keywords)
                    out.append(ApplicableEffect(key, "prevent_all", victim.timestamp, "prevent",
                                                f"protection from {words} ({victim.card.label})",
                                                victim.id, victim.card.name))
        for r in g.replacements:
            if isinstance(r, RedirectEffect):
                _redirect_effect(g, r, ev, out)
                continue
            if not isinstance(r, PreventionShield):
                continue
            key = f"r{r.id}"
            if key in done:
                continue
            if r.target is not None and r.target != tgt:
                continue
            if r.source is not None and r.source != src.get("pid"):
                continue
            if r.source_spell is not None and r.source_spell != src.get("sid"):
                continue
            if r.combat_only and not ev.combat:
                continue
            colors = r.source_colors
            if colors and not any(c in colors for c in src.get("colors", "")):
                continue
            sig = f"shield{r.amount}:{r.source}"
            if colors or r.combat_only:
                sig += f":{colors}:{r.combat_only}"
            if r.once or r.source_spell is not None:
                sig += f":once{r.source_spell}"
            out.append(ApplicableEffect(key, sig, r.ts, "prevent", f"prevention shield ({r.name})",
                                        r.origin, r.card, left=r.amount, rid=r.id))
    elif isinstance(ev, DestroyEvent):
        p = g.perms.get(ev.pid)
        if p is None or ev.no_regen or p.cant_regen:
            return out  # 2007 CR 419.6b: "can't be regenerated"
        for r in g.replacements:
            if isinstance(r, RegenerationShield) and r.pid == p.id:
                key = f"r{r.id}"
                if key not in done:
                    out.append(ApplicableEffect(key, "regenerate", r.ts, "regenerate",
                                                f"regeneration shield ({r.name})", r.origin,
                                                r.card, rid=r.id))
    elif isinstance(ev, DrawEvent):
        pl = ev.player
        for p in g.perms.values():
            if p.controller != pl or not p.base.static:
                continue
            for i, st in enumerate(p.base.static):
                key = f"s{p.id}.{i}"
                if st.kind == DIG_KIND and key not in done:
                    out.append(ApplicableEffect(key, f"dig{p.id}", p.timestamp, "dig",
                                                p.card.label, p.id, p.card.name, optional=True))
        for r in g.replacements:
            if isinstance(r, DrawReplacement) and r.player == pl:
                key = f"r{r.id}"
                if key not in done:
                    out.append(ApplicableEffect(key, f"drawto{r.to}", r.ts, "draw_instead",
                                                r.name, r.origin, r.card, to_player=r.to))
    if len(out) > 1:
        out.sort(key=lambda x: x.ts)
    return out


def _redirect_effect(g: Game, r: RedirectEffect, ev: DamageEvent,
                     out: list[ApplicableEffect]) -> None:
    """A redirection effect from a resolved ability (Kjeldoran Royal Guard) applying to ``ev``."""
    key = f"r{r.id}"
    if key in ev.applied or ev.target != ("p", r.player):
        return
    if r.combat_only and not ev.combat:
        return
    if r.unblocked_only and not ev.source.get("unblocked"):
        return
    zone, v = r.to
    if zone == "o" and (v not in g.perms or not g.perms[v].is_creature):
        return  # it left play (or stopped being a creature): the damage stays where it was
    out.append(ApplicableEffect(key, f"redirect{v}", r.ts, "redirect", r.name, r.origin, r.card,
                                to=r.to))


def _prevents(s: Any, p: Any, zone: str, v: int, src: dict[str, Any]) -> bool:
    """Does static ``prevent_damage`` ``s`` of permanent ``p`` apply to damage from ``src`` to
    ``(zone, v)``? It protects its object (``affects``: ``self`` or ``enchanted``) from damage
    dealt to it (``dealt_to``, default) and/or stops the damage it deals (``dealt_by``)."""
    obj = p.id if s.affects == "self" else p.attached_to
    if obj is None:
        return False
    if zone == "o" and v == obj and s.params.get("dealt_to", True):
        return True
    return bool(s.params.get("dealt_by")) and src.get("pid") == obj


def apply_effect(ev: ReplacementEvent, eff: ApplicableEffect) -> tuple[ReplacementEvent, int]:
    """The event after ``eff`` modifies it (a new event: ``ev`` is not changed), and how much of
    a prevention shield it used."""
    applied = (*ev.applied, eff.key)
    op = eff.op
    if isinstance(ev, DamageEvent):
        amount, target, used = ev.amount, ev.target, 0
        if op == "double":
            amount *= 2
        elif op == "prevent":
            left = eff.left
            used = amount if left is None else min(left, amount)
            amount -= used
        elif op == "redirect" and eff.to is not None:
            target = eff.to
        else:
            raise MtgError(f"engine error: replacement op {op!r} does not apply to damage")
        return DamageEvent(ev.source, target, amount, ev.combat, ev.no_regen, applied), used
    if isinstance(ev, DestroyEvent) and op == "regenerate":
        return RegenerateEvent(ev.pid, applied), 0
    if isinstance(ev, DrawEvent):
        if op == "draw_instead" and eff.to_player is not None:
            return DrawEvent(eff.to_player, applied), 0
        if op == "dig" and eff.choice in DIG_CHOICES:  # the player chose "land" or "nonland"
            return DigEvent(ev.player, "land" if eff.choice == "land" else "nonland", applied), 0
    raise MtgError(f"engine error: replacement op {op!r} does not apply to a {ev.name} event")


# -- creating effects ----------------------------------------------------------------------
def add_prevention_shield(g: Game, target: tuple[str, int] | None, amount: int | None, name: str,
                          src: int | None = None, card: str = "", source: int | None = None,
                          combat_only: bool = False, source_colors: str = "",
                          source_spell: int | None = None, once: bool = False) -> PreventionShield:
    """"Prevent the next ``amount`` damage that would be dealt to ``target`` this turn"
    (2007 CR 419.7; ``amount`` None prevents all of it, ``source`` limits it to one source,
    ``source_colors`` to sources of those colors, ``target`` None: damage to anything)."""
    ts = next_timestamp(g)
    r = PreventionShield(ts, ts, name, src, card, "eot", target, amount, source, combat_only,
                         source_colors, source_spell, once)
    g.replacements.append(r)
    return r


def add_regeneration_shield(g: Game, perm: Any, name: str, src: int | None = None,
                            card: str = "") -> RegenerationShield:
    """"The next time this creature would be destroyed this turn, it isn't. Instead tap it, remove
    all damage from it, and remove it from combat." (2007 CR 419.6b)"""
    ts = next_timestamp(g)
    r = RegenerationShield(ts, ts, name, src, card, "eot", perm.id)
    g.replacements.append(r)
    perm.regen_shields += 1  # mirrored for the observation (counts this list's shields)
    return r


def add_redirect(g: Game, player: int, to: tuple[str, int], name: str, src: int | None = None,
                 card: str = "", combat_only: bool = False,
                 unblocked_only: bool = False) -> RedirectEffect:
    """"All [combat] damage that would be dealt to ``player`` [by unblocked creatures] this turn
    is dealt to ``to`` instead" (2007 CR 419.1: a replacement effect; it is created by a resolved
    ability and lasts until end of turn)."""
    ts = next_timestamp(g)
    r = RedirectEffect(ts, ts, name, src, card, "eot", player, to, combat_only, unblocked_only)
    g.replacements.append(r)
    return r


def add_draw_replacement(g: Game, player: int, to: int, name: str, src: int | None = None,
                         card: str = "") -> DrawReplacement:
    """"Until end of turn, if ``player`` would draw a card, instead that player skips that draw
    and ``to`` draws a card" (2007 CR 419.1, Plagiarize)."""
    ts = next_timestamp(g)
    r = DrawReplacement(ts, ts, name, src, card, "eot", player, to)
    g.replacements.append(r)
    return r


def spend(g: Game, rid: int, used: int) -> None:
    """Effect ``rid`` of ``game.replacements`` has applied, preventing ``used`` damage: a
    regeneration shield or a "the next time" shield is used up, a shield with an amount is
    reduced by what it prevented and used up at 0 (2007 CR 419.6b, 419.7; 2012 615.7)."""
    for r in g.replacements:
        if r.id == rid:
            gone = isinstance(r, RegenerationShield) or (isinstance(r, PreventionShield) and r.once)
            if not gone and isinstance(r, PreventionShield) and r.amount is not None and used:
                r.amount -= used
                gone = r.amount <= 0
            if gone:
                g.replacements = [x for x in g.replacements if x is not r]
            return


def limited_shields(g: Game) -> list[PreventionShield]:
    """The "prevent the next N damage to X" shields (an amount and a target) not yet used up."""
    return [r for r in g.replacements if isinstance(r, PreventionShield)
            and r.amount is not None and r.target is not None]


def has_draw_effects(g: Game) -> bool:
    """Could a replacement effect apply to a draw? (fast path of ``zones.draw_cards``)"""
    return any(isinstance(r, DrawReplacement) for r in g.replacements)


def end_of_turn(g: Game) -> None:
    """2012 514.2: "this turn" replacement effects end in the cleanup step."""
    if g.replacements:
        g.replacements = [r for r in g.replacements if r.until != "eot"]
