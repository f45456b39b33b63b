"""Fixed shapes: capacity limits, the observation sections and the action index layout.

Everything here is plain data computed from a :class:`Capacities`; the observer fills arrays with
these shapes and the docs tables are generated from the same column lists, so they can't drift.

>>> caps = Capacities()
>>> obs = ObservationLayout(caps)
>>> obs.shapes["permanents"][0] == 2 * caps.max_permanents
True
>>> acts = ActionLayout(caps)
>>> acts.describe(0), acts.describe(acts.offset["hand"] + 2)
('decline (pass / done / no / mulligan)', 'hand slot 2 (own hand)')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from mtg_env.engine.errors import MtgError
from mtg_env.engine.game import STEPS

from .vocab import CARD_COLUMNS, KEYWORDS_V1, SMALL_COLUMNS, vocabulary

Column = tuple[str, float, float, str]
BIG = 1_000_000.0

LAYOUT_VERSION = 2
"""Version of the observation columns and action bands; bump it when either changes meaning
(:func:`layout_signature` hashes the actual layout, so a silent change is caught anyway)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 6
"""The seat counts a layout can be built for (two players; a multiplayer game of 3 to 6)."""


def check_players(players: object) -> int:
    """``players`` as a seat count of a layout: an integer from 2 to 6 (else ``ValueError``)."""
    if (not isinstance(players, int | np.integer) or isinstance(players, bool)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ValueError(f"num_players must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                         f"got {players!r}")
    return int(players)


def seat_prefixes(players: int) -> tuple[str, ...]:
    """The column prefix of each relative seat: ``me``, ``opponent`` in a two-player layout;
    ``me``, ``seat1`` .. ``seat{N-1}`` for more players (the order of
    :func:`relative_seats`)."""
    if players == 2:
        return ("me", "opponent")
    return ("me", *(f"seat{k}" for k in range(1, players)))


def relative_seats(players: int, viewer: int, team: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The absolute seats in the order a viewer's observation lists them: the viewer, then its
    teammates (``team``: the viewer's team, the viewer included or not), then the opponents by
    seat distance (seat ``viewer+1``, ``viewer+2``, ... modulo ``players``).

    >>> relative_seats(4, 1), relative_seats(4, 3, team=(2, 3)), relative_seats(2, 1)
    ((1, 2, 3, 0), (3, 2, 0, 1), (1, 0))
    """
    return tuple(sorted(range(players), key=lambda q: (
        0 if q == viewer else 1 if q in team else 2, (q - viewer) % players)))


class EncodingError(MtgError):
    """A legal engine option or a game state that the fixed layout can't represent."""


class CapacityError(EncodingError):
    """A state needs more slots than a configured capacity (``key`` names the config key)."""

    def __init__(self, key: str, limit: int, needed: int, what: str) -> None:
        self.key = key
        self.limit = limit
        self.needed = needed
        super().__init__(f"{what} needs {needed} but the capacity is {key}={limit}; "
                         f"pass a larger {key}= in the env config (nothing is ever dropped)")


@dataclass(frozen=True)
class Capacities:
    """Slot counts of the observation tables and the action layout (env config keys).

    A state needing more raises :class:`CapacityError` naming the key; nothing is dropped.
    """

    max_hand: int = 20
    """Hand slots per player (own hand; the opponent's known cards and hidden placeholders)."""
    max_permanents: int = 32
    """Permanent slots per controller."""
    max_stack: int = 32
    """Stack object slots. Two players trading pump or regeneration activations in combat can
    stack up one object per mana they have (17 and 18 in Evincar's Tyranny mirrors between
    heuristic players), so this is well above the usual handful."""
    max_targets: int = 4
    """Targets recorded per stack object."""
    max_graveyard: int = 60
    """Graveyard slots per player."""
    max_removed: int = 30
    """Removed-from-the-game slots per player."""
    max_revealed: int = 60
    """Slots for cards a decision shows from a hidden zone (library search, look at the top) and
    the library cards the viewer knows."""
    max_triggers: int = 16
    """Pending triggered abilities shown while their controller orders them."""
    max_ability_slots: int = 8
    """Action slots per permanent: one per non-mana ability, one per color of a mana ability."""
    max_x: int = 40
    """Largest X value that can be chosen."""
    max_modes: int = 8
    """Modes of a modal spell."""
    max_damage: int = 40
    """Largest combat damage amount that can be assigned in one step of a division."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{f.name} must be a positive integer, got {v!r}")

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))


# -- observation -----------------------------------------------------------------------------
DECISION_KINDS = (
    "mulligan", "priority", "target", "mode", "x_value", "declare_attackers", "declare_blockers",
    "combat_damage", "order_triggers", "choose_cards", "yes_no", "choose_color",
    "choose_player", "pay_mana", "divide", "choose_card_name", "order_replacements",
)
CHOOSE_VERBS = ("discard", "sacrifice", "return", "destroy", "find", "put into hand", "put on top",
                "put on the bottom", "put into play", "choose")
PLAYER_FIELDS: tuple[Column, ...] = (
    ("life", -BIG, BIG, "life total"),
    ("poison", 0, BIG, "poison counters"),
    ("library", 0, BIG, "cards in library"),
    ("hand", 0, BIG, "cards in hand"),
    ("graveyard", 0, BIG, "cards in graveyard"),
    ("removed", 0, BIG, "cards removed from the game"),
    *((f"pool_{c}", 0, BIG, f"{c} mana in pool") for c in "WUBRGC"),
    ("lands_played", 0, BIG, "lands played this turn"),
    ("mulligans", 0, BIG, "mulligans taken"),
    ("life_lost_this_turn", 0, BIG, "life lost this turn"),
    ("combat_damage_pending", 0, BIG, "combat damage assigned to this player, not yet dealt"),
)
MULTIPLAYER_FIELDS: tuple[Column, ...] = (
    ("left_game", 0, 1, "has left the game (lost or conceded; the others play on)"),
    ("teammate", 0, 1, "a teammate of the viewer (Two-Headed Giant)"),
    ("active", 0, 1, "its turn (its team's, in Two-Headed Giant)"),
    ("priority", 0, 1, "has priority"),
    ("deciding", 0, 1, "makes the pending decision"),
    ("defending", 0, 1, "a defending player of this combat: the player attacked (attack left / "
                        "right), or one attacked by at least one creature (attack multiple)"),
    ("attackers", 0, BIG, "creatures attacking it (declared so far)"),
    ("chosen", 0, 1, "already chosen in the viewer's pending decision"),
    ("damage_recipient", 0, 1, "the damage being assigned now goes to it"),
)
"""Per-seat fields of a multiplayer layout (more than two players), after :data:`PLAYER_FIELDS`."""


GAME_SCALARS: tuple[Column, ...] = (
    ("turn", 0, BIG, "turn number"),
    ("my_turn", 0, 1, "the viewer is the active player"),
    ("my_priority", 0, 1, "the viewer has priority"),
    ("opponent_priority", 0, 1, "the opponent has priority"),
    ("deciding", 0, 1, "the viewer makes the pending decision (the mask is non-zero)"),
    ("n_options", 0, BIG, "legal options of the viewer's decision"),
    ("target_index", 0, BIG, "which target is being chosen (1-based; 0 if none)"),
    ("choose_min", 0, BIG, "cards to choose at least"),
    ("choose_max", 0, BIG, "cards to choose at most"),
    ("choose_count", 0, BIG, "cards chosen so far"),
    ("damage_remaining", 0, BIG, "combat damage (or a spell's divided damage) left to divide"),
    ("damage_to_me", 0, 1, "the damage being assigned now goes to the viewer"),
    ("damage_to_opponent", 0, 1, "the damage being assigned now goes to the opponent"),
    ("focus_stack", 0, BIG, "stack row + 1 of the object the decision is about (0 none)"),
    ("chosen_me", 0, 1, "the viewer is already chosen in the pending decision"),
    ("chosen_opponent", 0, 1, "the opponent is already chosen in the pending decision"),
)


def game_columns(players: int = 2) -> tuple[Column, ...]:
    """Scalars, then the step, decision kind and choice verb one-hots, then one block per seat
    in the viewer's order (:func:`relative_seats`): :data:`PLAYER_FIELDS`, and for more than two
    players :data:`MULTIPLAYER_FIELDS`. In a multiplayer layout the scalars' "opponent" reads
    "another player" (``opponent_priority``: an opponent has priority; ``damage_to_opponent``,
    ``chosen_opponent``: another player; the seat blocks say which)."""
    cols: list[Column] = list(GAME_SCALARS)
    cols += [(f"step_{s}", 0, 1, f"current step is {s}") for s in STEPS]
    cols += [(f"kind_{k}", 0, 1, f"pending decision is {k}") for k in DECISION_KINDS]
    cols += [("kind_other", 0, 1, "pending decision is of a kind this version doesn't list")]
    cols += [(f"choose_{v.replace(' ', '_')}", 0, 1, f"cards are chosen to {v}")
             for v in CHOOSE_VERBS]
    cols += [("choose_other", 0, 1, "cards are chosen for another purpose")]
    fields = PLAYER_FIELDS if players == 2 else PLAYER_FIELDS + MULTIPLAYER_FIELDS
    for who in seat_prefixes(players):
        cols += [(f"{who}_{n}", lo, hi, d) for n, lo, hi, d in fields]
    return tuple(cols)


def hand_columns() -> tuple[Column, ...]:
    return (("present", 0, 1, "slot holds a card"),
            ("known", 0, 1, "the card's identity is visible to the viewer"),
            *CARD_COLUMNS,
            ("chosen", 0, 1, "already chosen in the pending decision"))


PERMANENT_STATE: tuple[Column, ...] = (
    ("owner_me", 0, 1, "the viewer owns it"),
    ("tapped", 0, 1, "tapped"),
    ("sick", 0, 1, "summoning sick (not controlled since the start of its controller's turn)"),
    ("damage", 0, BIG, "damage marked on it"),
    ("power", -BIG, BIG, "current power"),
    ("toughness", -BIG, BIG, "current toughness"),
    ("counters_p1p1", 0, BIG, "+1/+1 counters"),
    ("counters_m1m1", 0, BIG, "-1/-1 counters"),
    ("counters_other", 0, BIG, "other counters"),
    ("attacking", 0, 1, "attacking"),
    ("blocked", 0, 1, "attacking and blocked"),
    ("blockers", 0, BIG, "creatures blocking it"),
    ("blocking", 0, BIG, "creatures it blocks"),
    ("blocking_ref", 0, BIG, "permanent ref of the (first) creature it blocks"),
    ("attached_ref", 0, BIG, "permanent ref of what it is attached to"),
    ("regen_shields", 0, BIG, "regeneration shields"),
    ("activations", 0, BIG, "abilities activated this turn"),
    *((f"has_{k}", 0, 1, f"currently has {k}") for k in KEYWORDS_V1),
    ("has_other", 0, BIG, "current keywords not in this version's list"),
    *((f"is_{c}", 0, 1, f"currently {c}") for c in "WUBRG"),
    *((f"is_{t}", 0, 1, f"currently an {t}" if t[0] in "ae" else f"currently a {t}")
      for t in ("artifact", "creature", "enchantment", "land")),
    ("marked", 0, 1, "declared or chosen in the pending decision (attacker, blocker, choice)"),
    ("block_pending_ref", 0, BIG, "permanent ref of the attacker it is being declared to block"),
    ("combat_damage_from", 0, BIG, "combat damage it has assigned, not yet dealt"),
    ("combat_damage_to", 0, BIG, "combat damage assigned to it, not yet dealt"),
    ("damage_source", 0, 1, "its combat damage is being divided now"),
    ("damage_recipient", 0, 1, "the damage being assigned now goes to it"),
)


def permanent_columns(players: int = 2) -> tuple[Column, ...]:
    """A permanent row; a multiplayer layout adds ``attacks_seat`` (whom it attacks)."""
    cols = (("present", 0, 1, "slot holds a permanent"), *CARD_COLUMNS, *PERMANENT_STATE)
    if players == 2:
        return cols
    return (*cols, ("attacks_seat", 0, players, "relative seat + 1 of the player it attacks "
                                                "(declared, or being declared by the viewer; 0 if none)"))


STACK_KINDS = ("spell", "activated", "triggered", "combat_damage")


def stack_columns(max_targets: int, players: int = 2) -> tuple[Column, ...]:
    """A stack row; a multiplayer layout adds ``controller_seat``."""
    cols: list[Column] = [("present", 0, 1, "slot holds a stack object")]
    cols += [(f"kind_{k}", 0, 1, f"a {k.replace('_', ' ')} object") for k in STACK_KINDS]
    cols += [("mine", 0, 1, "the viewer controls it")]
    cols += [(n, lo, hi, d + " (the spell, or the ability's source card)")
             for n, lo, hi, d in CARD_COLUMNS]
    cols += [
        ("source_ref", 0, BIG, "permanent ref of the ability's source (0 if gone or none)"),
        ("ability", 0, BIG, "ability index + 1 on its source card (0 for spells)"),
        ("x", 0, BIG, "value of X"),
        ("mode", 0, BIG, "chosen mode + 1 (0 if none)"),
        ("n_targets", 0, BIG, "targets chosen"),
    ]
    for i in range(max_targets):
        cols += [(f"target{i}_kind", 0, 4, f"target {i}: 1 player, 2 permanent, 3 stack, 4 card"),
                 (f"target{i}_ref", 0, BIG, f"target {i}: player 1 me / 2 opponent, permanent "
                  "ref, stack row + 1, or graveyard row + 1 (0 if elsewhere)"),
                 (f"target{i}_divided", 0, BIG, f"target {i}: damage divided to it as the spell "
                  "was played (Hail of Arrows; 0 if none)")]
    cols += [
        ("focus", 0, 1, "the pending decision is about this object"),
        ("being_played", 0, 1, "still being played (announcement, targets, costs)"),
        ("resolving", 0, 1, "resolving now"),
        ("damage_to_me", 0, BIG, "combat damage it deals to the viewer"),
        ("damage_to_opponent", 0, BIG, "combat damage it deals to the opponent"),
        ("damage_to_creatures", 0, BIG, "combat damage it deals to creatures"),
    ]
    if players != 2:
        cols += [("controller_seat", 0, players, "relative seat + 1 of its controller")]
    return tuple(cols)


PILE_ZONES = ("graveyard", "removed", "library", "hand", "other")


def pile_columns() -> tuple[Column, ...]:
    return (("present", 0, 1, "slot holds a card"), *SMALL_COLUMNS,
            ("chosen", 0, 1, "already chosen in the pending decision"),
            ("owner_me", 0, 1, "the viewer owns it"),
            ("zone", 0, len(PILE_ZONES), "where it is: " + ", ".join(
                f"{i + 1} {z}" for i, z in enumerate(PILE_ZONES))))


def trigger_columns() -> tuple[Column, ...]:
    return (("present", 0, 1, "slot holds a pending trigger"),
            ("card_id", 0, 65535, "vocabulary index of its source card"),
            ("source_ref", 0, BIG, "permanent ref of its source (0 if gone)"),
            ("ability", 0, BIG, "triggered ability index + 1 (0 for a rules trigger)"),
            ("lifelink", 0, 1, "a lifelink life-gain trigger"),
            ("mine", 0, 1, "the viewer controls it"))


def _offsets(sizes: Iterable[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """Where each named block starts when the blocks lie one after another in ``sizes``' order, and
    their total size."""
    offset: dict[str, int] = {}
    end = 0
    for name, n in sizes:
        offset[name] = end
        end += n
    return offset, end


class ObservationLayout:
    """Sections of the observation: name -> shape, columns and offset in the flat vector.

    Permanent refs are ``row + 1`` in the ``permanents`` table (the viewer's permanents in rows
    ``0 .. max_permanents-1``, the opponent's after them; with more ``players`` one block per
    seat in the viewer's order, :func:`relative_seats`), 0 for none.
    """

    def __init__(self, caps: Capacities, players: int = 2) -> None:
        self.caps = caps
        self.players = N = check_players(players)
        P, H, G, R = caps.max_permanents, caps.max_hand, caps.max_graveyard, caps.max_removed
        self.columns: dict[str, tuple[Column, ...]] = {
            "game": game_columns(N),
            "hand": hand_columns(),
            "permanents": permanent_columns(N),
            "stack": stack_columns(caps.max_targets, N),
            "graveyards": pile_columns(),
            "removed": pile_columns(),
            "revealed": pile_columns(),
            "triggers": trigger_columns(),
        }
        rows = {"game": None, "hand": N * H, "permanents": N * P, "stack": caps.max_stack,
                "graveyards": N * G, "removed": N * R, "revealed": caps.max_revealed,
                "triggers": caps.max_triggers}
        self.shapes: dict[str, tuple[int, ...]] = {
            name: (len(cols),) if (r := rows[name]) is None else (r, len(cols))
            for name, cols in self.columns.items()}
        self.offset, self.size = _offsets((name, int(np.prod(s))) for name, s in self.shapes.items())
        self.col = {name: {c[0]: i for i, c in enumerate(cols)}
                    for name, cols in self.columns.items()}

    def bounds(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        cols = self.columns[name]
        lo = np.array([c[1] for c in cols], np.float32)
        hi = np.array([c[2] for c in cols], np.float32)
        shape = self.shapes[name]
        return np.broadcast_to(lo, shape).copy(), np.broadcast_to(hi, shape).copy()

    def flat_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        los, his = zip(*(self.bounds(n) for n in self.columns), strict=True)
        return (np.concatenate([a.ravel() for a in los]), np.concatenate([a.ravel() for a in his]))


# -- actions ---------------------------------------------------------------------------------
BAND_DOCS = {
    "decline": "pass (priority), done (attackers, blockers, choices), no, mulligan",
    "accept": "keep (mulligan), yes",
    "player": "a player: 0 me, 1 opponent (target, choose player, choose)",
    "hand": "a hand slot: own hand (play a card, discard / choose it), then the opponent's "
            "hand slots (choose a card from it)",
    "permanent": "a permanent row (own then opponent's): target, choose, attack with it",
    "ability": "own permanent row x ability slot: activate an ability or a mana ability "
               "(slots: the card's activated abilities in order, a mana ability taking one slot "
               "per color it can add)",
    "stack": "a stack row: target that spell or ability",
    "graveyard": "a graveyard row (own then opponent's): target or choose that card; play "
                 "that land from own graveyard (Crucible of Worlds)",
    "removed": "a removed-cards row (own then opponent's): choose that card",
    "revealed": "a revealed row: choose a card shown from a hidden zone (library search)",
    "block": "own permanent row b x opponent permanent row a: b blocks a",
    "attack_player": "own permanent row r x opponent seat s (relative seat 1 .. N-1): r attacks "
                     "that player (attack multiple players option only)",
    "x": "X = slot (0 .. max_x)",
    "mode": "mode slot (0-based)",
    "assign": "assign slot (0 .. max_damage) damage to the current recipient (combat damage; "
              "a spell's damage divided among its targets as it is played)",
    "order": "put the pending trigger in trigger row `slot` on the stack next "
             "(order_replacements: apply the effect in trigger row `slot` first)",
    "color": "a color: W U B R G",
    "card_name": "a card name, slot = its index in the card vocabulary (name a card as Pithing "
                 "Needle comes into play; the reserved and token slots are never legal)",
}


class ActionLayout:
    """The ``Discrete(size)`` action space as bands of consecutive indices.

    The meaning of an index depends on the decision kind only through which bands can be legal:
    every legal option of every decision maps to exactly one index.

    With more ``players`` the seat bands (``player``, ``hand``, ``permanent``, ``graveyard``,
    ``removed``) have one block per seat in the viewer's order (:func:`relative_seats`),
    ``block`` pairs each own permanent row with every other seat's permanent rows, and
    ``attack_multiple`` (the attack multiple players option of a multiplayer game) adds the
    ``attack_player`` band after ``block``: own permanent row x opponent seat.
    """

    def __init__(self, caps: Capacities, players: int = 2, attack_multiple: bool = False) -> None:
        self.caps = caps
        self.players = N = check_players(players)
        if attack_multiple and N == 2:
            raise ValueError("attack_multiple is the attack multiple players option of a "
                             "multiplayer layout (num_players 3 to 6)")
        self.attack_multiple = attack_multiple
        P, H = caps.max_permanents, caps.max_hand
        attack = (("attack_player", P * (N - 1)),) if attack_multiple else ()
        self.bands: tuple[tuple[str, int], ...] = (
            ("decline", 1), ("accept", 1), ("player", N), ("hand", N * H),
            ("permanent", N * P), ("ability", P * caps.max_ability_slots),
            ("stack", caps.max_stack), ("graveyard", N * caps.max_graveyard),
            ("removed", N * caps.max_removed), ("revealed", caps.max_revealed),
            ("block", P * (N - 1) * P), *attack, ("x", caps.max_x + 1), ("mode", caps.max_modes),
            ("assign", caps.max_damage + 1), ("order", caps.max_triggers), ("color", 5),
            ("card_name", len(vocabulary())),
        )
        self.band_size: dict[str, int] = dict(self.bands)
        self.offset, self.size = _offsets(self.bands)
        self._starts = [self.offset[n] for n, _ in self.bands]

    def locate(self, index: int) -> tuple[str, int]:
        """``(band, slot)`` of an index."""
        if not 0 <= index < self.size:
            raise IndexError(f"action index {index} is outside Discrete({self.size})")
        lo, hi = 0, len(self.bands) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._starts[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        name = self.bands[lo][0]
        return name, index - self.offset[name]

    def describe(self, index: int) -> str:
        """What an index means, in words (independent of any state)."""
        band, slot = self.locate(index)
        caps = self.caps
        P, H, N = caps.max_permanents, caps.max_hand, self.players
        if band == "decline":
            return "decline (pass / done / no / mulligan)"
        if band == "accept":
            return "accept (keep / yes)"
        if band == "player":
            return "player: " + _seat_word(slot, N)
        if band == "hand":
            return f"hand slot {slot % H} ({_seat_word(slot // H, N, 'own')} hand)"
        if band in ("permanent", "graveyard", "removed"):
            n = {"permanent": P, "graveyard": caps.max_graveyard,
                 "removed": caps.max_removed}[band]
            return f"{band} row {slot} ({_seat_word(slot // n, N, 'own')})"
        if band == "ability":
            return f"ability slot {slot % caps.max_ability_slots} of own permanent row " \
                   f"{slot // caps.max_ability_slots}"
        if band == "block":
            b, a = divmod(slot, (N - 1) * P)
            if N == 2:
                return f"own permanent row {b} blocks opponent permanent row {a}"
            return (f"own permanent row {b} blocks permanent row {P + a} "
                    f"({_seat_word(1 + a // P, N)})")
        if band == "attack_player":
            r, s = divmod(slot, N - 1)
            return f"own permanent row {r} attacks {_seat_word(s + 1, N)}"
        if band == "color":
            return "color " + "WUBRG"[slot]
        if band == "card_name":
            return "name " + vocabulary().name(slot)
        return f"{band} {slot}"


def _seat_word(rel: int, players: int, me: str = "me") -> str:
    """A relative seat in words: ``me`` (or ``own``), ``opponent`` (two players) or ``seat k``."""
    if rel == 0:
        return me
    return "opponent" if players == 2 else f"seat {rel}"


def layout_signature(caps: Capacities, players: int = 2, attack_multiple: bool = False) -> str:
    """A short hash of the observation columns (names, order, bounds), table shapes and action
    bands for ``caps`` (and a multiplayer layout's seat count and attack option): two installs
    give the same arrays' meaning iff their signatures agree."""
    import hashlib
    import json

    obs = ObservationLayout(caps, players)
    acts = ActionLayout(caps, players, attack_multiple)
    doc = {"version": LAYOUT_VERSION,
           "columns": {n: [list(c[:3]) for c in cols] for n, cols in obs.columns.items()},
           "shapes": {n: list(s) for n, s in obs.shapes.items()},
           "bands": [list(b) for b in acts.bands]}
    if players != 2:  # the two-player document (and so its signature) is as before
        doc["players"] = players
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


__all__ = [
    "BAND_DOCS",
    "LAYOUT_VERSION",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MULTIPLAYER_FIELDS",
    "ActionLayout",
    "Capacities",
    "CapacityError",
    "EncodingError",
    "ObservationLayout",
    "check_players",
    "layout_signature",
    "relative_seats",
    "seat_prefixes",
]
