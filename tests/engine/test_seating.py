"""Who is who around the table (``mtg_env.engine.seating``): priority passes to the next player
in turn order (2007 CR 408; 2012 116.3d), the active player's choices and triggers come first
(APNAP, 2007 CR 101.4), the defending player is the active player's opponent (2007 glossary
"Defending player", 306.3), and a player's opponent wins when that player loses (2007 CR 102.2).
The orders count the seats, so they already hold for a table of more players."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from mtg_env import DecisionKind
from mtg_env.engine.errors import MtgError
from mtg_env.engine.seating import (
    apnap_order,
    defending_player,
    next_in_turn_order,
    opponent,
    opponents,
    turn_order_from,
)
from mtg_env.testing import Scenario, to_blockers


@dataclass
class _Seat:
    index: int
    lost: bool = False


@dataclass
class _Table:
    players: tuple[_Seat, ...]
    active: int
    defender: int = -1
    variant: str = "free_for_all"


def _table(n: int, active: int) -> _Table:
    return _Table(players=tuple(_Seat(i) for i in range(n)), active=active)


def test_priority_passes_to_the_next_player_in_turn_order() -> None:
    """2007 CR 408: a player who passes gives priority to the next player in turn order."""
    s = Scenario({"turn": 3, "step": "precombat_main", "active_player": 1, "players": [
        {"in_play": ["Forest"]}, {"in_play": ["Forest"]}]})
    assert s.game.decision.player == 1
    s.pass_priority()
    assert s.game.decision.player == next_in_turn_order(s.game, 1) == 0


def test_the_defending_player_declares_blockers() -> None:
    """2007 glossary "Defending player": the active player's opponent, who declares blockers."""
    s = Scenario({"turn": 3, "step": "precombat_main", "active_player": 1, "players": [
        {"in_play": ["Grizzly Bears"]}, {"in_play": ["Hill Giant"]}]})
    to_blockers(s, "Hill Giant")
    assert defending_player(s.game) == 0
    assert s.game.decision.kind is DecisionKind.DECLARE_BLOCKERS and s.game.decision.player == 0


def test_the_active_player_comes_first_in_apnap_order() -> None:
    """2007 CR 101.4: the active player, then the nonactive player."""
    s = Scenario({"turn": 3, "step": "precombat_main", "active_player": 1, "players": [{}, {}]})
    assert apnap_order(s.game) == (1, 0)
    assert opponents(s.game, 1) == (0,) and opponent(s.game, 1) == 0


def test_turn_order_and_apnap_order_count_the_seats() -> None:
    """With four seats (2012 101.4: "the next player in turn order, usually the player seated
    to the active player's left"), turn order wraps around the table."""
    table = _table(4, active=2)
    assert [next_in_turn_order(table, p) for p in range(4)] == [1, 2, 3, 0]
    assert apnap_order(table) == (2, 3, 0, 1)
    assert turn_order_from(table, 3) == (3, 0, 1, 2)
    assert opponents(table, 1) == (2, 3, 0)


def test_a_single_opponent_exists_only_in_a_two_player_game() -> None:
    with pytest.raises(MtgError, match=r"game of 3 players .*has no single opponent"):
        opponent(_table(3, active=0), 0)
