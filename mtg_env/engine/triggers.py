"""Triggered abilities: watching events, waiting to be put on the stack, APNAP order.

2007 CR 410 (triggered abilities; 410.5 put on the stack the next time a player would receive
priority, active player's first, each player in the order they choose), 410.10 (leaves-play
abilities look back in time), 410.11 (an intervening "if" clause: "When/Whenever/At [event], if
[condition], [effect]" triggers only if the condition is true when the event happens, and is
checked again as the ability resolves: :func:`trigger_condition`).

Abilities that work from a graveyard (2012 112.6: an ability of a card outside play works only
if it says so; Squee, Goblin Nabob; Guerrilla Tactics): the game keeps ``zone_watch``, the ids of
its cards with such an ability per event (fixed when the card is created), so an event looks
at those few cards only, never at every graveyard card. The ability's controller is the
card's owner (2012 603.3a).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .actions import Action, DecisionKind
from .frames import CastFrame, CastStep, PendingTrigger, PutFrame
from .ids import new_object_id
from .model import Card, Permanent, StackItem
from .seating import apnap_order
from .stack_data import StackData

if TYPE_CHECKING:
    from .abilities import TriggeredAbility
    from .game import Game

K = DecisionKind


EventWatcher = Callable[[str, dict[str, Any]], None]

EVENT_WATCHERS: dict[object, tuple[Game, EventWatcher]] = {}
"""Watchers of particular games' events, by a key of the watcher's choice: ``key -> (game,
on_event)``. ``on_event(name, event)`` is called for every event ``game`` reports (a card drawn,
a permanent leaving play, ...: :func:`report_event`), before the triggered abilities watching
it are collected; copies of the game are not watched. Remove the key to stop watching
(``mtg_env.testing.watch_events`` does both for a test)."""


def report_event(g: Game, name: str, **ev: Any) -> None:
    """An event happened in ``g``: tell its watchers, then collect the triggered abilities it
    sets off."""
    if EVENT_WATCHERS:
        for game, on_event in list(EVENT_WATCHERS.values()):
            if game is g:
                on_event(name, ev)
    collect_triggers(g, name, ev)


def push_triggers(g: Game) -> None:
    pending = g.pending
    g.pending = []
    # 2007 CR 410.5: the active player's first, then each other player's in turn order (APNAP).
    g.frames.append(PutFrame(apnap_order(g),
                             [[t for t in pending if t.controller == pl]
                              for pl in range(len(g.players))]))


def run_put(g: Game, f: PutFrame) -> None:
    for pl in f.order:
        q = f.queues[pl]
        if not q:
            continue
        texts = {_trigger_text(t) for t in q}
        if len(texts) > 1:
            opts = []
            seen = set()
            for i, t in enumerate(q):
                txt = _trigger_text(t)
                if txt in seen:
                    continue
                seen.add(txt)
                opts.append(Action("order", "put " + txt, (i,)))
            g.ask(pl, K.ORDER_TRIGGERS, opts,
                      f"player {pl}: choose the next trigger to put on the stack "
                      "(the first one resolves last)",
                      {"triggers": [{"source": t.source, "name": t.name, "text": t.text}
                                    for t in q]})
            return
        place_trigger(g, q.pop(0))
        return
    g.frames.pop()


def answer_put(g: Game, f: PutFrame, a: Action) -> None:
    t = f.queues[f.next_player(g.active)].pop(a.args[0])
    place_trigger(g, t)


def place_trigger(g: Game, t: PendingTrigger) -> None:
    effects = t.effects  # a delayed triggered ability carries its effects (2012 603.7)
    if t.special == "gain_life":
        effects = [{"op": "gain_life", "amount": t.amount, "who": "controller"}]
    # source_card: a card in a graveyard ("return Squee from your graveyard")
    data = StackData(card=t.card, event=t.event, effects=effects, source_colors=t.source_colors,
                     source_tapped=t.source_tapped, source_card=t.source_card)
    item = StackItem(new_object_id(g), "triggered", t.controller, source=t.source,
                     source_name=t.name, ability=t.ability_index, label=t.name,
                     data=data, ability_def=t.ability)
    g.stack.append(item)
    g.frames.append(CastFrame(t.controller, item.id, CastStep.TARGETS, trigger=True))


def _trigger_text(t: PendingTrigger) -> str:
    return f"{t.name}: {t.text}"


def collect_triggers(g: Game, name: str, ev: dict[str, Any]) -> None:
    if name == "damage":
        collect_damage_triggers(g, ev)
        return
    names = (name, "to_graveyard") if name == "leaves_play" and ev.get("zone") == "graveyard" else (name,)
    for p in g.perms.values():
        trig = p.triggered  # its abilities now (copied or granted ones included, 2007 CR 418.5)
        if not trig:
            continue
        for ab in trig:
            if ab.event not in names:
                continue
            if not _trigger_matches(g, p, ab, ab.event, ev):
                continue
            if ab.condition and not trigger_condition(g, ab.condition, p.controller, p.id, ev):
                continue  # 2007 CR 410.11: an intervening "if" false as the event happens
            clean = {k: v for k, v in ev.items() if k != "snapshot"}
            if name == "tapped_for_mana" and is_mana_trigger(ab):
                _resolve_mana_trigger(g, p, ab, clean)
                continue
            g.pending.append(PendingTrigger(p.controller, p.card.label, ab.text, p.id, ab.index,
                                            ab, p.cdef.name, clean, "".join(sorted(p.colors))))
    watch = g.zone_watch
    if watch:
        cids = watch.get(name)
        if cids:
            collect_zone_triggers(g, name, ev, cids)


class ZoneSource:
    """A card outside play as the source of its own triggered ability: what the compiled
    trigger filters read of a source (``id``: no permanent; ``controller``: its owner)."""

    __slots__ = ("attached_to", "card", "controller", "id")

    def __init__(self, card: Card) -> None:
        self.card = card
        self.controller = card.owner
        self.id = None
        self.attached_to = None


def watch_zone_triggers(watch: dict[str, tuple[int, ...]], card: Card
                        ) -> dict[str, tuple[int, ...]]:
    """``watch`` (event -> card ids) with ``card``'s graveyard abilities added: a new dict, the
    old one is shared by game copies."""
    out = dict(watch)
    for ab in card.cdef.zone_triggered:
        ids = out.get(ab.event, ())
        if card.cid not in ids:
            out[ab.event] = (*ids, card.cid)
    return out


def collect_zone_triggers(g: Game, name: str, ev: dict[str, Any], cids: tuple[int, ...]) -> None:
    """Trigger the abilities of the watched cards that are in their owner's graveyard now."""
    clean = None
    for cid in cids:
        card = g.cards[cid]
        if card not in g.players[card.owner].graveyard:
            continue
        src = ZoneSource(card)
        for ab in card.cdef.zone_triggered:
            if ab.event != name or not ab.match(g, src, ev):
                continue
            if g.influence and not event_in_range(g, card.owner, ev):
                continue  # 2012 801.7
            if ab.condition and not trigger_condition(g, ab.condition, card.owner, None, ev):
                continue
            if clean is None:
                clean = {k: v for k, v in ev.items() if k != "snapshot"}
            g.pending.append(PendingTrigger(card.owner, card.label, ab.text, None, ab.index, ab,
                                            card.cdef.name, clean,
                                            "".join(sorted(card.cdef.colors)), source_card=cid))


