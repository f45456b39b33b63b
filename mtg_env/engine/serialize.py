"""Lossless JSON for a whole game, RNG state and pending decision included.

Ability objects (a stack object's ability, a waiting trigger's ability) are stored as their
serialisable reference ``{"$ability": [card name, kind, index]}`` or, for an ability granted by
a static ability, ``{"$ability": [card name, "static", i, "activated", j]}`` (see
``model.set_ability_refs``), and resolved to the same shared object on load.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .abilities import ActivatedAbility, StaticAbility, TriggeredAbility
from .actions import Decision, DecisionKind
from .continuous_effects import effect_from_json
from .errors import MtgError, StateError, UnknownCardError
from .frame_kinds import frame_from_json
from .frames import DelayedTrigger, PendingTrigger
from .layers import fresh, mark_dirty
from .loaded_state_check import check_state
from .loaded_state_schema import PERM_ATTRS, PLAYER_ATTRS, STACK_ATTRS
from .model import Card, Permanent, Player, StackItem
from .priority import priority_options
from .registry import ability_by_ref, card_for_key, card_key
from .replacement_events import replacement_from_json
from .rng import Rng
from .stack_data import StackData
from .state import FIELDS, SCALARS, TURN_STEPS
from .triggers import watch_zone_triggers

if TYPE_CHECKING:
    from .game import Game

# 3: stack objects and waiting triggers hold ability references; 4: frames stored as their
# declared fields say (frame_fields.py): fields at their defaults left out, the trigger queues a
# list; 5: waiting triggers stored as frames.PendingTrigger declares them (defaults left out);
# 6: replacement events stored as replacement_events declares them (no "e": a waiting damage or
# draw is known by its frame); 7: the effects of game.replacements stored as replacement_events
# declares them (their kind under "k", the effect's source under "src"); 8: the continuous effects
# of game.effects stored as continuous_effects declares them (their kind under "k"); 9: any number
# of players, the variant, the attack option and the defending player; the opening-hand procedure
# counts the players who have kept
FORMAT_VERSION = 10

# The attributes stored as they are; their schema is declared in loaded_state_schema.py.
_PLAYER = tuple(PLAYER_ATTRS)
_PERM = tuple(PERM_ATTRS)
_STACK = tuple(STACK_ATTRS)
_HEADER = frozenset({"format", "version"})
# Fields added to the format later, with the value a game saved before them had.
_PLAYER_NEW = {"spells_played_this_turn": 0}
_PERM_NEW = {"chosen": None}
_STEPS = ("untap", *TURN_STEPS)
_GAME_NEW: dict[str, Any] = {"known": [], "extra_turns": [], "normal_turn": None, "delayed": [],
                             "attacked_this_turn": [], "died_this_turn": [],
                             "damaged_this_turn": [], "private_log": [], "goldfish": None,
                             "goldfish_dead_turn": None}


_ABILITY_TYPES = (ActivatedAbility, TriggeredAbility, StaticAbility)
# The scalar fields that hold tuples (their default is one): JSON gives them back as lists.
_TUPLE_SCALARS = frozenset(f.name for f in FIELDS if f.name in SCALARS
                           and isinstance(f.default(), tuple))


def _as_tuple(v: list[Any]) -> tuple[Any, ...]:
    """A stored list as the tuple it was, lists in it too (``private_log``'s entries)."""
    return tuple(_as_tuple(x) if type(x) is list else x for x in v)


def _enc(v: Any) -> Any:
    """Plain data with every ability object replaced by its reference."""
    if isinstance(v, dict):
        return {k: _enc(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_enc(x) for x in v]
    if isinstance(v, _ABILITY_TYPES):
        if not v.ref:
            raise MtgError(f"engine error: ability {v.text!r} has no serialisable reference")
        return {"$ability": list(v.ref)}
    return v


def _dec(v: Any) -> Any:
    """The inverse of :func:`_enc` (lists stay lists, as JSON gives them)."""
    if isinstance(v, dict):
        if "$ability" in v and len(v) == 1:
            return ability_by_ref(v["$ability"])
        return {k: _dec(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_dec(x) for x in v]
    return v


def game_to_dict(g: Game) -> dict[str, Any]:
    d: dict[str, Any] = {"format": "mtg_env.game", "version": FORMAT_VERSION}
    for k in SCALARS:
        d[k] = getattr(g, k)
    d["rng"] = g.rng.state
    d["cards"] = [[c.cid, card_key(c.cdef), c.owner, c.label] for c in g.cards.values()]
    d["players"] = [
        {**{k: getattr(P, k) for k in _PLAYER},
         "hand": [c.cid for c in P.hand], "library": [c.cid for c in P.library],
         "graveyard": [c.cid for c in P.graveyard], "removed": [c.cid for c in P.removed]}
        for P in g.players
    ]
    d["perms"] = [
        {**{k: getattr(p, k) for k in _PERM}, "card": p.card.cid,
         "used_this_turn": sorted(p.used_this_turn.items())}
        for p in g.perms.values()
    ]
    d["stack"] = [{**{k: getattr(s, k) for k in _STACK}, "data": s.data.to_json(),
                   "card": s.card.cid if s.card is not None else None,
                   "ability_def": _enc(s.ability_def)} for s in g.stack]
    d["effects"] = [e.to_json() for e in g.effects]
    d["replacements"] = [r.to_json() for r in g.replacements]
    d["frames"] = [_enc(f.to_json()) for f in g.frames]
    d["pending"] = [_enc(t.to_json()) for t in g.pending]
    d["delayed"] = [t.to_json() for t in g.delayed]
    d["label_counts"] = g.label_counts
    d["known"] = sorted([cid, mask, zone] for cid, (mask, zone) in g.known.items())
    d["lifelink_dealt"] = sorted(g.lifelink_dealt.items())
    d["decision"] = g.decision.to_json() if g.decision is not None else None
    d["log"] = g.log
    return d


def game_to_json(g: Game) -> str:
    return json.dumps(game_to_dict(g), separators=(",", ":"))


def game_from_json(text: str) -> Game:
    try:
        d = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:  # ValueError: also a 5000-digit int
        raise StateError(f"not a JSON game state: {exc}".splitlines()[0]) from None
    if not isinstance(d, dict) or d.get("format") != "mtg_env.game":
        raise StateError("not an mtg_env game state (missing 'format': 'mtg_env.game')")
    if d.get("version") != FORMAT_VERSION:
        raise StateError(f"game state version {d.get('version')!r} is not supported "
                         f"(this engine reads version {FORMAT_VERSION})")
    for k, v in _GAME_NEW.items():
        if k not in d:
            d[k] = list(v) if type(v) is list else v
    if "step_queue" not in d and d.get("step") in _STEPS:  # saved before the turn was a queue
        d["step_queue"] = list(_STEPS[_STEPS.index(d["step"]) + 1:])
    for zone, new in (("players", _PLAYER_NEW), ("perms", _PERM_NEW)):
        if type(d.get(zone)) is list:
            for x in d[zone]:
                if type(x) is dict:
                    for k, v in new.items():
                        x.setdefault(k, v)
    try:
        check_state(d, FIELDS, _HEADER)
    except RecursionError:
        raise StateError("game state nested too deeply") from None
    try:
        return _from_dict(d)
    except StateError:
        raise
    except UnknownCardError as exc:
        raise StateError(f"game state names an unknown card: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(f"malformed game state: {type(exc).__name__}: {exc}") from None


def _from_dict(d: dict[str, Any]) -> Game:
    from .game import Game

    g = Game()
    for k in SCALARS:
        setattr(g, k, _as_tuple(d[k]) if k in _TUPLE_SCALARS else d[k])
    g.rng = Rng(d["rng"])
    cards: dict[int, Card] = {}
    for cid, name, owner, label in d["cards"]:
        cards[cid] = Card(cid, card_for_key(name), owner, label)
    g.cards = cards
    for card in cards.values():
        if card.cdef.zone_triggered:
            g.zone_watch = watch_zone_triggers(g.zone_watch, card)
    g.players = []
    for i, pd in enumerate(d["players"]):
        P = Player(i)
        for k in _PLAYER:
            setattr(P, k, pd[k])
        P.mana_pool = list(P.mana_pool)
        P.hand = [cards[c] for c in pd["hand"]]
        P.library = [cards[c] for c in pd["library"]]
        P.graveyard = [cards[c] for c in pd["graveyard"]]
        P.removed = [cards[c] for c in pd["removed"]]
        g.players.append(P)
    g.perms = {}
    for pd in d["perms"]:
        card = cards[pd["card"]]
        p = Permanent(pd["id"], card, pd["base_controller"], pd["timestamp"])
        for k in _PERM:
            setattr(p, k, pd[k])
        p.used_this_turn = {int(k): v for k, v in pd["used_this_turn"]}
        g.perms[p.id] = p
    g.stack = []
    for sd in d["stack"]:
        s = StackItem(sd["id"], sd["kind"], sd["controller"])
        for k in _STACK:
            setattr(s, k, sd[k])
        s.targets = [tuple(t) for t in s.targets]
        s.data = StackData.from_json(sd["data"])
        s.card = cards[sd["card"]] if sd["card"] is not None else None
        s.ability_def = _dec(sd["ability_def"])
        g.stack.append(s)
    g.effects = [effect_from_json(e) for e in d["effects"]]
    g.replacements = [replacement_from_json(r) for r in d["replacements"]]
    g.frames = [frame_from_json(f) for f in _dec(d["frames"])]
    g.pending = [PendingTrigger.from_json(t) for t in _dec(d["pending"])]
    g.delayed = tuple(DelayedTrigger.from_json(t) for t in d["delayed"])
    g.label_counts = d["label_counts"]
    g.known = {cid: (mask, zone) for cid, mask, zone in d["known"]}
    g.lifelink_dealt = {int(k): v for k, v in d["lifelink_dealt"]}
    g.decision = Decision.from_json(d["decision"]) if d["decision"] is not None else None
    g.log = d["log"]
    mark_dirty(g, "loaded")
    fresh(g)
    if not g.is_over and g.decision is None:
        raise MtgError("malformed game state: no decision pending in an unfinished game")
    _check_priority_options(g)
    return g


def _check_priority_options(g: Game) -> None:
    """A priority decision (the common one) must offer exactly what the engine offers in this
    position: its options name abilities by index, which the schema alone can't check."""
    dec = g.decision
    if dec is None or g.frames or dec.kind is not DecisionKind.PRIORITY:
        return
    if dec.player != g.prio:
        raise StateError(f"decision.player: {dec.player} does not have priority (prio is {g.prio})")
    want = [(a.verb, a.text, a.args) for a in priority_options(g, dec.player)]
    got = [(a.verb, a.text, a.args) for a in dec.options]
    if got != want:
        extra = [t for v, t, a in got if (v, t, a) not in want]
        raise StateError(f"decision.options: not the options of this position"
                         f"{' (' + repr(extra[0]) + ' is not legal)' if extra else ''}")
