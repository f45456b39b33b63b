"""The limited range of influence option of a Free-for-All game (2012 801; the seeds name the
option through the glossary's multiplayer entries, the 2012 rules give its detail).

A table of five with range 1 unless said otherwise: player 0's range holds players 4, 0 and 1
(2012 801.2, 801.2b); players 2 and 3 are out of it.
"""

from __future__ import annotations

import pytest

from mtg_env import Game, MtgError
from mtg_env.engine.position import PositionError
from mtg_env.testing import Scenario, pass_until, table_position

FIVE = ["starter_green", "starter_red", "starter_white", "starter_blue_black", "starter_green"]


def five(*players: object, **top: object) -> Scenario:
    """Five players, range 1, player 0 active in their precombat main phase of turn 3."""
    seats = list(players) + [None] * (5 - len(players))
    return Scenario(table_position(*seats, library=["Island"] * 5,  # type: ignore[arg-type]
                                   **{"range": 1, **top}))


def labels(s: Scenario, pl: int, zone: str) -> list[str]:
    return [c.cdef.name for c in getattr(s.game.players[pl], zone)]


def test_each_players_range_holds_the_players_within_that_many_seats() -> None:
    # 801.2, 801.2a examples, 801.2b: yourself and the players that many seats either side.
    g = Game.new(FIVE, seed=1, options={"range": 1})
    assert g.ranges == (1, 1, 1, 1, 1)
    assert g.influence[0] == (0, 1, 4) and g.influence[2] == (1, 2, 3)
    g = Game.new(FIVE, seed=1, options={"range": 2})
    assert g.influence[0] == (0, 1, 2, 3, 4)
    assert Game.new(FIVE, seed=1).influence == ()  # no option: no limit


def test_the_range_option_is_checked() -> None:
    with pytest.raises(MtgError, match="from 1 to 2 at a table of 5"):
        Game.new(FIVE, options={"range": 3})
    with pytest.raises(MtgError, match="range option is for multiplayer Free-for-All"):
        Game.new(FIVE[:2], options={"range": 1})
    with pytest.raises(MtgError, match="range option is for multiplayer Free-for-All"):
        Game.new(FIVE[:4], variant="two_headed_giant", options={"range": 1})
    with pytest.raises(PositionError, match="range must be a number of seats from 1 to 2"):
        five(range=0)


def test_a_range_grows_only_as_the_next_turn_begins() -> None:
    # 801.2c example: when the player between two others leaves, they enter each other's range
    # at the start of the next turn.
    s = five(step="end_of_turn")
    g = s.game
    g.concede(1)
    assert 2 not in g.influence[0]
    pass_until(s, lambda g: g.turn == 4)
    assert 2 in g.influence[0] and 0 in g.influence[2]


def test_only_opponents_within_range_can_be_attacked() -> None:
    # 801.3 under the attack multiple players option.
    s = five(["Grizzly Bears"], step="beginning_of_combat", attack="multiple")
    s.pass_priority(5)
    assert sorted(s.options()) == ["attack player 1 with Grizzly Bears",
                                   "attack player 4 with Grizzly Bears", "done"]


def test_only_players_and_objects_within_range_can_be_targeted() -> None:
    # 801.4: Shock, "Shock deals 2 damage to target creature or player."
    s = five({"hand": ["Shock"], "in_play": ["Mountain"]}, ["Grizzly Bears"], ["Hill Giant"],
             ["Craw Wurm"], ["Llanowar Elves"])
    s.do("play Shock")
    assert sorted(s.options()) == ["target Grizzly Bears", "target Llanowar Elves",
                                   "target player 0", "target player 1", "target player 4"]


def test_an_effect_reaches_only_what_is_within_range() -> None:
    # 801.10 example: "Pyroclasm deals 2 damage to each creature." Only the creatures of
    # player 0 and the players beside them are dealt damage.
    s = five({"hand": ["Pyroclasm"], "in_play": ["Mountain", "Mountain", "Grizzly Bears"]},
             ["Llanowar Elves"], ["Youthful Knight"], ["Goblin Piker"], ["Raging Goblin"])
    s.do("play Pyroclasm")
    s.resolve_all()
    for gone in ("Grizzly Bears", "Llanowar Elves", "Raging Goblin"):
        s.assert_in_play(gone, False)
    s.assert_in_play("Youthful Knight")
    s.assert_in_play("Goblin Piker")