def is_mana_trigger(ab: TriggeredAbility) -> bool:
    """A triggered mana ability: it triggers from a mana ability (a land tapped for mana), has no
    target and adds mana (2007 glossary "Mana ability"; 2012 605.1b). It doesn't use the stack."""
    return (ab.event == "tapped_for_mana" and not ab.targets and bool(ab.effects)
            and all(e["op"] == "add_mana" for e in ab.effects))


def _resolve_mana_trigger(g: Game, p: Permanent, ab: TriggeredAbility, ev: dict[str, Any]
                          ) -> None:
    """Resolve a triggered mana ability at once, as the mana ability that triggered it does
    (2007 CR 411; 2012 605.4a)."""
    from .effects import OPS

    item = StackItem(0, "triggered", p.controller, source=p.id, source_name=p.card.label,
                     ability=ab.index, data=StackData(card=p.cdef.name, event=ev), ability_def=ab)
    for spec in ab.effects:
        OPS[spec["op"]](g, item, spec)


def _trigger_matches(g: Game, p: Permanent, ab: TriggeredAbility, event: str,
                     ev: dict[str, Any]) -> bool:
    if g.influence and not event_in_range(g, p.controller, ev):
        return False
    return ab.match(g, p, ev)  # the ability's filters compiled for its event at load


