"""The card language's object references and amounts, compiled once when card data loads.

A *reference* names the objects or players an effect acts on: a target index (``target: 0``;
2007 CR 413.2a: a target illegal on resolution is not affected), a word (``self``,
``controller``, ``each_player``, the triggering event's ``event_player`` ...),
``{controller_of: N}`` (with last known information, 2012 608.2g) or a filter for "each ...".
An *amount* is a number an effect uses: ``3``, ``X``, ``{count: filter}``, ``{graveyard: you}``,
an event's damage or toughness. Both compile into functions of ``(game, stack_item)``; a bad one
raises :class:`~mtg_env.engine.errors.CardDataError` at load, naming its site.

They build on the filters of :mod:`mtg_env.engine.filters` (the ``Site``, the compiled
``Filter``, the target kinds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .filters import TARGET_KINDS, Filter, Site, compile_filter, suggest_names
from .layers import fresh
from .seating import in_range, opponent, opponents
from .stack import item_def
from .targets import target_legal

if TYPE_CHECKING:
    from .game import Game
    from .model import Permanent, StackItem


# -- references -------------------------------------------------------------------------------
PLAYER_WORDS = ("controller", "opponent", "each_opponent", "each_player", "active_player",
                "event_player", "damaged_player", "event_perm_controller")
OBJECT_WORDS = ("self", "enchanted", "equipped", "event_attacker", "event_blocker",
                "damaged_creature", "self_card")
# References to the triggering event's objects: meaningful only in a triggered ability.
EVENT_WORDS = ("event_player", "damaged_player", "event_perm_controller", "event_attacker",
               "event_blocker", "damaged_creature")

# Trigger events by what they carry: a player (PLAYER_EVENTS) or a permanent (PERMANENT_EVENTS);
# event references and amounts check their event against these (the triggers' own filter keys
# are in mtg_env.engine.ability_vocabulary).
PLAYER_EVENTS = ("upkeep", "end_of_turn", "draw", "discard", "tapped_for_mana", "draw_step")
# ``becomes_blocked_by``: once per blocking creature (``blocker`` names it); ``blocks``: once
# per blocked creature (``attacker``).
PERMANENT_EVENTS = ("etb", "leaves_play", "to_graveyard", "attacks", "blocks", "becomes_blocked",
                    "becomes_blocked_by")
# What a reference yields: ``(zone, id)`` pairs ("o" a permanent, "p" a player, "c" a card, "s"
# a spell).
Refs = list[tuple[str, int]]
Ref = Callable[["Game", "StackItem"], Refs]


def compile_ref(v: Any, site: Site | None = None, players: bool = False) -> Ref:
    """Compile an object reference: a target index, a word, or a filter for "each ...".

    ``players``: only player references are allowed (``who`` of draw, gain_life ...).
    """
    site = site or Site()
    if isinstance(v, bool):
        raise site.error(f"reference must be a target index, a word or a filter, not {v!r}")
    if isinstance(v, int):
        if v < 0 or (site.targets is not None and v >= len(site.targets)):
            n = len(site.targets or ())
            raise site.error(f"target {v} does not exist: the ability has {n} target(s)")
        if players and site.targets is not None and "player" not in TARGET_KINDS[site.targets[v]][0]:
            raise site.error(f"target {v} ({site.targets[v]}) is not a player")
        return _ref_target(v)
    if isinstance(v, str):
        words = PLAYER_WORDS if players else PLAYER_WORDS + OBJECT_WORDS
        if v not in words:
            raise site.error(f"unknown reference {v!r}" + suggest_names(v, words)
                             + f" (known: {list(words)} or a target index"
                             + ("" if players else " or a filter") + ")")
        if v in OBJECT_WORDS and not site.source:
            raise site.error(f"reference {v!r} needs a permanent as the ability's source")
        if v in EVENT_WORDS:
            _check_event_word(v, site)
        return _REF_WORDS[v]
    if isinstance(v, dict) and set(v) == {"controller_of"}:
        return _ref_controller_of(v["controller_of"], site)
    if isinstance(v, dict) and not players:
        flt = compile_filter(v, "permanent", site, other=site.source,
                             allow=("x", "tp", "src") if site.source else ("x", "tp"))
        return _ref_each(flt)
    raise site.error(f"bad reference {v!r}: a target index, "
                     f"{'a player word' if players else 'a word or a filter'} expected")


def _events_with(word: str) -> tuple[str, ...]:
    """The trigger events whose event has what an event reference or amount reads."""
    return {"event_player": (*PLAYER_EVENTS, "cast"), "damaged_player": ("deals_damage",),
            "amount": ("deals_damage",), "event_perm_controller": PERMANENT_EVENTS,
            "toughness": PERMANENT_EVENTS, "blockers": PERMANENT_EVENTS,
            "event_attacker": ("blocks",), "event_blocker": ("becomes_blocked_by",),
            "damaged_creature": ("deals_damage",)}[word]


def _check_event_word(word: str, site: Site) -> None:
    """An event reference or amount must name something its trigger event has: a damage event
    has no ``event_player`` (``damaged_player`` is the player dealt damage), and so on."""
    if site.event is None:
        raise site.error(f"{word!r} is only meaningful in a triggered ability")
    if site.event and site.event not in _events_with(word):
        raise site.error(f"{word!r}: a {site.event!r} event has none (it is meaningful for "
                         f"{list(_events_with(word))})")


def _ref_target(i: int) -> Ref:
    def ref(g: Game, item: StackItem) -> Refs:
        if i >= len(item.targets):
            return []
        specs = item_def(g, item)[0]
        if i < len(specs) and specs[i].count is not None:
            # A spec with a variable number of targets: every one of them still legal.
            spec = specs[i]
            return [tuple(t) for j, t in enumerate(item.targets) if j >= i
                    and target_legal(g, item, j, spec)]
        if i < len(specs) and not target_legal(g, item, i, specs[i]):
            return []  # 2007 CR 413.2a: an illegal target is not affected
        return [tuple(item.targets[i])]
    return ref


def _ref_each(flt: Filter) -> Ref:
    test = flt.test
    other = flt.other
    dynamic = flt.dynamic

    def ref(g: Game, item: StackItem) -> Refs:
        fresh(g)
        ctrl = item.controller
        skip = item.source if other else None
        t = flt.bind(item.x, targeted_player(g, item), item.source) if dynamic else test
        if g.influence:  # 2012 801.10: only what is within the controller's range of influence
            reach = g.influence[ctrl]
            return [("o", p.id) for p in list(g.perms.values())
                    if p.id != skip and p.controller in reach and t(p, ctrl)]
        return [("o", p.id) for p in list(g.perms.values()) if p.id != skip and t(p, ctrl)]
    return ref


def targeted_player(g: Game, item: StackItem) -> int:
    """The player ``item`` targets (its first player target still legal), or -1."""
    specs = item_def(g, item)[0]
    v: int  # a target is ``[zone, id]``
    for i, (kind, v) in enumerate(item.targets):
        if kind == "p" and (i >= len(specs) or target_legal(g, item, i, specs[i])):
            return v
    return -1


def _ref_controller_of(i: Any, site: Site) -> Ref:
    """"That permanent's controller": the controller of target ``i``, with last known
    information if an earlier op of the same resolution moved it out of play (2012 608.2g;
    the ops that do so record it in ``item.data.lki``)."""
    if isinstance(i, bool) or not isinstance(i, int) or i < 0 or (
            site.targets is not None and i >= len(site.targets)):
        raise site.error(f"'controller_of' must name a target of the ability, not {i!r}")
    if site.targets is not None and "permanent" not in TARGET_KINDS[site.targets[i]][0]:
        raise site.error(f"'controller_of': target {i} ({site.targets[i]}) is not a permanent")
    target = _ref_target(i)

    def ref(g: Game, item: StackItem) -> Refs:
        if i >= len(item.targets) or item.targets[i][0] != "o":
            return []
        pid = item.targets[i][1]
        if pid in g.perms:
            return [("p", g.perms[pid].controller)] if target(g, item) else []
        ctrl = item.data.lki.get(str(pid))
        return [] if ctrl is None else [("p", ctrl)]
    return ref


def record_lki(item: StackItem, perm: Permanent) -> None:
    """Remember who controlled ``perm`` as it leaves play during ``item``'s resolution (read by
    the ``controller_of`` reference)."""
    item.data.lki[str(perm.id)] = perm.controller


def _attached(g: Game, item: StackItem) -> Refs:
    src = g.perms.get(item.source) if item.source is not None else None
    if src is not None and src.attached_to in g.perms:
        return [("o", src.attached_to)]
    return []


_REF_WORDS: dict[str, Ref] = {
    "self": lambda g, item: [("o", item.source)] if item.source in g.perms else [],
    "controller": lambda g, item: [("p", item.controller)],
    "opponent": lambda g, item: [("p", opponent(g, item.controller))],
    # "each other player" / "each opponent": every opponent still in the game, in turn order
    # (in a two-player game the one opponent; a Two-Headed Giant teammate is not one).
    "each_opponent": lambda g, item: [("p", o) for o in opponents(g, item.controller)
                                      if in_range(g, item.controller, o)],
    "each_player": lambda g, item: [("p", P.index) for P in g.players
                                    if not P.lost and in_range(g, item.controller, P.index)],
    "active_player": lambda g, item: [("p", g.active)],
    "enchanted": _attached,
    "equipped": _attached,
    "event_player": lambda g, item: [("p", item.data.event.get("player", item.controller))],
    "damaged_player": lambda g, item: _damaged_player(item),
    "event_perm_controller": lambda g, item: _event_perm_controller(g, item),
    "event_attacker": lambda g, item: _event_object(g, item, "attacker"),
    "event_blocker": lambda g, item: _event_object(g, item, "blocker"),
    "damaged_creature": lambda g, item: _damaged_creature(g, item),
    # The card an ability working from a graveyard belongs to ("return Squee from your
    # graveyard"; ops check it is still there).
    "self_card": lambda g, item: ([("c", item.data.source_card)]
                                  if item.data.source_card is not None else []),
}


def _damaged_creature(g: Game, item: StackItem) -> Refs:
    """The creature a damage event dealt damage to ("that creature" of Phage), if still in play."""
    target = item.data.event.get("target")
    return [("o", target[1])] if target and target[0] == "o" and target[1] in g.perms else []


def _damaged_player(item: StackItem) -> Refs:
    """The player a damage event dealt damage to ("that player" of Hypnotic Specter)."""
    target = item.data.event.get("target")
    return [("p", target[1])] if target and target[0] == "p" else []


def _event_perm_controller(g: Game, item: StackItem) -> Refs:
    """The controller of the event's permanent ("its controller"): now if it is still in play,
    else as it last existed in play (2012 608.2g, last known information)."""
    ev = item.data.event
    p = g.perms.get(ev.get("perm", -1))
    if p is not None:
        fresh(g)
        return [("p", p.controller)]
    lki = ev.get("lki")
    return [("p", lki["controller"])] if lki else []


def _event_object(g: Game, item: StackItem, key: str) -> Refs:
    """The event's attacker or blocker ("that creature"), if it is still in play."""
    pid = item.data.event.get(key)
    return [("o", pid)] if pid in g.perms else []


