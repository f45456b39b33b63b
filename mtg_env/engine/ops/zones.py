"""Ops moving objects between zones: bounce, destroy, put on a library, return from a graveyard,
draw, search, look at the top cards, discard, sacrifice, and a choice made on resolution. The
zone changes themselves are :mod:`mtg_env.engine.zones`'s procedures.

2012 701.15 (search), 2007 CR 101.1/2012 701.7 (discard), 2012 701.13 (sacrifice); a search for
a card with a stated quality may fail to find one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import damage, zones
from ..choices import choose_frame
from ..errors import MtgError
from ..frames import ShuffleFrame
from ..layers import fresh
from ..references import record_lki
from ..seating import apnap_sorted, in_game, opponent
from ..triggers import report_event
from . import Args, Param, amount, flag, op, players, ref, run_effects

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem

# Where chosen cards go (the frame continuations of mtg_env.engine.choices) and their verbs.
_VERB = {"hand": "put into hand", "library_top": "put on top", "library_bottom": "put on the bottom",
         "play_tapped": "put into play", "play": "put into play"}
_CARD_DEST = tuple(_VERB)


@op("bounce", target=ref(required=True))
def bounce(g: Game, item: StackItem, a: Args) -> None:
    """Return the referenced permanents to their owners' hands, all at the same time
    (Evacuation)."""
    zones.leave_play_together(g, [g.perms[v] for kind, v in a.target(g, item)
                            if kind == "o" and v in g.perms], "hand")


@op("remove_from_game", target=ref(required=True))
def remove_from_game(g: Game, item: StackItem, a: Args) -> None:
    """Remove each referenced permanent, or card in a graveyard, from the game: it goes to the
    removed-from-the-game zone (2007 CR 217; "exile" in later rules, 2012 406). How many were
    moved is kept for ``{removed: this_way}`` (Midnight Ritual)."""
    refs = list(a.target(g, item))
    perms = list(dict.fromkeys(g.perms[v] for kind, v in refs if kind == "o" and v in g.perms))
    zones.leave_play_together(g, perms, "removed")
    n = len(perms)
    for kind, v in refs:
        if kind == "c" and zones.move_card(g, card := g.cards[v], "graveyard", "removed"):
            g.write_log(f"{card.label} is removed from the game")
            n += 1
    item.data.removed_this_way += n


@op("destroy", target=ref(required=True), no_regen=flag("it can't be regenerated"))
def destroy(g: Game, item: StackItem, a: Args) -> None:
    """Destroy the referenced permanents, all at the same time (Wrath of God)."""
    perms = [g.perms[v] for kind, v in a.target(g, item) if kind == "o" and v in g.perms]
    for p in perms:
        record_lki(item, p)  # "that land's controller" (Cryoclasm)
    damage.destroy_all(g, perms, no_regen=a.no_regen)


@op("put_on_library", target=ref(required=True),
    position=Param("enum", default="top", choices=("top", "bottom")),
    controller_gains_toughness=flag("its controller gains life equal to its toughness"))
def put_on_library(g: Game, item: StackItem, a: Args) -> None:
    """Put a permanent on top/bottom of its owner's library; optionally its controller gains
    life equal to its toughness, last known information (Condemn)."""
    fresh(g)
    for kind, v in a.target(g, item):
        p = g.perms.get(v) if kind == "o" else None
        if p is None:
            continue
        toughness, ctrl = p.toughness, p.controller
        zones.leave_play(g, p, "library_" + a.position)
        if a.controller_gains_toughness:
            damage.gain_life(g, ctrl, max(toughness, 0))
            g.write_log(f"player {ctrl} gains {max(toughness, 0)} life (life {g.players[ctrl].life})")


@op("return_card", target=ref(required=True))
def return_card(g: Game, item: StackItem, a: Args) -> None:
    """Return a card from a graveyard to its owner's hand (Gravedigger)."""
    for kind, v in a.target(g, item):
        if kind != "c":
            continue
        card = g.cards[v]
        if zones.move_card(g, card, "graveyard", "hand"):
            g.write_log(f"{card.label} is returned to player {card.owner}'s hand")


