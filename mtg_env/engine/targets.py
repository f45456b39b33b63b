"""Targets: which objects and players a spell or ability may target, and whether a target is
still legal.

2007 CR 413 (targeted spells and abilities; 413.2a: a spell whose targets are all illegal is
countered on resolution, an illegal target is not affected), 409.1d (choosing targets), 502.7 and
2012 702.18 (shroud), 2012 702.15 (protection: can't be targeted by what it is protected from).
"""

from __future__ import annotations

from .filters import Filter, cached_filter
from .model import (
    Card,
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
        out: list[tuple] = []
        flt = spec.player
        if flt is not None:
            for i in (0, 1):
                if flt.test(i, pl):
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
                          else self._source_colors(item, source))
            skip = source.id if source is not None and spec.other else None
            for p in self.perms.values():
                if not test(p, pl) or p.id == skip:
                    continue
                if "shroud" in p.keywords:
                    continue
                if src_colors and protected_from(p, src_colors):
                    continue
                out.append(("o", p.id))
                if first_only:
                    return out
        flt = spec.spell
        if flt is not None:
            for s in self.stack:
                if s.kind != "spell" or (item is not None and s.id == item.id):
                    continue
                if not flt.test(s, pl):
                    continue
                out.append(("s", s.id))
                if first_only:
                    return out
        flt = spec.card
        if flt is not None:
            for o in (0, 1):
                for c in self.players[o].graveyard:
                    if flt.test(c, pl):
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

    def _matches(self, p: Permanent, flt: Filter | dict, pl: int) -> bool:
        """Does permanent ``p`` match a filter (compiled, or a dict compiled once and cached)?"""
        return cached_filter(flt).test(p, pl)

    def _target_legal(self, item: StackItem, ti: int, spec: TargetSpec) -> bool:
        """Is target ``ti`` of ``item`` still legal (2007 CR 413.2a)?"""
        ref = item.targets[ti]
        kind, v = ref
        pl = item.controller
        if kind == "p":
            return spec.player is not None and spec.player.test(v, pl)
        if kind == "o":
            p = self.perms.get(v)
            if p is None or spec.perm is None or "shroud" in p.keywords:
                return False
            colors = (item.card.cdef.colors if item.kind == "spell"
                      else frozenset(item.data.get("src_colors", "")))
            if colors and protected_from(p, colors):
                return False
            if spec.perm.dynamic:
                return spec.perm.bind(src=item.source)(p, pl)
            return spec.perm.test(p, pl)
        if kind == "s":
            s = self._item(v)
            return s is not None and s.kind == "spell" and spec.spell is not None and \
                spec.spell.test(s, pl)
        if spec.card is None:
            return False
        for o in (0, 1):
            for c in self.players[o].graveyard:
                if c.cid == v:
                    return spec.card.test(c, pl)
        return False


def mode_targets(mode: dict) -> tuple:
    return tuple(mode.get("targets", ()))
