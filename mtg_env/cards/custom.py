"""Python escape hatches for cards the effect vocabulary can't say cleanly.

Register a function with :func:`custom`; a card's YAML names it (``spell: {custom: name}`` or
``custom: name`` on an ability). The function gets ``(game, stack_item)`` at resolution.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mtg_env.engine.choices import choose_frame
from mtg_env.engine.frames import ShuffleFrame
from mtg_env.engine.frames_effects import EnterTogetherFrame
from mtg_env.engine.knowledge import BOTH, forget, learn, shuffle_library
from mtg_env.engine.layers import fresh, text_change_frame
from mtg_env.engine.registry import CUSTOM
from mtg_env.engine.seating import apnap_order, in_range
from mtg_env.engine.stack import item_def
from mtg_env.engine.targets import target_legal
from mtg_env.engine.zones import leave_play_together, put_together, take_top, to_zone

if TYPE_CHECKING:
    from mtg_env.engine.game import Game
    from mtg_env.engine.model import StackItem


def custom(name: str) -> Callable[[Callable], Callable]:
    """Register ``fn`` under ``name`` for card data to refer to."""

    def deco(fn: Callable) -> Callable:
        CUSTOM[name] = fn
        return fn

    return deco


@custom("head_games")
def head_games(g: Game, item: StackItem) -> None:
    """Head Games: "Target opponent puts the cards from his or her hand on top of his or her
    library. Search that player's library for that many cards. The player puts those cards into
    his or her hand, then shuffles his or her library." The searcher (the spell's controller)
    sees the library and knows which cards went to the hand (mtg_env.engine.knowledge). The
    cards go on top in the order they were in the hand: the library is searched and shuffled
    right after, so the order can't matter."""
    specs = item_def(g, item)[0]
    if not item.targets or not target_legal(g, item, 0, specs[0]):
        return
    pl = item.targets[0][1]
    P = g.players[pl]
    hand = P.hand
    n = len(hand)
    if g.known:
        forget(g, hand)
    P.library[:0] = hand
    P.hand = []
    g.write_log(f"player {pl} puts {n} card(s) from their hand on top of their library")
    g.frames.append(ShuffleFrame(pl))
    k = min(n, len(P.library))
    if k:
        g.frames.append(choose_frame(g,
            item.controller, [("c", c.cid) for c in P.library], k, k, "find",
            f"{item.label}: search player {pl}'s library for {k} card(s)",
            then={"op": "hand", "learn": 1 << item.controller}, sid=item.id))


@custom("scalpelexis")
def scalpelexis(g: Game, item: StackItem) -> None:
    """Scalpelexis: "Whenever Scalpelexis deals combat damage to a player, that player removes the
    top four cards of his or her library from the game. If two or more of those cards have the
    same name, repeat this process." (the damaged player is the trigger event's target)"""
    target = item.data.event.get("target")
    if not target or target[0] != "p":
        return
    pl = target[1]
    P = g.players[pl]
    while P.library:
        top = take_top(g, pl, 4)
        for card in top:
            to_zone(g, card, "removed")
        g.write_log(f"player {pl} removes the top {len(top)} card(s) of their library from the game: "
               + ", ".join(c.label for c in top))
        names = [c.cdef.name for c in top]
        if len(set(names)) == len(names):
            break


@custom("mind_bend")
def mind_bend(g: Game, item: StackItem) -> None:
    """Mind Bend: "Change the text of target permanent by replacing all instances of one color
    word with another or one basic land type with another. ... This effect doesn't end at end of
    turn." Its controller chooses on resolution (ruling: "You choose the words to change on
    resolution"): a color word or a basic land type, the word, then a different word (the
    ``text_change`` procedure, :mod:`mtg_env.engine.layers`; which fields change:
    :mod:`mtg_env.cards.text_change`). A permanent without such a word is a legal target (the
    change then does nothing)."""
    specs = item_def(g, item)[0]
    if not item.targets or not target_legal(g, item, 0, specs[0]):
        return
    pid = item.targets[0][1]
    g.frames.append(text_change_frame(item.controller, pid, item.id, item.label))


_FIRST_ROUND = frozenset({"Artifact", "Creature", "Land"})


@custom("warp_world")
def warp_world(g: Game, item: StackItem) -> None:
    """Warp World: "Each player shuffles all permanents he or she owns into his or her library,
    then reveals that many cards from the top of his or her library. Each player puts all
    artifact, creature, and land cards revealed this way into play, then puts all enchantment
    cards revealed this way into play, then puts all cards revealed this way that weren't put
    into play on the bottom of his or her library in any order."

    Every permanent leaves play at once (its leaves-play abilities see the whole board; a token
    counts, then ceases to exist); the artifact, creature and land cards of both players come
    into play at once, then the enchantment cards at once, each Aura on a permanent its owner
    chooses among those it could enchant (the active player's Auras first; one with none stays
    in the library), all under their owners' control (``enter_together`` procedure,
    :mod:`mtg_env.engine.zones`). The rest go to the bottom in the order they were revealed (the
    owner's "any order" is not asked: the cards were revealed, so both players know them and
    where they are). Triggered abilities wait until the spell has resolved (2007 CR 410.3)."""
    fresh(g)
    # 2012 801.10: under the limited range of influence option, the players within the
    # controller's range and the permanents they own and control.
    seats = [pl for pl in range(len(g.players)) if in_range(g, item.controller, pl)]
    perms = sorted((p for p in g.perms.values() if p.owner in seats and p.controller in seats),
                   key=lambda p: p.id)
    counts = {pl: sum(1 for p in perms if p.owner == pl) for pl in seats}
    if perms:
        leave_play_together(g, perms, "library_top", "is shuffled into its owner's library")
    revealed: dict[int, list] = {}
    for pl in seats:
        shuffle_library(g, pl)
        g.write_log(f"player {pl} shuffles {counts[pl]} permanent(s) into their library")
        top = g.players[pl].library[:counts[pl]]
        revealed[pl] = top
        if top:
            learn(g, top, BOTH)
            g.write_log(f"player {pl} reveals {', '.join(c.label for c in top)}")
    order = apnap_order(g)
    cards = [c for pl in order if pl in revealed for c in revealed[pl]]
    first = [c for c in cards if _FIRST_ROUND & c.cdef.types]
    ench = [c for c in cards if c not in first and "Enchantment" in c.cdef.types]
    g.frames.append(EnterTogetherFrame(
        item.id, item.label, auras=[c.cid for c in ench if "Aura" in c.cdef.subtypes],
        hosts=[], others=[c.cid for c in ench if "Aura" not in c.cdef.subtypes],
        bottom=[c.cid for pl in seats for c in revealed[pl]
                if c not in first and c not in ench]))
    if first:
        put_together(g, [(c, c.owner, None) for c in first])
