"""Losing in a multiplayer game: the player leaves, and the game goes on (2012 800.4).

In a two-player game a player who loses ends the game (2007 CR 102.3); so does a player of a
Two-Headed Giant team, whose team loses with them (2012 810.8a). A multiplayer game (more
than two players at the start, 2012 800.1) continues after one or more players have left
(800.4): it ends when one player remains, who wins, or when the last players lose at the same
time, a draw (2012 104.4a). As a player leaves (800.4a, not a state-based effect, it happens at
once):

1. every object they own leaves the game: their cards in every zone, their permanents and their
   spells on the stack (a card that left the game is no longer one of the game's cards);
2. every effect that gives them control of an object ends (control returns, layer 2);
3. their abilities on the stack cease to exist, and so do their triggered abilities waiting to
   be put on it and their delayed triggered abilities (800.4d);
4. what they still control (permanents and spells owned by players still in the game) is removed
   from the game (the 2007 name of the exile zone);
5. if they had priority, the next player in turn order still in the game receives it (800.4a);
   if it was their turn, the turn goes on without an active player (800.4h;
   :mod:`mtg_env.engine.turn_structure` skips their turn-based actions).

Their permanents leave the game, not play for another zone: no leaves-play ability triggers for
them. Auras of other players that were attached to them go to the graveyard as a state-based
effect (2007 CR 420.5d), Equipment stays unattached (420.5k).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .combat import remove_from_combat
from .continuous_effects import ControlChange
from .layers import fresh, mark_dirty
from .seating import in_game, next_in_turn_order, players_in_game, team_of, teams
from .stack import spell_off_stack
from .zones import leave_play_together

if TYPE_CHECKING:
    from .game import Game


def players_lose(g: Game, losers: list[int], reason: str) -> None:
    """``losers`` lose the game at the same time (``reason`` for the log): the game ends when at
    most one player would remain (the one left wins; none left, a draw), else each loser leaves
    the game and the others play on (2012 800.4)."""
    if len(g.players) == 2:
        g.end_game(losers, reason)
        return
    if g.variant == "two_headed_giant":
        # 2012 810.8a: a player who loses takes their team with them, which ends the game.
        g.end_game([q for pl in losers for q in teams(g)[team_of(g, pl)]], reason)
        return
    if g.variant == "emperor":
        # 2012 809.5b: a team whose emperor loses loses the game.
        losers = [q for pl in losers for q in (teams(g)[team_of(g, pl)] if pl % 3 == 1 else (pl,))]
    losers = [pl for pl in dict.fromkeys(losers) if in_game(g, pl)]
    if not losers:
        return
    if g.variant == "emperor" and len({team_of(g, pl) for pl in players_in_game(g)
                                       if pl not in losers}) <= 1:
        g.end_game(losers, reason)  # one team remains: it wins
        return
    if sum(1 for pl in players_in_game(g) if pl not in losers) <= 1:
        g.end_game(losers, reason)  # the game is over: nobody leaves it
        return
    for pl in losers:
        g.players[pl].lost = True
    for pl in losers:
        g.write_log(f"player {pl} loses ({reason}) and leaves the game")
        leave_game(g, pl)


def leave_game(g: Game, pl: int) -> None:
    """Player ``pl`` (already marked as lost) leaves the game (2012 800.4a): see the module's
    docstring for what happens, in that order."""
    # 1. What they own leaves the game.
    P = g.players[pl]
    gone_cards = {c.cid for zone in (P.hand, P.library, P.graveyard, P.removed) for c in zone}
    P.hand, P.library, P.graveyard, P.removed = [], [], [], []
    owned = [p for p in g.perms.values() if p.owner == pl]
    for perm in owned:
        if perm.attacking or perm.blocking:
            remove_from_combat(g, perm)
        del g.perms[perm.id]
        if not perm.card.is_token:
            gone_cards.add(perm.card.cid)
    gone_perms = {p.id for p in owned}
    for other in g.perms.values():
        if other.attached_to in gone_perms and "Equipment" in other.subtypes:
            other.attached_to = None
    kept_stack = []
    for item in g.stack:
        if item.card is not None and item.card.owner == pl:
            gone_cards.add(item.card.cid)
            continue
        if item.kind != "spell" and item.controller == pl:
            continue  # 3. their abilities on the stack cease to exist
        kept_stack.append(item)
    g.stack = kept_stack
    # 2. Effects giving them control end; effects on objects that left end with them.
    g.effects = [e for e in g.effects if e.pid not in gone_perms
                 and not (isinstance(e, ControlChange) and e.controller == pl)]
    # 3. Their waiting and delayed triggered abilities are gone (800.4d).
    g.pending = [t for t in g.pending if t.controller != pl]
    if g.delayed:
        g.delayed = tuple(d for d in g.delayed if d.controller != pl)
    for cid in gone_cards:
        g.cards.pop(cid, None)
    if g.known:
        g.known = {cid: v for cid, v in g.known.items() if cid not in gone_cards}
    if g.died_this_turn:
        g.died_this_turn = [cid for cid in g.died_this_turn if cid not in gone_cards]
    mark_dirty(g, "a player left the game")
    fresh(g)
    # 4. What they still control is removed from the game.
    still = [p for p in g.perms.values() if p.controller == pl]
    if still:
        leave_play_together(g, still, "removed")
    for item in [s for s in g.stack if s.controller == pl]:
        g.stack.remove(item)
        spell_off_stack(g, item, "removed")
    # 5. Priority moves on.
    if g.prio == pl:
        g.prio = next_in_turn_order(g, pl)
