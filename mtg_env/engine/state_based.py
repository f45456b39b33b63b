"""State-based effects, checked and performed all at once (2007 CR 420).

420.5a (0 or less life), 420.5b (toughness 0 or less: graveyard, no regeneration), 420.5c (lethal
damage: destroyed), 420.5d (illegal or unattached Aura), 420.5e (legend rule: all of them), 420.5g
(drew from an empty library; Platinum Angel: a player who can't lose doesn't), 420.5k (Equipment
attached illegally, or itself a creature (2012 301.5c), becomes unattached), 420.3 (checked
whenever a player would receive priority; repeated until none apply). A goldfish seat (deck
testing, ``Game.new(goldfish=...)``) is exempt from 420.5a and 420.5g. 102.2-102.3: a player loses
or wins the game because an effect says so (Phage the Untouchable, Mortal Combat):
:func:`lose_game`.

Functions of the game state (the pattern every rules module is moving to): the run loop calls
:func:`check_state_based` whenever a player would receive priority.
"""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING

from .damage import destroy_all
from .layers import fresh, mark_dirty
from .leaving_the_game import players_lose
from .model import (
    Permanent,
)
from .rules import protected_from
from .seating import in_range, opponents, team_of, teams

if TYPE_CHECKING:
    from .game import Game


def check_state_based(g: Game) -> bool:
    """Check and perform state-based effects until none apply (2007 CR 420.3); True if any
    did."""
    acted = False
    while _check_once(g):
        acted = True
        if g.is_over:
            break
    return acted


def _check_once(g: Game) -> bool:
    fresh(g)
    for P in g.players:  # the common case, no loser, without building a list
        if (P.life <= 0 or P.drew_from_empty or P.poison >= 10) and not P.lost:
            break
    else:
        return _check_permanents(g)
    losers = [P.index for P in g.players
              if (P.life <= 0 or P.drew_from_empty or P.poison >= 10) and not P.lost]
    if losers and g.goldfish is not None and g.goldfish in losers:
        losers = _goldfish_survives(g, losers)
    if losers and g.rule_mods.get("cant_lose"):
        losers = _can_lose(g, losers)
    if losers:
        reasons = []
        for i in losers:
            P = g.players[i]
            reasons.append("life" if P.life <= 0 else "empty library" if P.drew_from_empty
                           else "poison")
        players_lose(g, losers, ", ".join(sorted(set(reasons))))
        return True
    return _check_permanents(g)


def _check_permanents(g: Game) -> bool:
    """The state-based effects on permanents (2007 CR 420.5b-e, 420.5k), all at once."""
    to_grave: list[Permanent] = []
    to_destroy: list[Permanent] = []
    unattach: list[Permanent] = []
    legends: dict[str, list[Permanent]] | None = None
    for p in g.perms.values():
        if "Creature" in p.types:
            # 2007 CR 420.3: every state-based effect is checked at once, so a 0-toughness
            # legend still counts for the legend rule below.
            if p.toughness <= 0:
                to_grave.append(p)  # 420.5b: no regeneration
            elif p.damage >= p.toughness:
                to_destroy.append(p)  # 420.5c
        if p.attached_to is not None or "Aura" in p.subtypes:
            host = g.perms.get(p.attached_to) if p.attached_to is not None else None
            # 2012 801.8-9: nor can it stay on a permanent out of its controller's range.
            far = (host is not None and bool(g.influence)
                   and host.controller not in g.influence[p.controller])
            if "Aura" in p.subtypes:
                if host is None or far or not aura_legal(g, p, host):
                    to_grave.append(p)  # 420.5d
            elif "Equipment" in p.subtypes and (host is None or not host.is_creature
                                                or "Creature" in p.types or far
                                                or protected_from(host, p.colors)):
                # 420.5k; an Equipment that's also a creature can't equip (2012 301.5c)
                unattach.append(p)
        if "Legendary" in p.supertypes:
            if legends is None:
                legends = {}
            legends.setdefault(p.name, []).append(p)
    if legends is not None:
        for group in legends.values():
            if len(group) > 1:
                if g.influence:
                    # 2012 801.12: only those with another of the name in their controller's
                    # range of influence.
                    reach = g.influence
                    to_grave.extend(p for p in group if any(
                        q is not p and q.controller in reach[p.controller] for q in group))
                else:
                    to_grave.extend(group)  # 420.5e: all of them, regardless of controller
    if not (to_grave or to_destroy or unattach):
        return False
    for p in unattach:
        p.attached_to = None
        mark_dirty(g, "attachment")
    if to_grave or to_destroy:
        # 420.3: performed at the same time, so they leave play together.
        seen = {p.id for p in to_grave}
        destroy_all(g, [p for p in to_destroy if p.id not in seen], also=to_grave)
    return True


