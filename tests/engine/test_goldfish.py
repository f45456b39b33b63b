"""The goldfish option (deck testing): ``Game.new(..., goldfish=seat)`` suspends two state-based
effects for that seat, 2007 CR 420.5a (0 or less life loses) and 420.5g (a draw from an empty
library loses), and records the turn its life was first seen at 0 or less. The other seat plays by
the normal rules, and the option travels in the game's JSON."""

from __future__ import annotations

import pytest

from mtg_env import Game, MtgError
from mtg_env.engine.errors import PositionError
from mtg_env.testing import Scenario, position

LIB = ["Mountain"] * 5


def _lava_axe(life: int, goldfish: int | None) -> Scenario:
    opts = {} if goldfish is None else {"goldfish": goldfish}
    s = Scenario(position("precombat_main", {"hand": ["Lava Axe"], "in_play": ["Mountain"] * 5,
                                             "library": LIB}, {"life": life, "library": LIB}), **opts)
    s.do("play Lava Axe", "target player 1")
    s.resolve()
    return s


def test_the_goldfish_seat_goes_below_zero_life_and_the_game_goes_on() -> None:
    """2007 CR 420.5a suspended for the goldfish seat: Lava Axe from 2 leaves it at -3, the game
    goes on and the turn is recorded; without the option the same play wins (the control)."""
    s = _lava_axe(2, goldfish=1)
    g = s.game
    assert g.players[1].life == -3 and not g.is_over
    assert g.goldfish_dead_turn == 3
    assert "player 1's life reached -3 on turn 3 (goldfish: the game goes on)" in g.log
    s.advance_to("upkeep", active=1)  # state-based effects checked many times since: still playing
    assert not g.is_over and g.goldfish_dead_turn == 3
    _lava_axe(2, goldfish=None).assert_winner(0)


def test_the_kill_turn_is_the_first_one_at_zero_life() -> None:
    s = _lava_axe(5, goldfish=1)
    assert s.game.players[1].life == 0 and s.game.goldfish_dead_turn == 3
    s.advance_to("upkeep", active=1)
    s.advance_to("precombat_main", active=0)
    assert s.game.turn == 5 and s.game.goldfish_dead_turn == 3


def test_the_other_seat_still_loses_at_zero_life() -> None:
    """Only the goldfish seat is exempt: player 1 as the goldfish, player 0 at 0 life loses."""
    s = Scenario(position("upkeep", {"life": 0, "library": LIB}, {"library": LIB}), goldfish=1)
    s.assert_winner(1)
    assert s.game.end_reason == "life"


def test_the_goldfish_seat_draws_from_an_empty_library_without_losing() -> None:
    """2007 CR 420.5g suspended for the goldfish seat: its draw step with no library."""
    s = Scenario({"turn": 3, "step": "postcombat_main",
                  "players": [{"library": LIB}, {"library": []}]}, goldfish=1)
    s.advance_to("precombat_main", active=1)
    g = s.game
    assert not g.is_over and g.turn == 4
    assert "player 1 draws from an empty library" in g.log
    assert g.goldfish_dead_turn is None  # its life is still 20
    s.advance_to("precombat_main", active=0)
    assert not g.is_over
    # the control: player 0 with an empty library loses in its draw step
    s2 = Scenario({"turn": 3, "step": "postcombat_main", "active_player": 1,
                   "players": [{"library": []}, {"library": LIB}]}, goldfish=1)
    s2.advance_to("upkeep", active=0)
    s2.pass_priority(2)
    s2.assert_winner(1)
    assert s2.game.end_reason == "empty library"


def test_poison_still_kills_the_goldfish() -> None:
    """Only 420.5a and 420.5g are suspended: ten poison counters (420.5h) still lose."""
    s = Scenario(position("upkeep", {"library": LIB}, {"poison": 10, "library": LIB}), goldfish=1)
    s.assert_winner(0)
    assert s.game.end_reason == "poison"


def test_the_option_and_the_kill_turn_survive_json() -> None:
    g = _lava_axe(2, goldfish=1).game
    again = Game.from_json(g.to_json())
    assert (again.goldfish, again.goldfish_dead_turn) == (1, 3)
    assert again.to_json() == g.to_json()
    again.apply("pass")
    assert not again.is_over
    new = Game.new(["starter_green", "starter_red"], seed=3, goldfish=0)
    assert Game.from_json(new.to_json()).goldfish == 0


def test_the_view_tells_both_players_about_the_goldfish() -> None:
    g = _lava_axe(2, goldfish=1).game
    for viewer in (0, 1):
        v = g.view(viewer)
        assert (v.goldfish, v.goldfish_dead_turn) == (1, 3)
        assert v.to_dict()["goldfish"] == 1


@pytest.mark.parametrize("bad", [2, -1, True, "1"])
def test_a_bad_goldfish_seat_is_refused(bad: object) -> None:
    with pytest.raises(MtgError, match="goldfish must be a seat"):
        Game.new(["starter_green", "starter_red"], goldfish=bad)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="goldfish must be a seat"):
        Scenario(position("upkeep", {}, {}), goldfish=bad)