def test_grave_pacts_each_other_player_means_each_one_within_range() -> None:
    # 801.10: "each other player sacrifices a creature": players 2 and 3 are out of range.
    s = five({"hand": ["Shock"], "in_play": ["Mountain", "Grave Pact", "Grizzly Bears"]},
             ["Hill Giant"], ["Craw Wurm"], ["Llanowar Elves"], ["Raging Goblin"])
    s.do("play Shock", "target Grizzly Bears")
    s.resolve_all()
    while s.game.decision.kind.value != "priority":
        s.do(s.options()[0])
        s.resolve_all()
    assert labels(s, 1, "graveyard") == ["Hill Giant"]
    assert labels(s, 4, "graveyard") == ["Raging Goblin"]
    s.assert_in_play("Craw Wurm")
    s.assert_in_play("Llanowar Elves")


def test_a_static_ability_affects_only_what_is_within_range() -> None:
    # 801.10: Ascendant Evincar, "Nonblack creatures get -1/-1."
    s = five(["Ascendant Evincar"], ["Hill Giant"], ["Craw Wurm"])
    s.assert_pt("Hill Giant", 2, 2)
    s.assert_pt("Craw Wurm", 6, 4)


def test_information_comes_only_from_within_range() -> None:
    # 801.11 example: Coat of Arms, "Each creature gets +1/+1 for each other creature in play
    # that shares at least one creature type with it": player 2's Elf is out of range.
    s = five(["Coat of Arms", "Llanowar Elves"], ["Elvish Berserker"], ["Llanowar Elves"])
    s.assert_pt("Llanowar Elves", 2, 2)  # +1/+1 for the Berserker, not for player 2's Elf
    s.assert_pt("Elvish Berserker", 2, 2)
    s.assert_pt("Llanowar Elves#2", 1, 1)  # out of range: neither counted nor boosted


def test_a_trigger_needs_its_event_within_range() -> None:
    # 801.7: Underworld Dreams, "Whenever an opponent draws a card, Underworld Dreams deals 1
    # damage to that player." Player 2's draw is out of player 0's range; player 1's isn't.
    s = five(["Underworld Dreams"], step="end_of_turn", active_player=1)
    s.advance_to("draw", active=2)
    assert not s.game.stack
    s = five(["Underworld Dreams"], step="end_of_turn", active_player=0)
    s.advance_to("draw", active=1)
    assert [x.label for x in s.game.stack] == ["Underworld Dreams"]


def test_an_aura_or_equipment_out_of_range_falls_off() -> None:
    # 801.8: an Aura on a permanent out of its controller's range goes to the graveyard; 801.9:
    # Equipment becomes unattached (a state-based check).
    giant = [{"card": "Hill Giant", "id": "giant"}]
    s = five([{"card": "Holy Strength", "attached_to": "giant"}], None, giant)
    assert labels(s, 0, "graveyard") == ["Holy Strength"]
    s = five([{"card": "Loxodon Warhammer", "attached_to": "giant"}], None, giant)
    assert s.in_play("Loxodon Warhammer") and s.perm("Loxodon Warhammer").attached_to is None
    s.assert_pt("Hill Giant", 3, 3)


def test_the_legend_rule_looks_only_within_range() -> None:
    # 801.12: the same legend out of each other's range: both stay.
    s = five(["Mirri, Cat Warrior"], None, ["Mirri, Cat Warrior"])
    s.pass_priority()
    assert sum(1 for p in s.game.perms.values() if p.card.name == "Mirri, Cat Warrior") == 2
    s = five(["Mirri, Cat Warrior"], ["Mirri, Cat Warrior"])
    s.pass_priority()
    assert sum(1 for p in s.game.perms.values() if p.card.name == "Mirri, Cat Warrior") == 0


def test_winning_makes_only_the_opponents_within_range_lose() -> None:
    # 2012 104.3h: "you win the game" makes the opponents within range lose; the game goes on.
    s = five({"in_play": ["Mortal Combat"], "graveyard": ["Grizzly Bears"] * 20},
             step="end_of_turn", active_player=4)
    pass_until(s, lambda g: g.is_over or (g.active == 0 and g.step == "precombat_main"))
    g = s.game
    assert not g.is_over
    assert [P.lost for P in g.players] == [False, True, False, False, True]