def lose_game(g: Game, pl: int, reason: str) -> None:
    """An effect says player ``pl`` loses the game (2007 CR 102.3). Platinum Angel ("You
    can't lose the game") stops it."""
    fresh(g)
    if pl in g.rule_mods.get("cant_lose", ()):
        g.write_log(f"player {pl} can't lose the game ({reason})")
        return
    players_lose(g, [pl], reason)


def win_game(g: Game, pl: int, reason: str) -> None:
    """An effect says player ``pl`` wins the game (2007 CR 102.2): every opponent of theirs
    loses instead (the other player in a two-player game; 2012 800.7 in a multiplayer game).
    Platinum Angel ("your opponents can't win the game") stops it."""
    fresh(g)
    # 2012 104.3h: under the limited range of influence option, the opponents within range.
    others = tuple(o for o in opponents(g, pl) if in_range(g, pl, o))
    cant = g.rule_mods.get("cant_lose", ())
    if any(o in cant for o in others):
        g.write_log(f"player {pl} can't win the game ({reason})")
        return
    players_lose(g, list(others), reason)


def _goldfish_survives(g: Game, losers: list[int]) -> list[int]:
    """The goldfish seat (:meth:`Game.new`'s ``goldfish``, deck testing) doesn't lose for 0
    or less life (2007 CR 420.5a) or for a draw from an empty library (420.5g): those two
    state-based effects are suspended for it, and the turn its life was first seen at 0 or
    less is recorded. Poison still counts."""
    pl = g.goldfish
    assert pl is not None
    P = g.players[pl]
    P.drew_from_empty = False  # a one-time event (420.5g), as for Platinum Angel
    if P.life <= 0 and g.goldfish_dead_turn is None:
        g.goldfish_dead_turn = g.turn
        g.write_log(f"player {pl}'s life reached {P.life} on turn {g.turn} (goldfish: the game "
                  "goes on)")
    if P.poison >= 10:
        return losers
    return [i for i in losers if i != pl]


def _can_lose(g: Game, losers: list[int]) -> list[int]:
    """Platinum Angel: "You can't lose the game and your opponents can't win the game."
    A player controlling such a permanent doesn't lose; in a two-player game an opponent
    wins only by the other player losing, so that is the whole effect. A draw from an empty
    library is a one-time event (2007 CR 420.5g "since the last time state-based effects
    were checked"): it no longer counts once checked; 0 life is checked again each time.
    In Two-Headed Giant it keeps the controller's whole team in the game (2012 810.8a)."""
    safe: Container[int | str] = g.rule_mods["cant_lose"]
    if g.variant == "two_headed_giant":  # 2012 810.8a: neither teammate can lose
        safe = {q for pl in g.rule_mods["cant_lose"] if isinstance(pl, int)
                for q in teams(g)[team_of(g, pl)]}
    out = []
    for i in losers:
        if i in safe:
            g.players[i].drew_from_empty = False
        else:
            out.append(i)
    return out


def aura_legal(g: Game, aura: Permanent, host: Permanent) -> bool:
    spec = aura.cdef.enchant
    if spec is None:
        return True
    if spec.perm is None or protected_from(host, aura.colors):
        return False
    return spec.perm.bind(src=aura.id)(host, aura.controller)
