"""Ops on libraries, hands and graveyards, reveals and tokens: mill, shuffle a graveyard into a
library, put a card from a hand or a graveyard into play, move chosen hand cards onto a library,
reveal or look at hidden cards, put tokens into play.

2007 CR 217.1 (hidden zones), 2012 701.14 (reveal), 2007 CR 212.4 / 2012 303.4f (an Aura put into
play without being played: whoever puts it chooses what it enchants, without targeting; it can't
be put into play attached to something it couldn't enchant, 2012 303.4g: then it stays where it
is), 2007 CR 216 (tokens: 216.2 a token is owned by the player under whose control it came into
play; it ceases to exist when it leaves play), 2012 701.19 (shuffle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..choices import choose_frame
from ..knowledge import BOTH, learn, shuffle_library
from ..layers import fresh, mark_dirty
from ..registry import get_card, token_def
from ..rules import aura_can_enchant
from ..seating import apnap_sorted
from ..zones import put_into_play, take_card, take_top, to_zone
from . import Args, Param, amount, flag, op, players, ref

if TYPE_CHECKING:
    from ..game import Game
    from ..model import StackItem

# The tokens Tenth Edition cards put into play (their CardDefs are registered as "<Name> Token").
TOKEN_NAMES = ("Dragon", "Goblin", "Saproling", "Soldier", "Wasp", "Zombie")


@op("mill", target=players(default="controller"), amount=amount(default=1),
    per_player=Param("enum", choices=("half_library", "hand_size"),
                     doc="instead of amount: half that player's library rounded down, or the "
                         "number of cards in that player's hand"))
def mill(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player puts the top N cards of their library into their graveyard."""
    for kind, pl in a.target(g, item):
        if kind != "p":
            continue
        P = g.players[pl]
        if a.per_player == "half_library":
            n = len(P.library) // 2
        elif a.per_player == "hand_size":
            n = len(P.hand)
        else:
            n = a.amount(g, item)
        cards = take_top(g, pl, n)
        if not cards:
            continue
        for card in cards:
            to_zone(g, card, "graveyard")
        g.write_log(f"player {pl} puts the top {len(cards)} card(s) of their library into their "
               f"graveyard: {', '.join(c.label for c in cards)}")


