"""The action mapping of a viewer: each legal option of the pending decision to its index in the
fixed action space, from the rows the view shows (:class:`ActionIndex`, a part of
:class:`~mtg_env.encoding.observer.Observer`'s per-player view).
"""

from __future__ import annotations

from typing import Any

from mtg_env.engine.actions import Action

from .layout import CapacityError, EncodingError
from .vocab import COLORS, RESERVED, vocabulary

_DECLINE = frozenset({"pass", "done", "no", "mulligan"})
_ACCEPT = frozenset({"keep", "yes"})


class ActionIndex:
    """The action mapping of :class:`~mtg_env.encoding.observer._View` (mixed into it)."""

    def index_of(self, a: Action) -> int:
        """The action index of one legal option (the view must be up to date)."""
        lay = self.o.act_layout
        off = lay.offset
        caps = self.o.caps
        verb = a.verb
        args = a.args
        if verb == "mana" or verb == "activate":
            pid, ab = args[0], args[1]
            r = self.pid_row.get(pid)
            if r is None or r >= caps.max_permanents:
                raise EncodingError(f"{a.text!r}: permanent {pid} is not one the deciding "
                                    "player controls")
            p = self.own_rows[r]
            slots = self.o.caches.ability_slots(p.activated)
            slot = slots.get((ab, args[2] if verb == "mana" else None))
            if slot is None:
                raise EncodingError(f"{a.text!r}: ability {ab} of {p.card.label} has no "
                                    "ability slot")
            if slot >= caps.max_ability_slots:
                raise CapacityError("max_ability_slots", caps.max_ability_slots, slot + 1,
                                    f"the abilities of {p.card.label}")
            return off["ability"] + r * caps.max_ability_slots + slot
        if verb in _DECLINE:
            return off["decline"]
        if verb == "play":
            r = self.hand_row.get(args[0])
            if r is None:
                # A land played from the graveyard (Crucible of Worlds): its graveyard row.
                r = self.pile_row["graveyards"].get(args[0])
                if r is None:
                    raise EncodingError(f"{a.text!r}: card {args[0]} is not in the player's "
                                        "hand or graveyard")
                return off["graveyard"] + r
            return off["hand"] + r
        if verb == "choose" or verb == "target":
            return self._ref_index(args[0], a)
        if verb in _ACCEPT:
            return off["accept"]
        if verb == "attack":
            if len(args) == 1:
                return self._perm_index(args[0], a)
            return self._attack_player_index(args[0], args[1], a)
        if verb == "block":
            P = caps.max_permanents
            b, att = self.pid_row.get(args[0]), self.pid_row.get(args[1])
            if b is None or att is None or b >= P or att < P:
                raise EncodingError(f"{a.text!r}: the blocker must be the deciding player's and "
                                    "the attacker another player's")
            return off["block"] + b * (self.n - 1) * P + (att - P)
        if verb in ("x", "assign", "mode", "order"):
            n = args[0]
            band = verb
            size = lay.band_size[band]
            if not 0 <= n < size:
                key = {"x": "max_x", "assign": "max_damage", "mode": "max_modes",
                       "order": "max_triggers"}[verb]
                limit = getattr(caps, key)
                raise CapacityError(key, limit, n, f"option {a.text!r}")
            return off[band] + n
        if verb == "color":
            if args[0] not in COLORS:
                raise EncodingError(f"{a.text!r}: unknown color {args[0]!r}")
            return off["color"] + COLORS.index(args[0])
        if verb == "player":
            return off["player"] + self.rel[args[0]]
        if verb == "name":  # a card name (Pithing Needle): its card vocabulary index
            i = vocabulary().index(args[0])
            if i < len(RESERVED):
                raise EncodingError(f"{a.text!r}: {args[0]!r} is not in the card vocabulary")
            return off["card_name"] + i
        raise EncodingError(f"option {a.text!r} has verb {verb!r}, which the action layout "
                            "does not know")

    def _attack_player_index(self, pid: int, player: int, a: Action) -> int:
        """Attack multiple players (2012 802.3): own permanent row x opponent seat."""
        off = self.o.act_layout.offset
        if "attack_player" not in off:
            raise EncodingError(f"{a.text!r}: an attack on a chosen player needs the "
                                "attack_player band (env config attack='multiple')")
        r = self.pid_row.get(pid)
        if r is None or r >= self.o.caps.max_permanents:
            raise EncodingError(f"{a.text!r}: permanent {pid} is not one the deciding player "
                                "controls")
        s = self.rel[player]
        if s == 0:
            raise EncodingError(f"{a.text!r}: a player can't attack themselves")
        return off["attack_player"] + r * (self.n - 1) + (s - 1)

    def _perm_index(self, pid: int, a: Action) -> int:
        r = self.pid_row.get(pid)
        if r is None:
            raise EncodingError(f"{a.text!r}: permanent {pid} is not in play")
        return self.o.act_layout.offset["permanent"] + r

    def _ref_index(self, ref: Any, a: Action) -> int:
        off = self.o.act_layout.offset
        zone, v = ref[0], ref[1]
        if zone == "o":
            return self._perm_index(v, a)
        if zone == "p":
            return off["player"] + self.rel[v]
        if zone == "s":
            r = self.stack_row.get(v)
            if r is None:
                raise EncodingError(f"{a.text!r}: stack object {v} is not on the stack")
            return off["stack"] + r
        if zone == "h":
            r = self.hand_row.get(v)
            if r is None:
                r = self.opp_hand_row.get(v)
            if r is None:
                raise EncodingError(f"{a.text!r}: card {v} is in no hand slot")
            return off["hand"] + r
        if zone == "c":
            piles = self.pile_row
            r = piles["graveyards"].get(v)
            if r is not None:
                return off["graveyard"] + r
            r = piles["removed"].get(v)
            if r is not None:
                return off["removed"] + r
            r = self.hand_row.get(v, self.opp_hand_row.get(v))
            if r is not None:
                return off["hand"] + r
            r = self.revealed_row.get(v)
            if r is not None:
                return off["revealed"] + r
            raise EncodingError(f"{a.text!r}: card {v} is in no visible slot")
        raise EncodingError(f"{a.text!r}: unknown reference {ref!r}")

