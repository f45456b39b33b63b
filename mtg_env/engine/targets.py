"""Targets: which objects and players a spell or ability may target, and whether a target is
still legal.

2007 CR 413 (targeted spells and abilities; 413.2a: a spell whose targets are all illegal is
countered on resolution, an illegal target is not affected), 409.1d (choosing targets), 502.7 and
2012 702.18 (shroud), 2012 702.15 (protection: can't be targeted by what it is protected from).
"""

from __future__ import annotations

from .effects import perm_matches
from .model import (
    Card,
    CardDef,
    Permanent,
    StackItem,
    TargetSpec,
)
from .rules import protected_from


class Targeting:
    """Mixed into :class:`~mtg_env.engine.game.Game`."""

    def _targets_text(self, item: StackItem) -> str:
        if not item.targets:
            return ""
        return " targeting " + ", ".join(self._ref_text(r) for r in item.targets)

    def _ref_text(self, ref: tuple) -> str:
        kind, v = ref
        if kind == "p":
            return f"player {v}"
        if kind == "o":
            p = self.perms.get(v)
            return p.card.label if p else f"object {v}"
        if kind == "s":
            s = self._item(v)
            return s.label if s else f"stack object {v}"
        card = self.cards.get(v)
        return card.label if card else f"card {v}"

    def _targets_available(self, pl: int, specs, spell_card: Card | None = None,
                           source: Permanent | None = None) -> bool:
        for spec in specs:
            if not self._legal_targets(pl, spec, source=source, first_only=True,
                                       spell_card=spell_card):
                return False
        return True

    def _legal_targets(self, pl: int, spec: TargetSpec, item: StackItem | None = None,
                       source: Permanent | None = None, first_only: bool = False,
                       spell_card: Card | None = None) -> list[tuple]:
        kind = spec.kind
        flt = spec.filters
        out: list[tuple] = []
        if kind in ("player", "creature_or_player"):
            for i in (0, 1):
                if self._player_ok(i, flt, pl):
                    out.append(("p", i))
                    if first_only:
                        return out
        if kind in ("creature", "creature_or_player", "permanent", "artifact", "enchantment",
                    "land", "artifact_or_enchantment", "nonland_permanent",
                    "artifact_creature_or_land"):
            src_colors = (spell_card.cdef.colors if spell_card is not None
                          else self._source_colors(item, source))
            for p in self.perms.values():
                if not kind_ok(p, kind):
                    continue
                if "shroud" in p.keywords:
                    continue
                if src_colors and protected_from(p, src_colors):
                    continue
                if flt and not self._matches(p, flt, pl):
                    continue
                if source is not None and flt.get("other") and p.id == source.id:
                    continue
                out.append(("o", p.id))
                if first_only:
                    return out
        if kind == "spell":
            for s in self.stack:
                if s.kind != "spell" or (item is not None and s.id == item.id):
                    continue
                if flt and not _spell_matches(s, flt):
                    continue
                out.append(("s", s.id))
                if first_only:
                    return out
        if kind == "card_in_graveyard":
            owners = (pl,) if flt.get("controller", "you") == "you" else (0, 1)
            for o in owners:
                for c in self.players[o].graveyard:
                    if _card_matches(c.cdef, flt):
                        out.append(("c", c.cid))
                        if first_only:
                            return out
        return out

    def _source_colors(self, item: StackItem | None, source: Permanent | None) -> frozenset:
        if source is not None:
            return source.colors
        if item is not None and item.kind == "spell":
            return item.card.cdef.colors
        if item is not None:
            return frozenset(item.data.get("src_colors", ""))
        return frozenset()

    def _player_ok(self, i: int, flt: dict, pl: int) -> bool:
        who = flt.get("controller")
        if who == "you" and i != pl:
            return False
        return not (who == "opponent" and i == pl)

    def _matches(self, p: Permanent, flt: dict, pl: int) -> bool:
        return perm_matches(self, p, flt, pl)

    def _target_legal(self, item: StackItem, ti: int, spec: TargetSpec) -> bool:
        """Is target ``ti`` of ``item`` still legal (2007 CR 413.2a)?"""
        ref = item.targets[ti]
        kind, v = ref
        pl = item.controller
        flt = spec.filters
        if kind == "p":
            return spec.kind in ("player", "creature_or_player") and self._player_ok(v, flt, pl)
        if kind == "o":
            p = self.perms.get(v)
            if p is None or not kind_ok(p, spec.kind) or "shroud" in p.keywords:
                return False
            colors = (item.card.cdef.colors if item.kind == "spell"
                      else frozenset(item.data.get("src_colors", "")))
            if colors and protected_from(p, colors):
                return False
            return not flt or self._matches(p, flt, pl)
        if kind == "s":
            s = self._item(v)
            return s is not None and s.kind == "spell" and (not flt or _spell_matches(s, flt))
        for o in (0, 1):
            for c in self.players[o].graveyard:
                if c.cid == v:
                    return _card_matches(c.cdef, flt)
        return False


def mode_targets(mode: dict) -> tuple:
    return tuple(mode.get("targets", ()))


def kind_ok(p: Permanent, kind: str) -> bool:
    t = p.types
    if kind in ("creature", "creature_or_player"):
        return "Creature" in t
    if kind == "permanent":
        return True
    if kind == "artifact":
        return "Artifact" in t
    if kind == "enchantment":
        return "Enchantment" in t
    if kind == "land":
        return "Land" in t
    if kind == "artifact_or_enchantment":
        return "Artifact" in t or "Enchantment" in t
    if kind == "nonland_permanent":
        return "Land" not in t
    if kind == "artifact_creature_or_land":
        return "Artifact" in t or "Creature" in t or "Land" in t
    return False


def _spell_matches(s: StackItem, flt: dict) -> bool:
    return _card_matches(s.card.cdef, flt)


def _card_matches(cdef: CardDef, flt: dict) -> bool:
    t = flt.get("type")
    if t and t not in cdef.types:
        return False
    nt = flt.get("not_type")
    if nt and nt in cdef.types:
        return False
    c = flt.get("color")
    return not (c and c not in cdef.colors)
