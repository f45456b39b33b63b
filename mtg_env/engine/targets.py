"""Targets: which objects and players a spell or ability may target, and whether a target is
still legal.

2007 CR 413 (targeted spells and abilities; 413.2a: a spell whose targets are all illegal is
countered on resolution, an illegal target is not affected), 409.1d (choosing targets), 502.7 and
2012 702.18 (shroud; a player with shroud, True Believer), 2012 702.15 (protection: can't be
targeted by what it is protected from).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import stack
from .abilities import TargetSpec
from .filters import Filter, cached_filter
from .layers import fresh
from .model import Card, Permanent, StackItem
from .rules import protected_from, targeting_forbidden
from .seating import in_range

if TYPE_CHECKING:
    from .game import Game

# Keywords that can stop a permanent being targeted (2012 702.18 shroud; Troll Ascetic,
# Karplusan Strider).
_UNTARGETABLE = frozenset({"shroud", "untargetable_by_opponents",
                           "untargetable_by_blue_black_spells"})


def targets_text(g: Game, item: StackItem) -> str:
    if not item.targets:
        return ""
    shares = item.data.divided
    if shares:  # the division is part of the spell (2012 601.2d)
        by_ref = {(k, v): n for k, v, n in shares}
        return " targeting " + ", ".join(
            ref_text(g, r) + (f" ({by_ref[tuple(r)]} damage)" if tuple(r) in by_ref
                                 else "") for r in item.targets)
    return " targeting " + ", ".join(ref_text(g, r) for r in item.targets)


def ref_text(g: Game, ref: tuple[str, int]) -> str:
    kind, v = ref
    if kind == "p":
        return f"player {v}"
    if kind == "o":
        p = g.perms.get(v)
        return p.card.label if p else f"object {v}"
    if kind == "s":
        s = stack.find_item(g, v)
        return s.label if s else f"stack object {v}"
    card = g.cards.get(v)
    return card.label if card else f"card {v}"


def targets_available(g: Game, pl: int, specs: Sequence[TargetSpec],
                       spell_card: Card | None = None,
                       source: Permanent | None = None) -> bool:
    if any(s.distinct for s in specs):
        options = [legal_targets(g, pl, s, source=source, spell_card=spell_card)
                   for s in specs]
        return assignable_targets(specs, options, [])
    for spec in specs:
        if spec.count is not None:
            continue  # a variable number of targets may be none (X = 0, "up to")
        if not legal_targets(g, pl, spec, source=source, first_only=True,
                                   spell_card=spell_card):
            return False
    return True


def legal_targets(g: Game, pl: int, spec: TargetSpec, item: StackItem | None = None,
                   source: Permanent | None = None, first_only: bool = False,
                   spell_card: Card | None = None) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    # 2012 801.4: under the limited range of influence option only the players (and what they
    # control or own) within the targeting player's range can be targets.
    reach = g.influence[pl] if g.influence else None
    flt = spec.player
    if flt is not None:
        fresh(g)
        shrouded = g.rule_mods.get("player_shroud", ())  # True Believer
        for P in g.players:
            i = P.index
            if (not P.lost and i not in shrouded and flt.test(i, pl)
                    and (reach is None or i in reach)):
                out.append(("p", i))
                if first_only:
                    return out
    flt = spec.perm
    if flt is not None:
        test = flt.test
        if flt.dynamic:  # "blocking this creature": the source's id
            test = flt.bind(src=source.id if source is not None else
                            item.source if item is not None else -1)
        src_colors = (spell_card.cdef.colors if spell_card is not None
                      else source_colors(g, item, source))
        skip = source.id if source is not None and spec.other else None
        spell_colors = (spell_card.cdef.colors if spell_card is not None
                        else item.card.cdef.colors
                        if item is not None and item.kind == "spell" and item.card is not None
                        else None)
        for p in g.perms.values():
            if not test(p, pl) or p.id == skip or (reach is not None and p.controller not in reach):
                continue
            kw = p.keywords
            if kw and not kw.isdisjoint(_UNTARGETABLE) and (
                    "shroud" in kw or targeting_forbidden(p, pl, spell_colors, g)):
                continue
            if src_colors and protected_from(p, src_colors):
                continue
            out.append(("o", p.id))
            if first_only:
                return out
    flt = spec.spell
    if flt is not None:
        for s in g.stack:
            if s.kind != "spell" or (item is not None and s.id == item.id):
                continue
            if not flt.test(s, pl) or (reach is not None and s.controller not in reach):
                continue
            out.append(("s", s.id))
            if first_only:
                return out
    flt = spec.card
    if flt is not None:
        for P in g.players:
            if reach is not None and P.index not in reach:
                continue
            for c in P.graveyard:
                if flt.test(c, pl):
                    out.append(("c", c.cid))
                    if first_only:
                        return out
    return out


def distinct_candidates(g: Game, pl: int, specs: Sequence[TargetSpec], item: StackItem,
                         cands: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The candidates for the next target of ``item`` when some target must differ from the
    earlier ones ("another target"): not already chosen where that is required, and leaving
    a legal choice for every later target."""
    chosen = [tuple(t) for t in item.targets]
    ti = len(chosen)
    src = g.perms.get(item.source) if item.source is not None else None
    later = [legal_targets(g, pl, s, item=item, source=src) for s in specs[ti + 1:]]
    out = []
    for c in cands:
        if specs[ti].distinct and tuple(c) in chosen:
            continue
        if assignable_targets(specs[ti + 1:], later, [*chosen, tuple(c)]):
            out.append(c)
    return out