# -- amounts ----------------------------------------------------------------------------------
Amount = Callable[["Game", "StackItem"], int]


EVENT_AMOUNTS = ("amount", "toughness", "blockers")


def compile_amount(v: Any, site: Site | None = None) -> Amount:
    """Compile an amount: an integer, ``X`` or ``-X``, ``{count: filter}`` (permanents in
    play), ``{graveyard: you|any}`` (cards in graveyards), ``{hand_size: player}`` (cards in a
    referenced player's hand), ``{event: amount|toughness|blockers}`` (of a triggered ability's
    event: the damage dealt, the event permanent's toughness, the creatures blocking it),
    ``{sacrificed: power}`` (total power of the permanents sacrificed to pay the cost) or
    ``{removed: this_way}`` (how many objects this resolution's ``remove_from_game`` moved)."""
    site = site or Site()
    if isinstance(v, int) and not isinstance(v, bool):
        return lambda g, item: v
    if v in ("X", "-X"):
        if not site.x:
            raise site.error(f"amount {v!r} but the card or ability has no X")
        if v == "-X":
            return lambda g, item: -item.x
        return lambda g, item: item.x
    if isinstance(v, dict) and len(v) == 1:
        ((k, w),) = v.items()
        if k == "count":
            test = compile_filter(w, "permanent", site.at("count")).test

            def count(g: Game, item: StackItem) -> int:
                fresh(g)
                pl = item.controller
                if g.influence:  # 2012 801.11: it sees only what is within range
                    reach = g.influence[pl]
                    return sum(1 for p in g.perms.values() if p.controller in reach and test(p, pl))
                return sum(1 for p in g.perms.values() if test(p, pl))
            return count
        if k == "graveyard":
            if w not in ("you", "any"):
                raise site.error(f"'graveyard' must be 'you' or 'any', not {w!r}")
            if w == "you":
                return lambda g, item: len(g.players[item.controller].graveyard)
            return lambda g, item: sum(len(P.graveyard) for P in g.players
                                       if in_range(g, item.controller, P.index))
        if k == "hand_size":
            who = compile_ref(w, site.at("hand_size"), players=True)
            return lambda g, item: sum(len(g.players[pl].hand) for kind, pl in who(g, item)
                                       if kind == "p")
        if k == "event":
            if w not in EVENT_AMOUNTS:
                raise site.error(f"'event' must be one of {list(EVENT_AMOUNTS)}, not {w!r}"
                                 + suggest_names(w, EVENT_AMOUNTS))
            _check_event_word(w, site)
            return _EVENT_AMOUNTS[w]
        if k == "sacrificed":
            if w != "power":
                raise site.error(f"'sacrificed' must be 'power', not {w!r}")
            return lambda g, item: item.data.sacrificed_power
        if k == "removed":
            # "For each creature card removed this way" (Midnight Ritual): counted by the
            # ``remove_from_game`` effects of the same resolution.
            if w != "this_way":
                raise site.error(f"'removed' must be 'this_way', not {w!r}")
            return lambda g, item: item.data.removed_this_way
        raise site.error(f"unknown amount {k!r}" + suggest_names(
            k, ("count", "graveyard", "hand_size", "event", "sacrificed", "removed")))
    raise site.error(f"bad amount {v!r}: an integer, 'X', '-X', {{count: filter}}, "
                     "{graveyard: you|any}, {hand_size: player}, {event: ...} or "
                     "{sacrificed: power} expected")


def _event_toughness(g: Game, item: StackItem) -> int:
    """The event permanent's toughness: now, or as it last existed in play (2012 608.2g)."""
    ev = item.data.event
    p = g.perms.get(ev.get("perm", -1))
    if p is not None:
        fresh(g)
        return p.toughness
    lki = ev.get("lki")
    return lki["toughness"] if lki else 0


def _event_blockers(g: Game, item: StackItem) -> int:
    """How many creatures block the event permanent now ("for each creature blocking it")."""
    p = g.perms.get(item.data.event.get("perm", -1))
    return len(p.blockers) if p is not None else 0


_EVENT_AMOUNTS: dict[str, Amount] = {
    "amount": lambda g, item: item.data.event.get("amount", 0),
    "toughness": _event_toughness,
    "blockers": _event_blockers,
}
