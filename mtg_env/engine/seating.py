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
  player", 306.3); in a multiplayer game the attack option chooses it as combat begins (2012
  506.2a, 803: attack left, attack right), or every opponent is one (802: attack multiple
  players, each attacking creature attacking one of them).

A player who has left the game (lost, conceded: 2012 800.4a) no longer has a seat in any of these
relations: turn order, priority and the APNAP order skip them, and they are nobody's opponent.
In a two-player game every relation is the other player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .errors import MtgError

MAX_PLAYERS = 6  # the range; 2012 800.1: a multiplayer game begins with more than two
VARIANTS = ("two_player", "free_for_all", "two_headed_giant", "emperor")
TEAM_SIZES = {"two_headed_giant": 2, "emperor": 3}  # seats per team (others: one)
EMPEROR_RANGES = (1, 2, 1, 1, 2, 1)  # 2012 809.3a: generals 1, the emperors (seats 1, 4) 2
ATTACK_OPTIONS = ("left", "right", "multiple")  # 2012 803.1a, 803.1b, 802
TWO_HEADED_GIANT_LIFE = 30  # a team's shared starting life (2007 CR 606; 2012 810.4)


TEAM_SIZE: list[int] = [1]
"""The seats per team of the game being played: 1, or 2 in Two-Headed Giant (seat ``s`` is on
team ``s // 2``). Compiled card filters and trigger conditions test "an opponent" from a player
index alone (``o.controller // n != pl // n``), without the game, so the engine sets this as it
runs a game (:func:`enter_table`) and a player's view sets it as it is made."""


def enter_table(g: Table) -> None:
    """Make ``g``'s teams the ones "an opponent" in card filters reads (:data:`TEAM_SIZE`)."""
    TEAM_SIZE[0] = TEAM_SIZES.get(g.variant, 1)


def is_opponent(a: int, b: int) -> bool:
    """Players ``a`` and ``b`` are on different teams of the game being played (different
    players outside Two-Headed Giant; see :data:`TEAM_SIZE`)."""
    n = TEAM_SIZE[0]
    return a != b if n == 1 else a // n != b // n


class Table(Protocol):
    """A game, or a player's view of one: its players by seat, whose turn it is, the
    defending player a multiplayer combat's attack option chose (-1 when none) and the
    variant (``two_headed_giant`` seats teams)."""

    @property
    def players(self) -> Sequence[Any]: ...

    @property
    def variant(self) -> str: ...

    @property
    def active(self) -> int: ...

    @property
    def defender(self) -> int: ...


def in_game(g: Table, pl: int) -> bool:
    """``pl`` is still in the game (hasn't lost, conceded or otherwise left: 2012 800.4)."""
    return not g.players[pl].lost


def players_in_game(g: Table) -> tuple[int, ...]:
    """The players still in the game, by seat."""
    return tuple(P.index for P in g.players if not P.lost)


def next_in_turn_order(g: Table, pl: int) -> int:
    """The next player after ``pl`` who is still in the game: who takes the next turn, or
    receives priority when ``pl`` passes (2007 CR 408; 2012 800.4a, 800.4h)."""
    players = g.players
    n = len(players)
    q = (pl + 1) % n
    while players[q].lost and q != pl:
        q = (q + 1) % n
    return q


def previous_in_turn_order(g: Table, pl: int) -> int:
    """The player still in the game seated before ``pl`` (to ``pl``'s right)."""
    players = g.players
    n = len(players)
    q = (pl - 1) % n
    while players[q].lost and q != pl:
        q = (q - 1) % n
    return q


def turn_order_from(g: Table, first: int) -> tuple[int, ...]:
    """Every player still in the game in turn order, starting with ``first`` (or, if ``first``
    has left, with the next player after that seat)."""
    players = g.players
    n = len(players)
    return tuple(q for q in ((first + i) % n for i in range(n)) if not players[q].lost)


def apnap_order(g: Table) -> tuple[int, ...]:
    """The active player, then each nonactive player in turn order (2007 CR 101.4); if the
    active player has left the game, the others in turn order from the next seat (2012
    800.4h)."""
    return turn_order_from(g, g.active)


def apnap_sorted(g: Table, players: Sequence[int]) -> list[int]:
    """``players`` in APNAP order (2007 CR 101.4), each once."""
    if len(players) < 2:
        return list(players)
    order = apnap_order(g)
    rank = {pl: i for i, pl in enumerate(order)}
    return sorted(dict.fromkeys(players), key=lambda pl: rank.get(pl, len(order) + pl))


def first_priority(g: Table) -> int:
    """Who receives priority first in a step or after a resolution: the active player, or,
    once they have left the game, the next player in turn order (2012 800.4h)."""
    a = g.active
    return a if not g.players[a].lost else next_in_turn_order(g, a)


def seat_distance(g: Table, a: int, b: int) -> int:
    """How many seats apart players ``a`` and ``b`` sit, the shorter way round the table,
    counting only the seats of players still in the game (2012 801.2)."""
    seats = players_in_game(g)
    if a not in seats or b not in seats:
        return len(g.players)
    n = len(seats)
    d = abs(seats.index(a) - seats.index(b))
    return min(d, n - d)