def source_colors(g: Game, item: StackItem | None,
                   source: Permanent | None) -> frozenset[str]:
    if source is not None:
        return source.colors
    if item is not None and item.kind == "spell":
        assert item.card is not None  # a spell's stack object has its card
        return item.card.cdef.colors
    if item is not None:
        return frozenset(item.data.source_colors or "")
    return frozenset()


def perm_matches(g: Game, p: Permanent, flt: Filter | dict[str, Any], pl: int) -> bool:
    """Does permanent ``p`` match a filter (compiled, or a dict compiled once and cached)?"""
    return cached_filter(flt).test(p, pl)


def target_legal(g: Game, item: StackItem, ti: int, spec: TargetSpec) -> bool:
    """Is target ``ti`` of ``item`` still legal (2007 CR 413.2a)?"""
    ref = item.targets[ti]
    kind, v = ref
    pl = item.controller
    if g.influence and not in_range(g, pl, ref_player(g, ref)):
        return False  # 2012 801.4: out of its controller's range of influence
    if kind == "p":
        fresh(g)
        if v in g.rule_mods.get("player_shroud", ()) or g.players[v].lost:
            return False  # True Believer; a player who left the game (2012 800.4a)
        return spec.player is not None and spec.player.test(v, pl)
    if kind == "o":
        p = g.perms.get(v)
        if p is None or spec.perm is None or "shroud" in p.keywords:
            return False
        colors = (item.card.cdef.colors if item.kind == "spell" and item.card is not None
                  else frozenset(item.data.source_colors or ""))
        if targeting_forbidden(p, pl, colors if item.kind == "spell" else None, g):
            return False
        if colors and protected_from(p, colors):
            return False
        if spec.perm.dynamic:
            return spec.perm.bind(src=item.source)(p, pl)
        return spec.perm.test(p, pl)
    if kind == "s":
        s = stack.find_item(g, v)
        return s is not None and s.kind == "spell" and spec.spell is not None and \
            spec.spell.test(s, pl)
    if spec.card is None:
        return False
    for P in g.players:
        for c in P.graveyard:
            if c.cid == v:
                return spec.card.test(c, pl)
    return False


def ref_player(g: Game, ref: Sequence[Any]) -> int:
    """The player a reference belongs to for the limited range of influence option (2012
    801.2d): the player itself, a permanent's or a spell's controller, a card's owner; -1 when
    the object is gone (out of no one's range)."""
    kind, v = ref[0], ref[1]
    if kind == "p":
        return int(v)
    if kind == "o":
        p = g.perms.get(v)
        return p.controller if p is not None else -1
    if kind == "s":
        s = stack.find_item(g, v)
        return s.controller if s is not None else -1
    card = g.cards.get(v)
    return card.owner if card is not None else -1


def spec_for(specs: Sequence[TargetSpec], i: int) -> TargetSpec:
    """The spec of target ``i``: a counted last spec covers every target from its own on."""
    return specs[i] if i < len(specs) else specs[-1]


def target_count(item: StackItem, spec: TargetSpec) -> tuple[int, int]:
    """(fewest, most) targets a counted spec takes on ``item``: exactly X, any number up to X,
    or up to the triggering event's amount ("up to that many", Cephalid Constable)."""
    c = spec.count
    if c == "X":
        return item.x, item.x
    if c == "up_to_X":
        return 0, item.x
    return 0, item.data.event.get("amount", 0)


def assignable_targets(specs: Sequence[TargetSpec], options: Sequence[Sequence[Any]],
                       chosen: Sequence[Sequence[Any]]) -> bool:
    """Can each of ``specs`` get a target from its ``options`` in order, a ``distinct`` one
    differing from every target chosen before it? (A depth-first search: a spell has few
    targets.)"""
    if not specs:
        return True
    spec, opts = specs[0], options[0]
    for c in opts:
        c = tuple(c)
        if spec.distinct and c in chosen:
            continue
        if assignable_targets(specs[1:], options[1:], [*chosen, c]):
            return True
    return False


def mode_targets(mode: dict[str, Any]) -> tuple[TargetSpec, ...]:
    return tuple(mode.get("targets", ()))