@op("draw", amount=amount(default=1), who=players(default="controller"))
def draw(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player draws N cards."""
    n = a.amount(g, item)
    for kind, v in a.who(g, item):
        if kind == "p":
            zones.draw_cards(g, v, n)


@op("search_library", filter=Param("filter", default={}, context="card", allow=("x",)),
    to=Param("enum", default="hand", choices=_CARD_DEST), reveal=flag("reveal the card found"),
    amount=Param("int", default=1))
def search_library(g: Game, item: StackItem, a: Args) -> None:
    """Search your library for a card [with a quality], put it somewhere, then shuffle."""
    pl = item.controller
    P = g.players[pl]
    flt = a.filter
    test = flt.bind(x=item.x)  # "converted mana cost X or less" (Citanul Flute)
    cands = [("c", c.cid) for c in P.library if test(c, pl)]
    g.frames.append(ShuffleFrame(pl))
    if cands:
        n = a.amount
        g.frames.append(choose_frame(g, pl, cands, 0 if flt.spec else min(n, len(cands)), n,
                                        "find", f"{item.label}: search your library",
                                        then={"op": a.to, "reveal": a.reveal,
                                              "learn": 3 if a.reveal else 0}, sid=item.id))


@op("look_at_top", amount=amount(default=1),
    choices=Param("choices", default=(), sub={
        "to": Param("enum", required=True, choices=_CARD_DEST),
        "min": Param("int", default=1), "max": Param("int", default=1),
        "filter": Param("filter", default={}, context="card"),
        "reveal": flag("reveal the chosen cards"), "prompt": Param("text")}),
    rest=Param("enum", default="library_bottom", choices=("library_top", "library_bottom")))
def look_at_top(g: Game, item: StackItem, a: Args) -> None:
    """Look at the top N cards; move some by the listed choices, the rest top/bottom in any
    order (Commune with Nature, Telling Time, Sage Owl)."""
    pl = item.controller
    P = g.players[pl]
    top = [("c", c.cid) for c in P.library[: a.amount(g, item)]]
    if not top:
        return
    group = item.id
    rest = a.rest
    frames = [choose_frame(g, pl, top, len(top), len(top), _VERB[rest],
                              f"{item.label}: order the rest ({_VERB[rest]})",
                              then={"op": rest, "learn": 1 << pl}, sid=item.id)]
    for ch in a.choices:
        cands = [c for c in top if ch.filter.test(g.cards[c[1]], pl)]
        frames.append(choose_frame(g, pl, cands, ch.min, ch.max, _VERB[ch.to],
                                      f"{item.label}: {ch.prompt or _VERB[ch.to]}",
                                      then={"op": ch.to, "reveal": ch.reveal,
                                            "learn": 3 if ch.reveal else 1 << pl}, sid=item.id))
    for f in frames:
        f.group = group
    # Frames run last-in first-out: the rest goes below the choices, the first choice on top.
    g.frames.append(frames[0])
    g.frames.extend(reversed(frames[1:]))


@op("discard", target=players(default="controller"), amount=amount(default=1),
    random=flag("at random"),
    chooser=Param("enum", default="player", choices=("player", "controller"),
                  doc="who chooses the cards: the discarding player or the ability's controller"),
    filter=Param("filter", default={}, context="card",
                 doc="only cards matching it can be chosen (Distress: a nonland card)"))
def discard(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player discards N cards."""
    n = a.amount(g, item)
    for kind, pl in a.target(g, item):
        if kind != "p":
            continue
        P = g.players[pl]
        if not P.hand:
            continue
        if a.random and a.filter.spec:
            raise MtgError("engine error: a random discard with a filter is not supported")
        if a.random:
            for _ in range(min(n, len(P.hand))):
                card = P.hand[g.rng.below(len(P.hand))]
                zones.take_card(g, card, "hand")
                g.write_log(f"player {pl} discards {card.label} at random")
                zones.to_zone(g, card, "graveyard")
                report_event(g, "discard", player=pl, card=card.cid, cause=item.controller)
            continue
        chooser = item.controller if a.chooser == "controller" else pl
        test = a.filter.test
        cands = [("h", c.cid) for c in P.hand if test(c, chooser)]
        k = min(n, len(cands))
        # ``cause``: the controller of the effect making the player discard (Guerrilla
        # Tactics); a discard paid as a cost has none.
        g.frames.append(choose_frame(g, chooser, cands, k, k, "discard",
                                        f"{item.label}: player {pl} discards {k}",
                                        then={"op": "discard", "cause": item.controller},
                                        sid=item.id))


@op("sacrifice", target=players(default="controller"),
    filter=Param("filter", default={}, other=True), amount=Param("int", default=1),
    if_none=Param("effects", default=(),
                  doc="effects if the player has nothing to sacrifice (\"If you can't, ...\")"))
def sacrifice(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player sacrifices N permanents matching the filter (``other``: not the
    ability's source); ``if_none`` runs for a player with none to sacrifice."""
    fresh(g)
    test = a.filter.test
    skip = item.source if a.filter.other else None
    # Several players choose in APNAP order (2007 CR 101.4): the frame on top runs first.
    for pl in reversed(apnap_sorted(g, [v for kind, v in a.target(g, item) if kind == "p"])):
        cands = [("o", p.id) for p in g.perms.values()
                 if p.controller == pl and p.id != skip and test(p, pl)]
        n = min(a.amount, len(cands))
        if not n and a.if_none:
            run_effects(g, item, a.if_none)
        if n:
            g.frames.append(choose_frame(g, pl, cands, n, n, "sacrifice",
                                            f"{item.label}: player {pl} sacrifices", sid=item.id))


@op("sacrifice_self")
def sacrifice_self(g: Game, item: StackItem, a: Args) -> None:
    """Sacrifice the ability's source ("sacrifice Spark Elemental"), if it is still in play under
    the ability's controller's control (2012 701.13a: only a permanent you control)."""
    p = g.perms.get(item.source) if item.source is not None else None
    if p is not None and p.controller == item.controller:
        zones.leave_play(g, p, "graveyard", sacrifice=True)


@op("choose_permanent", filter=Param("filter", default={}), n=Param("int", default=1),
    verb=Param("text", default="choose"), then=Param("enum", required=True,
                                                     choices=("bounce", "destroy", "sacrifice")),
    prompt=Param("text", default="choose"),
    chooser=Param("enum", default="controller", choices=("controller", "opponent", "event_player"),
                  doc="who chooses: the controller, the opponent (two players), or the player of "
                      "the triggering event, for whom the filter's \"you\" then stands"))
def choose_permanent(g: Game, item: StackItem, a: Args) -> None:
    """A non-targeted choice made on resolution ("return a green creature you control"; Sunken
    Hope's "that player returns a creature he or she controls")."""
    if a.chooser == "event_player":
        chooser = you = item.data.event.get("player", item.controller)
    else:
        you = item.controller
        chooser = item.controller if a.chooser == "controller" else opponent(g, item.controller)
    if not in_game(g, chooser):
        return
    fresh(g)
    test = a.filter.test
    cands = [("o", p.id) for p in g.perms.values() if test(p, you)]
    n = a.n
    if not cands:
        return
    g.frames.append(choose_frame(g, chooser, cands, min(n, len(cands)), n, a.verb,
                                    f"{item.label}: {a.prompt}", then={"op": a.then}, sid=item.id))


@op("return_died_this_turn", filter=Param("filter", default={}, context="card"))
def return_died_this_turn(g: Game, item: StackItem, a: Args) -> None:
    """"Return to your hand all [matching] cards that were put into your graveyard from play
    this turn" (No Rest for the Wicked): the cards of the controller's graveyard put there from
    play this turn (the turn history ``died_this_turn``), whoever controlled them in play."""
    P = g.players[item.controller]
    died = g.died_this_turn
    test = a.filter.test
    back = [c for c in P.graveyard if c.cid in died and test(c, item.controller)]
    for card in back:
        zones.move_card(g, card, "graveyard", "hand")
        g.write_log(f"{card.label} is returned to player {card.owner}'s hand")
    if back:
        g.died_this_turn = [c for c in died if all(c != x.cid for x in back)]