def compute_influence(g: Any) -> tuple[tuple[int, ...], ...]:
    """Each player's range of influence under the limited range of influence option (2012
    801.2): the players (themselves included, 801.2b) at most their range of seats away, as the
    turn begins (801.2c); ``()`` without the option."""
    ranges = g.ranges
    if not ranges:
        return ()
    return tuple(tuple(q for q in range(len(g.players))
                       if q == pl or (not g.players[q].lost and not g.players[pl].lost
                                      and seat_distance(g, pl, q) <= ranges[pl]))
                 for pl in range(len(g.players)))


def in_range(g: Any, pl: int, other: int) -> bool:
    """Player ``other`` is within player ``pl``'s range of influence (always, without the
    limited range of influence option; 2012 801.2)."""
    inf = g.influence
    return not inf or other in inf[pl]


def team_of(g: Table, pl: int) -> int:
    """The team of seat ``pl``: each team sits together (2012 809.2, 810.3), so in Two-Headed
    Giant seats 0 and 1 are team 0 and seats 2 and 3 team 1, in Emperor seats 0-2 and 3-4-5;
    in other variants each player is a team of one, numbered by seat."""
    return pl // TEAM_SIZES.get(g.variant, 1)


def teams(g: Table) -> tuple[tuple[int, ...], ...]:
    """Every team's seats, by team number (a one-seat team per player outside the team
    variants)."""
    k = TEAM_SIZES.get(g.variant, 1)
    return tuple(tuple(range(t, t + k)) for t in range(0, len(g.players), k))


def teammates(g: Table, pl: int) -> tuple[int, ...]:
    """``pl``'s teammates (the other seats of its team; none outside the team variants)."""
    k = TEAM_SIZES.get(g.variant, 1)
    if k == 1:
        return ()
    first = pl - pl % k
    return tuple(q for q in range(first, first + k) if q != pl)


def is_emperor(g: Table, pl: int) -> bool:
    """``pl`` is an emperor: the middle seat of an Emperor team (2012 809.2)."""
    return g.variant == "emperor" and pl % 3 == 1


def winners(g: Any) -> tuple[int, ...]:
    """The seats that won a finished game: the winner, or in Two-Headed Giant the winning
    team (players win only as a team, 2012 810.8a); ``()`` for a draw or an unfinished game.
    (``winner`` names the team's first seat there.)"""
    w = g.winner
    if w is None:
        return ()
    return teams(g)[team_of(g, w)] if g.variant in TEAM_SIZES else (w,)


def is_active(g: Table, pl: int) -> bool:
    """``pl`` is an active player: the player whose turn it is, or in Two-Headed Giant either
    player of the team whose turn it is (shared team turns, 2012 805.4, 810.2)."""
    return pl == g.active or (g.variant == "two_headed_giant" and pl // 2 == g.active // 2)


def active_players(g: Table) -> tuple[int, ...]:
    """The active players still in the game, in APNAP order: the player whose turn it is, or
    the team sharing the turn in Two-Headed Giant (2012 805.4); empty when the player whose
    turn it is has left the game (800.4h)."""
    if g.variant == "two_headed_giant":
        return tuple(q for q in apnap_order(g) if q // 2 == g.active // 2)
    return () if g.players[g.active].lost else (g.active,)


def opponents(g: Table, pl: int) -> tuple[int, ...]:
    """``pl``'s opponents still in the game, in turn order after ``pl`` (a teammate is not an
    opponent, 2012 102.3)."""
    k = TEAM_SIZES.get(g.variant, 1)
    if k > 1:
        return tuple(q for q in turn_order_from(g, pl) if q // k != pl // k)
    return tuple(q for q in turn_order_from(g, pl) if q != pl)


def opponent(g: Table, pl: int) -> int:
    """``pl``'s opponent in a two-player game ("your opponent", "defending player" and the
    winner when ``pl`` loses). A game of more players has no single opponent: a rule that
    asks for one there is a rule this engine doesn't read for several opponents yet, and it
    says so (:class:`MtgError`) rather than pick one."""
    if len(g.players) != 2:
        raise MtgError(f"not implemented: a rule that reads 'your opponent' in a game of "
                       f"{len(g.players)} players (it has no single opponent)")
    return 1 - pl


def defending_player(g: Table) -> int:
    """The player the active player's creatures attack (2007 glossary "Defending player"): in a
    two-player game the active player's opponent; in a multiplayer game the opponent the
    attack option chose as combat began (``defender``; 2012 506.2a). With the attack multiple
    players option every opponent is a defending player (802.2) and there is no single one:
    :func:`mtg_env.engine.combat.defender_of` says which one a creature attacks."""
    if len(g.players) == 2:
        return 1 - g.active
    d = g.defender
    if d < 0:
        raise MtgError("engine error: no single defending player (outside combat, or every "
                       "opponent under the attack multiple players option)")
    return d
