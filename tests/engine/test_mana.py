"""Mana: mana abilities, the mana pool, pools emptying at the end of each *phase* with mana burn
(2007 CR 300.3; RULES_2007 §2 and §5), the automatic payer and manual mana."""

from __future__ import annotations

from functools import partial

import pytest

from mtg_env import DecisionKind, Game, IllegalActionError
from mtg_env.engine.zones import leave_play
from mtg_env.testing import Scenario, position

LIB = ["Wall of Wood"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


def pool(s: Scenario, pl: int = 0) -> str:
    return s.game.players[pl].pool_text()


def test_basic_land_mana_ability_adds_its_color() -> None:
    """2007 CR 212.6d: each basic land type has "{T}: Add [mana] to your mana pool."."""
    s = Scenario(pos("precombat_main", {"in_play": ["Plains", "Island", "Swamp", "Mountain",
                                                    "Forest"]}))
    assert s.options() == ["pass", "tap Plains for W", "tap Island for U", "tap Swamp for B",
                           "tap Mountain for R", "tap Forest for G"]
    s.do("tap Plains for W", "tap Island for U", "tap Swamp for B", "tap Mountain for R",
         "tap Forest for G")
    assert s.game.players[0].mana_pool == [1, 1, 1, 1, 1, 0]
    assert s.options() == ["pass"]


def test_scenario_1_burn_when_the_main_phase_ends() -> None:
    """RULES_2007 §19 scenario 1 (2007 CR 300.3): the active player at 20 taps three Forests in
    main phase 1, plays Grizzly Bears (floating mana is spent first) and moves to combat with G
    floating: 1 mana burn, 19 life."""
    s = Scenario(pos("precombat_main", {"hand": ["Grizzly Bears"],
                                        "in_play": ["Forest", "Forest", "Forest"]}))
    s.do("tap Forest for G", "tap Forest#2 for G", "tap Forest#3 for G", "play Grizzly Bears")
    assert pool(s) == "G"
    s.resolve()
    assert pool(s) == "G"
    s.pass_priority(2)
    assert s.game.step == "beginning_of_combat"
    assert pool(s) == "-"
    s.assert_life(0, 19)
    assert s.game.players[0].damage_taken_this_turn == 0  # burn is life loss, not damage


def test_scenario_2_mana_floats_between_steps_of_one_phase() -> None:
    """RULES_2007 §19 scenario 2 (2007 CR 300.3): tap a Mountain in upkeep and play Shock in
    the draw step with that R: legal in 2007 (the beginning phase hasn't ended)."""
    s = Scenario(pos("upkeep", {"hand": ["Shock"], "in_play": ["Mountain"]}))
    s.do("tap Mountain for R")
    s.pass_priority(2)
    assert s.game.step == "draw" and pool(s) == "R"
    s.do("play Shock", "target player 1")
    assert pool(s) == "-"
    s.resolve()
    s.assert_life(1, 18)
    s.assert_life(0, 20)


def test_mana_left_at_end_of_beginning_phase_burns() -> None:
    """2007 CR 300.3: the beginning phase ends after the draw step; unspent mana burns then."""
    s = Scenario(pos("upkeep", {"in_play": ["Mountain", "Forest"]}))
    s.do("tap Mountain for R", "tap Forest for G")
    s.pass_priority(2)
    assert pool(s) == "RG"
    s.pass_priority(2)
    assert s.game.step == "precombat_main" and pool(s) == "-"
    s.assert_life(0, 18)


def test_mana_floats_through_the_whole_combat_phase() -> None:
    """2007 CR 300.3: mana floats from beginning of combat through declare attackers, blockers,
    combat damage and end of combat, and burns when the combat phase ends."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Grizzly Bears", "Forest"]}))
    s.do("tap Forest for G")
    s.pass_priority(2)
    s.do("attack with Grizzly Bears")
    for step in ("declare_attackers", "declare_blockers", "combat_damage", "combat_damage",
                 "end_of_combat"):
        assert s.game.step == step and pool(s) == "G", step
        s.pass_priority(2)
    assert s.game.step == "postcombat_main" and pool(s) == "-"
    s.assert_life(0, 19)
    s.assert_life(1, 18)


def test_mana_floats_from_end_of_turn_into_cleanup_and_burns_at_end_of_turn() -> None:
    """2007 CR 300.3: the end phase ends after cleanup; mana made in the end of turn step burns
    then, and the player at 0 loses at the next check (next turn's upkeep; RULES_2007 §2)."""
    s = Scenario(pos("end_of_turn", {"in_play": ["Forest"], "life": 1}))
    s.do("tap Forest for G")
    s.pass_priority(2)
    assert s.game.turn == 4 and s.game.step == "upkeep"
    assert s.game.is_over and s.game.winner == 1
    assert s.game.players[0].life == 0


def test_opponent_mana_burns_too() -> None:
    """2007 CR 300.3: every player's pool empties and burns at the end of a phase, not only the
    active player's."""
    s = Scenario(pos("precombat_main", {}, {"in_play": ["Mountain", "Mountain"]}))
    s.pass_priority()
    s.do("tap Mountain for R", "tap Mountain#2 for R")
    s.pass_priority(2)  # player 1 acted, so player 0 must pass again
    assert s.game.step == "beginning_of_combat"
    s.assert_life(1, 18)
    s.assert_life(0, 20)


def test_position_mana_pool_floats_and_burns() -> None:
    """Position format `mana_pool`; 2007 CR 300.3 burn at the end of the phase."""
    s = Scenario(pos("precombat_main", {"mana_pool": "GGC"}))
    assert s.game.players[0].mana_pool == [0, 0, 0, 0, 2, 1]
    s.pass_priority(2)
    s.assert_life(0, 17)


def test_scenario_4_burn_kills_at_the_next_check() -> None:
    """RULES_2007 §19 scenario 4 (2007 CR 300.3, 420.5a): the active player at 1 life ends a
    phase with 1 mana floating and loses at the next state-based check."""
    s = Scenario(pos("precombat_main", {"life": 1, "in_play": ["Forest"]}))
    s.do("tap Forest for G")
    s.pass_priority(2)
    assert s.game.is_over and s.game.winner == 1
    assert s.game.end_reason == "life"


def test_both_players_burn_to_zero_is_a_draw() -> None:
    """RULES_2007 §2 (burn hits all players at once) and §15 (simultaneous loss is a draw)."""
    s = Scenario(pos("precombat_main", {"life": 1, "in_play": ["Forest"]},
                     {"life": 1, "in_play": ["Mountain"]}))
    s.do("tap Forest for G", "pass", "tap Mountain for R", "pass", "pass")
    assert s.game.is_over and s.game.winner is None


def test_scenario_3_upwelling_mana_survives_into_the_next_turn() -> None:
    """RULES_2007 §19 scenario 3 (Upwelling, printed text): with Upwelling in play the active
    player floats G at end of turn; it is still there in the other player's upkeep and nobody
    burns."""
    s = Scenario(pos("end_of_turn", {"in_play": ["Forest", "Upwelling"]}))
    s.do("tap Forest for G")
    s.advance_to("upkeep", active=1)
    assert pool(s) == "G"
    s.assert_life(0, 20)
    s.advance_to("postcombat_main", active=1)
    assert pool(s) == "G"
    s.assert_life(0, 20)


def test_upwelling_leaving_play_burns_at_the_end_of_that_phase() -> None:
    """RULES_2007 §2 / §19 scenario 3: if Upwelling leaves play while G floats in a main phase,
    the G empties and burns at the end of that phase. (No core card destroys an
    enchantment, so the test removes it through the engine.)"""
    s = Scenario(pos("precombat_main", {"in_play": ["Forest", "Upwelling"]}))
    s.do("tap Forest for G")
    s.pass_priority(2)
    assert pool(s) == "G" and s.game.step == "beginning_of_combat"
    leave_play(s.game, s.perm("Upwelling"), "graveyard")
    s.assert_zone(0, "graveyard", "Upwelling")
    assert pool(s) == "G"
    s.pass_priority(2)  # beginning of combat -> declare attackers: same phase, no burn
    assert pool(s) == "G"
    s.advance_to("postcombat_main")
    assert pool(s) == "-"
    s.assert_life(0, 19)


def test_floating_mana_is_spent_first_by_the_payer() -> None:
    """The automatic payer spends floating mana first."""
    s = Scenario(pos("precombat_main", {"hand": ["Grizzly Bears"], "mana_pool": "G",
                                        "in_play": ["Forest", "Forest"]}))
    s.do("play Grizzly Bears")
    assert pool(s) == "-"
    assert sum(p.tapped for p in s.game.permanents if p.name == "Forest") == 1


def test_payer_keeps_colors_the_hand_still_needs() -> None:
    """The payer keeps colors the hand still needs: Grizzly Bears ({1}{G})
    is paid with the two Forests, leaving the Mountain for Shock."""
    s = Scenario(pos("precombat_main", {"hand": ["Grizzly Bears", "Shock"],
                                        "in_play": ["Forest", "Mountain", "Forest"]}))
    s.do("play Grizzly Bears")
    untapped = [p.name for p in s.game.permanents if p.controller == 0 and not p.tapped]
    assert untapped == ["Mountain"]
    s.resolve()
    assert "play Shock" in s.options()


def test_spells_that_cannot_be_paid_are_not_offered() -> None:
    """2007 CR 409.1h (2012 601.2g): a spell whose cost can't be paid can't be played; the
    payer never offers it (Craw Wurm with two lands; Shock without red mana)."""
    s = Scenario(pos("precombat_main", {"hand": ["Craw Wurm", "Shock", "Grizzly Bears"],
                                        "in_play": ["Forest", "Forest"]}))
    assert s.options() == ["pass", "play Grizzly Bears", "tap Forest for G", "tap Forest#2 for G"]
    with pytest.raises(IllegalActionError):
        s.do("play Craw Wurm")


def test_manual_mana_requires_tapping_first() -> None:
    """Game.new(..., manual_mana=True) makes payment explicit: a spell is
    offered only when the pool already holds its cost, and nothing is tapped for you."""
    s = Scenario(pos("precombat_main", {"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest"]}),
                 manual_mana=True)
    assert "play Grizzly Bears" not in s.options()
    s.do("tap Forest for G")
    assert "play Grizzly Bears" not in s.options()
    s.do("tap Forest#2 for G")
    s.do("play Grizzly Bears")
    assert pool(s) == "-"
    s.resolve()
    s.assert_in_play("Grizzly Bears")


def test_manual_mana_game_new() -> None:
    """Public API: Game.new accepts manual_mana=True."""
    deck = ["Forest"] * 20 + ["Grizzly Bears"] * 20
    g = Game.new([deck, deck], seed=3, starting_player=0, manual_mana=True)
    assert g.manual_mana
    assert g.decision.kind is DecisionKind.MULLIGAN


def test_mana_burn_counts_every_unspent_mana() -> None:
    """2007 CR 300.3: each player loses 1 life per unspent mana, counted over all colors."""
    s = Scenario(pos("precombat_main", {"mana_pool": "WUBRG"}))
    s.pass_priority(2)
    s.assert_life(0, 15)
    assert s.game.players[0].life_lost_this_turn == 5
