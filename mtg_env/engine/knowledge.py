"""What each player knows of the hidden zones: cards revealed to them or that they looked at.

2007 CR 217.1 / 2012 400.2: hands and libraries are hidden zones; a card revealed (2012 701.14:
"reveal" shows it to all players) or looked at (only the player who looks sees it) stays known
while it stays where it was. ``Game.known`` maps a card id to ``(mask, zone)``: bit ``1 << p`` is
set when player ``p`` knows the card, ``zone`` is where it was when it became known (``"h"``: its
owner's hand, ``"l"``: its owner's library). An entry counts only while the card is still in that
zone, and it is dropped when the card leaves the zone through a draw or a card move, or when its
library is shuffled (the order is lost, 2012 701.19). Telepathy's "Your opponents play with their
hands revealed" is a static ability checked where the knowledge is read
(:func:`hand_revealed`). A card that goes to a hand from a public zone (a bounced
permanent, a returned graveyard card) is known to both players, and so are the cards of another
player's hand that a decision shows its chooser, while they stay in that hand.

The player view (:mod:`mtg_env.engine.view`), the observer (:mod:`mtg_env.encoding.observer`)
and :meth:`Game.determinize` read it through :func:`known_cards`.

Functions of the game, like every rules module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .seating import in_range, opponents, team_of

if TYPE_CHECKING:
    from .game import Game
    from .model import Card

BOTH = 2**6 - 1  # revealed: known to every player (a bit for each of up to six seats)


def learn(g: Game, cards: Iterable[Card], mask: int) -> None:
    """Players in ``mask`` now know each card (in its owner's hand or library)."""
    known = g.known
    for card in cards:
        P = g.players[card.owner]
        if card in P.hand:
            zone = "h"
        elif card in P.library:
            zone = "l"
        else:
            continue  # a public zone: everybody sees it anyway
        old = known.get(card.cid)
        if old is not None and old[1] == zone:
            mask |= old[0]
        known[card.cid] = (mask, zone)


def to_hand_in_public(g: Game, card: Card) -> None:
    """``card`` just went to its owner's hand from a public zone (play, the stack, a
    graveyard, the removed cards): both players saw which card it is, so it stays known
    while it stays in that hand."""
    g.known[card.cid] = (BOTH, "h")


def shown_from_hand(g: Game, chooser: int, cands: Iterable[Sequence[Any]]) -> None:
    """A decision of ``chooser`` shows them the candidates ``("h", card id)`` from another
    player's hand (Thrull Surgeon, Agonizing Memories): they know those cards while they
    stay there."""
    cards = g.cards
    shown = [cards[c[1]] for c in cands if c[0] == "h" and cards[c[1]].owner != chooser]
    if shown:
        learn(g, shown, 1 << chooser)


def forget(g: Game, cards: Iterable[Card]) -> None:
    """The cards moved: what was known of where they are no longer holds."""
    known = g.known
    for card in cards:
        known.pop(card.cid, None)


def shuffle_library(g: Game, pl: int) -> None:
    """Shuffle player ``pl``'s library: nobody knows its order any more."""
    P = g.players[pl]
    g.rng.shuffle(P.library)
    if g.known:
        forget(g, P.library)


def hand_revealed(g: Game, pl: int) -> bool:
    """Player ``pl`` plays with their hand revealed (an opponent's Telepathy)."""
    for p in g.perms.values():
        if (p.controller != pl and p.static and team_of(g, p.controller) != team_of(g, pl)
                and in_range(g, p.controller, pl)) and any(
                s.kind == "opponents_hands_revealed" for s in p.static):
            return True
    return False


def known_cards(g: Game, viewer: int) -> set[int]:
    """The ids of the cards in hidden zones that ``viewer`` knows, besides their own hand:
    cards of the opponent's hand and of either library (where they are now)."""
    out: set[int] = set()
    bit = 1 << viewer
    for cid, (mask, zone) in g.known.items():
        if not mask & bit:
            continue
        card = g.cards[cid]
        P = g.players[card.owner]
        if zone == "h":
            if card.owner != viewer and card in P.hand:
                out.add(cid)
        elif card in P.library:
            out.add(cid)
    for opp in opponents(g, viewer):
        if hand_revealed(g, opp):
            out.update(c.cid for c in g.players[opp].hand)
    return out