@op("shuffle_graveyard_into_library", target=players(default="controller"))
def shuffle_graveyard_into_library(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player shuffles their graveyard into their library."""
    for kind, pl in a.target(g, item):
        if kind != "p":
            continue
        P = g.players[pl]
        P.library.extend(P.graveyard)
        P.graveyard = []
        mark_dirty(g, "graveyard count")  # 2007 CR 418.5 layer 6a (Mortivore)
        shuffle_library(g, pl)
        g.write_log(f"player {pl} shuffles their graveyard into their library")


@op("put_from_hand", who=players(default="controller"),
    filter=Param("filter", default={}, context="card"),
    optional=flag("\"may\": the player may put none"),
    attach_to_self=flag("an Aura card, put into play attached to the source"))
def put_from_hand(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player puts a card [with a quality] from their hand into play under their
    control (Elvish Piper, Hunted Wumpus; an Aura attached to the source: Academy Researchers)."""
    host = g.perms.get(item.source) if a.attach_to_self and item.source is not None else None
    if a.attach_to_self and host is None:
        return  # 2012 303.4g: nothing to attach it to; it stays in the hand
    test = a.filter.test
    # Several players choose in APNAP order (2007 CR 101.4): the frame on top runs first.
    for pl in reversed(apnap_sorted(g, [v for kind, v in a.who(g, item) if kind == "p"])):
        cands = [("h", c.cid) for c in g.players[pl].hand if test(c, pl)
                 and c.cdef.is_permanent_card
                 and (host is None or aura_can_enchant(c.cdef, host, pl))]
        if not cands:
            continue
        then = {"op": "play"} if host is None else {"op": "play", "host": host.id}
        g.frames.append(choose_frame(g, pl, cands, 0 if a.optional else 1, 1, "put into play",
                                        f"{item.label}: put a card from your hand into play",
                                        then=then, sid=item.id))


@op("reanimate", target=ref(required=True),
    attach_to=Param("filter", doc="an Aura card: put into play attached to a permanent matching "
                                  "this, chosen on resolution"))
def reanimate(g: Game, item: StackItem, a: Args) -> None:
    """Put each referenced card from a graveyard into play under the ability's controller's
    control (Doomed Necromancer, Beacon of Unrest); an Aura attached to a permanent its
    controller chooses (Nomad Mythmaker)."""
    pl = item.controller
    for kind, v in a.target(g, item):
        if kind != "c":
            continue
        card = g.cards[v]
        if card not in g.players[card.owner].graveyard:
            continue
        if a.attach_to is None:
            take_card(g, card, "graveyard")
            g.write_log(f"{card.label} is put into play from a graveyard")
            put_into_play(g, card, pl)
            continue
        fresh(g)
        test = a.attach_to.test
        hosts = [("o", p.id) for p in g.perms.values()
                 if test(p, pl) and aura_can_enchant(card.cdef, p, pl)]
        if not hosts:
            g.write_log(f"{card.label} has nothing it could enchant and stays in the graveyard")
            continue
        g.frames.append(choose_frame(g, pl, hosts, 1, 1, "attach to",
                                        f"{item.label}: attach {card.label} to",
                                        then={"op": "attach_card", "card": card.cid}, sid=item.id))


@op("hand_to_library", target=players(required=True), amount=amount(default=1),
    position=Param("enum", default="top", choices=("top", "bottom")))
def hand_to_library(g: Game, item: StackItem, a: Args) -> None:
    """The ability's controller looks at each referenced player's hand and chooses N cards from
    it, which go on top of (or under) that player's library in the order chosen, the first on
    top (Agonizing Memories)."""
    n = a.amount(g, item)
    ctrl = item.controller
    for kind, pl in a.target(g, item):
        if kind != "p":
            continue
        hand = g.players[pl].hand
        learn(g, hand, 1 << ctrl)
        k = min(n, len(hand))
        if k:
            g.frames.append(choose_frame(g,
                ctrl, [("h", c.cid) for c in hand], k, k, f"put on the {a.position}",
                f"{item.label}: choose {k} card(s) of player {pl}'s hand (the first goes on top)",
                then={"op": "library_" + a.position}, sid=item.id))


@op("look_at_hand", target=players(required=True))
def look_at_hand(g: Game, item: StackItem, a: Args) -> None:
    """The ability's controller looks at each referenced player's hand (Peek): they know those
    cards while they stay there."""
    ctrl = item.controller
    for kind, pl in a.target(g, item):
        if kind == "p" and pl != ctrl:
            learn(g, g.players[pl].hand, 1 << ctrl)
            g.write_log(f"player {ctrl} looks at player {pl}'s hand")


@op("reveal_hand", target=players(required=True))
def reveal_hand(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player reveals their hand (Distress): both players know those cards
    while they stay there."""
    for kind, pl in a.target(g, item):
        if kind == "p":
            hand = g.players[pl].hand
            learn(g, hand, BOTH)
            g.write_log(f"player {pl} reveals their hand: "
                   + (", ".join(c.label for c in hand) or "no cards"))


@op("reveal_top", target=players(required=True), amount=amount(default=1))
def reveal_top(g: Game, item: StackItem, a: Args) -> None:
    """Each referenced player reveals the top N cards of their library (Aven Windreader): both
    players know them until they move or the library is shuffled."""
    n = a.amount(g, item)
    for kind, pl in a.target(g, item):
        if kind != "p":
            continue
        top = g.players[pl].library[:n]
        if top:
            learn(g, top, BOTH)
            g.write_log(f"player {pl} reveals the top of their library: "
                   + ", ".join(c.label for c in top))


@op("create_token", token=Param("enum", required=True, choices=TOKEN_NAMES),
    amount=amount(default=1), who=players(default="controller"),
    colors=Param("words", choices=tuple("WUBRG"),
                 doc="the token's colors when the ability's text was changed (Mind Bend: "
                     "written by mtg_env/cards/text_change.py; default the token's own)"))
def create_token(g: Game, item: StackItem, a: Args) -> None:
    """Put N tokens of the named kind into play under each referenced player's control (2007 CR
    216.2: that player owns them). The token's color is a word of the ability that creates it
    ("put a 1/1 white Soldier creature token"), so a text change of that ability (Mind Bend:
    "white" -> "black", 2012 612.2) changes the token's color (2012 111.4: the effect that
    creates a token defines its characteristics)."""
    cdef = get_card(a.token + " Token")
    if a.colors is not None:
        cdef = token_def(cdef.name, frozenset(a.colors))
    n = a.amount(g, item)
    for kind, pl in a.who(g, item):
        if kind != "p":
            continue
        for _ in range(n):
            card = g.new_card(cdef, pl)
            g.write_log(f"player {pl} puts a {a.token} token into play ({card.label})")
            put_into_play(g, card, pl)