def event_in_range(g: Game, pl: int, ev: dict[str, Any]) -> bool:
    """Under the limited range of influence option a triggered ability triggers only if its
    event happened entirely within its controller ``pl``'s range (2012 801.7): the player it
    names and the controller of each permanent in it, as they were when it happened (a
    permanent that left play: its last known controller, 801.7a)."""
    reach = g.influence[pl]
    who = ev.get("player")
    if who is not None and who not in reach:
        return False
    for key in ("perm", "attacker", "blocker", "src"):
        pid = ev.get(key)
        if pid is None:
            continue
        q = g.perms.get(pid)
        if q is not None:
            ctrl = q.controller
        elif key == "perm" and "snapshot" in ev:
            ctrl = ev["snapshot"].controller
        elif key == "src" and ev.get("src_controller") is not None:
            ctrl = ev["src_controller"]
        else:
            continue
        if ctrl not in reach:
            return False
    target = ev.get("target")
    if target is not None and target[0] == "p" and target[1] not in reach:
        return False
    if target is not None and target[0] == "o":
        q = g.perms.get(target[1])
        if q is not None and q.controller not in reach:
            return False
    return True


def collect_damage_triggers(g: Game, ev: dict[str, Any]) -> None:
    for p in g.perms.values():
        trig = p.triggered
        if not trig:
            continue
        for ab in trig:
            if ab.event != "deals_damage":
                continue
            if g.influence and not event_in_range(g, p.controller, ev):
                continue  # 2012 801.7
            if not ab.match(g, p, ev):
                continue
            if ab.condition and not trigger_condition(g, ab.condition, p.controller, p.id, ev):
                continue
            g.pending.append(PendingTrigger(p.controller, p.card.label, ab.text, p.id, ab.index,
                                            ab, p.cdef.name, dict(ev), "".join(sorted(p.colors))))


def trigger_condition(g: Game, cond: dict[str, Any], ctrl: int, src: int | None,
                      ev: dict[str, Any], data: StackData | None = None) -> bool:
    """Is a triggered ability's intervening "if" condition (one key of
    :data:`~mtg_env.engine.ability_vocabulary.TRIGGER_CONDITIONS`) true? ``ctrl``: the ability's
    controller; ``src``: its source permanent; ``ev``: its event; ``data``: the stack object's
    data on resolution (its source's last known tapped state if it left play, 2012 608.2g)."""
    v: int  # each condition's value is a number or true
    ((k, v),) = cond.items()
    if k == "source_untapped":
        p = g.perms.get(src) if src is not None else None
        if p is not None:
            return not p.tapped
        return not (data is not None and data.source_tapped)
    if k == "event_player_hand_at_most":
        return len(g.players[ev.get("player", ctrl)].hand) <= v
    if k == "creature_cards_in_graveyard_at_least":
        return sum(1 for c in g.players[ctrl].graveyard if "Creature" in c.cdef.types) >= v
    if k == "not_cast_from_hand":
        return not ev.get("cast_from_hand", False)
    from .errors import MtgError
    raise MtgError(f"engine error: unknown trigger condition {cond!r}")
