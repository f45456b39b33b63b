"""The game log a player can read, to play a game and watch it: turn headers with both life
totals, every life change with the new total, land taps and payments, abilities named as
abilities with their costs first, combat summarised per attacker."""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind
from mtg_env.testing import Scenario, scenario

main = partial(scenario, library=["Plains"] * 5)  # turn 3, player 0's main phase


def after(s: Scenario, n: int) -> list[str]:
    return s.game.log[n:]


def test_turn_header_shows_both_life_totals() -> None:
    s = main({}, {"life": 17})
    s.advance_to("upkeep", active=1)
    assert "--- turn 4: player 1 (player 0 20 life, player 1 17 life) ---" in s.game.log


def test_damage_to_a_player_shows_the_new_life_total_and_payment_comes_first() -> None:
    """Shock's controller pays {R} by tapping a Mountain before the spell is played; the damage
    line gives the new life total."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"]})
    n = len(s.game.log)
    s.do("play Shock", "target player 1")
    s.resolve()
    lines = after(s, n)
    assert lines.index("player 0 pays {R}: taps Mountain") < lines.index(
        "player 0 plays Shock targeting player 1")
    assert "Shock deals 2 damage to player 1 (life 18)" in lines


def test_a_manual_land_tap_is_logged() -> None:
    s = main({"in_play": ["Forest"]})
    n = len(s.game.log)
    s.do("tap Forest for G")
    assert after(s, n) == ["player 0 taps Forest for G"]


def test_a_sacrificed_ability_source_reads_as_a_cost_then_the_ability() -> None:
    """Mogg Fanatic: "Sacrifice Mogg Fanatic: Mogg Fanatic deals 1 damage to target creature or
    player." The sacrifice is a cost (2007 CR 409.1f-h), paid as the ability is played; the
    ability is named as an ability of Mogg Fanatic."""
    s = main({"in_play": ["Mogg Fanatic"]})
    n = len(s.game.log)
    s.do("activate Mogg Fanatic", "target player 1")
    s.resolve()
    lines = after(s, n)
    assert lines[:2] == ["player 0 sacrifices Mogg Fanatic",
                         "player 0 activates ability of Mogg Fanatic targeting player 1"]
    assert "Mogg Fanatic deals 1 damage to player 1 (life 19)" in lines


def test_combat_is_summarised_per_attacker() -> None:
    s = main({"in_play": ["Grizzly Bears", "Hill Giant"]}, {"in_play": ["Wall of Wood"]})
    n = len(s.game.log)
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    s.do("attack with Grizzly Bears", "attack with Hill Giant")
    if s.game.decision.kind is DecisionKind.DECLARE_ATTACKERS:
        s.do("done")
    s.pass_priority(2)
    s.do("block Hill Giant with Wall of Wood")
    if s.game.decision.kind is DecisionKind.DECLARE_BLOCKERS:
        s.do("done")
    lines = after(s, n)
    assert "player 0 attacks with Grizzly Bears (2/2), Hill Giant (3/3)" in lines
    assert "Grizzly Bears: unblocked" in lines
    assert "Hill Giant: blocked by Wall of Wood" in lines
