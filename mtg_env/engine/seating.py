"""Who is who around the table: turn order, the APNAP order, opponents and the defending player.

A rule that relates one player to another asks here, by the relation it names, instead of
computing "the other player" itself:

- turn order: the players in the order they sit, each turn passing to the next one (2012
  101.4, 102.1); priority passes to the next player in turn order (2007 CR 408; 2012 116.3d);
- APNAP order: the active player first, then each other player in turn order, for choices and
  actions made at the same time and for triggered abilities put on the stack together (2007
  CR 101.4, 410.5);
- an opponent: any other player (2007 glossary "Opponent"); "target opponent" and "each
  opponent" read the list, "your opponent" (a two-player game) the one of :func:`opponent`;
- the defending player: the opponent the active player attacks (2007 glossary "Defending
  player", 306.3).

The engine plays two-player games, where every relation above is the other player; the
functions count the seats, so turn order and APNAP order already hold for more players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .errors import MtgError


class Table(Protocol):
    """A game, or a player's view of one: its players by seat, and whose turn it is."""

    @property
    def players(self) -> Sequence[Any]: ...

    @property
    def active(self) -> int: ...


def next_in_turn_order(g: Table, pl: int) -> int:
    """The player seated after ``pl``: who takes the next turn, or receives priority when ``pl``
    passes (2007 CR 408)."""
    return (pl + 1) % len(g.players)


def turn_order_from(g: Table, first: int) -> tuple[int, ...]:
    """Every player in turn order, starting with ``first``."""
    n = len(g.players)
    return tuple((first + i) % n for i in range(n))


def apnap_order(g: Table) -> tuple[int, ...]:
    """The active player, then each nonactive player in turn order (2007 CR 101.4)."""
    return turn_order_from(g, g.active)


def opponents(g: Table, pl: int) -> tuple[int, ...]:
    """``pl``'s opponents, in turn order after ``pl``."""
    return turn_order_from(g, pl)[1:]


def opponent(g: Table, pl: int) -> int:
    """``pl``'s opponent in a two-player game ("your opponent", "defending player" and the
    winner when ``pl`` loses)."""
    if len(g.players) != 2:
        raise MtgError(f"engine error: a game of {len(g.players)} players has no single opponent")
    return 1 - pl


def defending_player(g: Table) -> int:
    """The player the active player's creatures attack (2007 glossary "Defending player": in a
    two-player game, the active player's opponent)."""
    return opponent(g, g.active)
