"""Mulligans and priority: which land, spell or ability to play now, and when to pass.

A part of :class:`~agents.heuristic.HeuristicAgent` (mixed into it), reading the redacted
view and the rules data of the cards."""

from __future__ import annotations

from mtg_env.engine.actions import Action, Decision
from mtg_env.engine.model import Card
from mtg_env.engine.view import PlayerView

from .common import MAIN_STEPS, find_option


class PriorityPlay:
    """Mixed into :class:`~agents.heuristic.HeuristicAgent`: mulligans and priority: which
    land, spell or ability to play now, and when to pass."""

    # -- mulligan -----------------------------------------------------------------------------
    def _mulligan(self, view: PlayerView, d: Decision) -> Action:
        hand = view.me.hand or ()
        n = len(hand)
        lands = sum(1 for c in hand if c.cdef.is_land)
        keep = n <= 5 or (2 <= lands <= 5 if n >= 7 else 2 <= lands <= 4)
        return find_option(d, "keep" if keep else "mulligan") or d.options[0]

    # -- priority -----------------------------------------------------------------------------
    def _priority(self, view: PlayerView, d: Decision) -> Action | None:
        me = view.viewer
        my_turn = view.active == me
        hand = self._hand(view)
        if my_turn and view.step in MAIN_STEPS and not view.stack:
            # Lands in hand, or in the graveyard with Crucible of Worlds.
            cards = {**{c.cid: c for c in view.me.graveyard or ()}, **hand}
            lands = [a for a in d.options if a.verb == "play" and cards.get(a.args[0])
                     and cards[a.args[0]].cdef.is_land]
            if lands:
                return self._best_land(view, lands, cards, hand)
        if view.stack and view.stack[-1].controller == me and view.stack[-1].kind != "combat_damage":
            # Let my own spell or ability resolve, unless a copy of it is worth its cost.
            return self._copy_own_spell(view, d, hand) or find_option(d, "pass")
        scored: list[tuple[float, int, Action]] = []
        for i, a in enumerate(d.options):
            if a.verb == "play":
                card = hand.get(a.args[0])
                if card is None or card.cdef.is_land:
                    continue
                val = self._spell_score(view, card)
            elif a.verb == "activate":
                val = self._ability_score(view, a)
            else:
                continue
            if val > 0:
                scored.append((val, -i, a))
        if not scored:
            return find_option(d, "pass")
        if my_turn and view.step in MAIN_STEPS and not view.stack:
            return self._main_phase_choice(view, scored, hand)
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        return scored[0][2]

    def _copy_own_spell(self, view: PlayerView, d: Decision, hand: dict[int, Card]) -> Action | None:
        """Twincast on my own spell on top of the stack, if the copy is worth the card."""
        for a in d.options:
            card = hand.get(a.args[0]) if a.verb == "play" else None
            if card is None or not any(e.get("op") == "copy_spell"
                                       for e in card.cdef.spell_effects or ()):
                continue
            if self._nonpermanent_value(view, card) >= 1.5 + 0.5 * card.cdef.cost.cmc:
                return a
        return None

    def _best_land(self, view: PlayerView, lands: list[Action], cards: dict[int, Card],
                   hand: dict[int, Card]) -> Action:
        """The land to play (``cards``: the playable land cards by id); one from the graveyard
        first at equal need, since it keeps a card in hand."""
        need = [0.0] * 5
        for c in hand.values():
            for i, n in enumerate(c.cdef.cost.colored):
                need[i] += n
        have = [0] * 5
        for p in self._mana_sources(view, view.viewer, untapped_only=False):
            for ab in p.activated:
                for col in ab.mana or ():
                    if col in "WUBRG":
                        have["WUBRG".index(col)] += 1

        def score(a: Action) -> tuple[float, int]:
            cdef = cards[a.args[0]].cdef
            s = 0.0
            for col in cdef.mana_colors:
                if col in "WUBRG":
                    i = "WUBRG".index(col)
                    s += need[i] / (1 + have[i])
            s += 0.1 * len(set(cdef.mana_colors))
            if a.args[0] not in hand:
                s += 0.05
            return s, -lands.index(a)

        return max(lands, key=score)

    def _main_phase_choice(self, view: PlayerView, scored: list[tuple[float, int, Action]],
                           hand: dict[int, Card]) -> Action:
        """Pick the next spell or ability in my main phase: the best set my mana can pay for."""
        mana = self._available_mana(view)
        items = []
        for val, order, a in scored:
            if a.verb == "play":
                cdef = hand[a.args[0]].cdef
                cost = cdef.cost.cmc + (max(mana - cdef.cost.cmc, 0) if cdef.x_spell else 0)
            else:
                src = view.perm(a.args[0])
                cost = src.activated[a.args[1]].cost.mana.cmc if src is not None else 0
            items.append((val, cost, order, a))
        items = items[:12]
        best_set: tuple[float, int] = (-1.0, 0)
        best_items: list = []
        n = len(items)
        for mask in range(1, 1 << n):
            total_v, total_c = 0.0, 0
            chosen = []
            for i in range(n):
                if mask >> i & 1:
                    total_v += items[i][0]
                    total_c += items[i][1]
                    chosen.append(items[i])
            if total_c > mana:
                continue
            key = (total_v, total_c)
            if key > best_set:
                best_set, best_items = key, chosen
        if not best_items:
            return max(items, key=lambda it: (it[0], it[2]))[3]
        # Spend the most expensive first, so cheap spells fill what is left.
        return max(best_items, key=lambda it: (it[1], it[0], it[2]))[3]
