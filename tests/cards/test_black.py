"""Scenario tests for the non-core cards of the black theme deck (Evincar's Tyranny), the legend
rule with Ascendant Evincar and Mortivore's characteristic-setting ability in the 2007 layers.

Rule numbers are 2007 CR where known (../shared/reference/RULES_2007.md), else 2012 CR.
Player 0 is active in every position unless stated otherwise.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.testing import attack, block, kind, labels, scenario


# -- Ascendant Evincar --------------------------------------------------------------------------
def test_evincar_pumps_other_black_and_shrinks_nonblack_creatures():
    """Ascendant Evincar: "Other black creatures get +1/+1. Nonblack creatures get -1/-1."
    Both apply to every player's creatures; Evincar (black) isn't "other", so it stays 3/3.
    A colorless artifact creature is nonblack. Static P/T modifiers: layer 6d (2007 CR 418.5)."""
    s = scenario({"in_play": ["Ascendant Evincar", "Looming Shade", "Grizzly Bears", "Bottle Gnomes"]},
                 {"in_play": ["Vampire Bats", "Hill Giant"]})
    s.assert_pt("Ascendant Evincar", 3, 3)
    s.assert_pt("Looming Shade", 2, 2)
    s.assert_pt("Vampire Bats", 1, 2)
    s.assert_pt("Grizzly Bears", 1, 1)
    s.assert_pt("Bottle Gnomes", 0, 2)
    s.assert_pt("Hill Giant", 2, 2)


def test_evincar_kills_x_1_nonblack_creatures_as_it_comes_into_play():
    """Ascendant Evincar: "Nonblack creatures get -1/-1." A 1-toughness nonblack creature is
    put into its owner's graveyard as a state-based effect (2007 CR 420.5b); when Evincar leaves
    play the effect ends."""
    s = scenario({"hand": ["Ascendant Evincar"], "in_play": ["Swamp"] * 6 + ["Raging Goblin"]},
                 {"hand": ["Terror"], "in_play": ["Grizzly Bears", "Swamp", "Swamp"]})
    s.do("play Ascendant Evincar")
    s.resolve()
    s.assert_in_play("Ascendant Evincar")
    s.assert_in_play("Raging Goblin", False)
    s.assert_zone(0, "graveyard", "Raging Goblin")
    s.assert_pt("Grizzly Bears", 1, 1)
    # Evincar is black: Terror can target the (nonblack) Bears but not Evincar.
    s.pass_priority()
    s.do("play Terror")
    assert s.options() == ["target Grizzly Bears"]


def test_evincar_static_applies_after_giant_growth():
    """Layer 6b (resolved pump) before 6d (Evincar's static modifier): Grizzly Bears with Giant
    Growth under Evincar is 2+3-1 = 4/4; when the turn ends the pump wears off (1/1)."""
    s = scenario({"hand": ["Giant Growth"], "in_play": ["Forest", "Grizzly Bears"]},
                 {"in_play": ["Ascendant Evincar"]})
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 4, 4)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Grizzly Bears", 1, 1)


def test_evincar_has_flying():
    """Ascendant Evincar: "Flying (This creature can't be blocked except by creatures with flying
    or reach.)" (2012 702.9b)."""
    s = scenario({"in_play": ["Ascendant Evincar"]},
                 {"in_play": ["Hill Giant", "Giant Spider"]}, step="beginning_of_combat")
    attack(s, "Ascendant Evincar")
    s.pass_priority(2)
    assert kind(s) is DecisionKind.DECLARE_BLOCKERS
    opts = s.options()
    assert "block Ascendant Evincar with Giant Spider" in opts
    assert "block Ascendant Evincar with Hill Giant" not in opts


def test_legend_rule_two_evincars_one_per_player():
    """Legend rule (2007 CR 420.5e; RULES_2007.md §12, §19 scenario 14): player 1 controls
    Ascendant Evincar and player 0 plays another. Regardless of controller both are put into
    their owners' graveyards. That is not destruction, so a regeneration shield on player 1's
    Evincar (set directly: no card in the pool regenerates another creature) doesn't save it;
    their static abilities stop at once."""
    s = scenario({"hand": ["Ascendant Evincar"], "in_play": ["Swamp"] * 6 + ["Hill Giant", "Grizzly Bears"]},
                 {"in_play": ["Ascendant Evincar", "Looming Shade"]})
    # Labels: player 0's hand card is created first.
    s.assert_pt("Hill Giant", 2, 2)
    s.assert_pt("Grizzly Bears", 1, 1)
    s.assert_pt("Looming Shade", 2, 2)
    s.perm("Ascendant Evincar#2").regen_shields = 1
    s.do("play Ascendant Evincar")
    s.resolve()
    assert not s.game.stack
    s.assert_in_play("Ascendant Evincar", False)
    s.assert_in_play("Ascendant Evincar#2", False)
    assert labels(s, 1, "graveyard") == ["Ascendant Evincar#2"]
    assert not any("regenerates" in line for line in s.game.log)
    # All state-based effects are checked at once (2007 CR 420.2): while both Evincars were in
    # play Grizzly Bears was 0/0, so it went to the graveyard in the same check.
    assert sorted(labels(s, 0, "graveyard")) == ["Ascendant Evincar", "Grizzly Bears"]
    s.assert_pt("Hill Giant", 3, 3)
    s.assert_pt("Looming Shade", 1, 1)


def test_legend_rule_cards_go_to_their_owners_graveyard():
    """Legend rule (2007 CR 420.5e): "all go to their owners' graveyards". Player 1 controls an
    Ascendant Evincar that player 0 owns (position key ``controller``) and has a regeneration
    shield; player 0 plays a second one. Both leave play at once and both cards go to player 0's
    graveyard; the shield isn't used (not destruction)."""
    s = scenario({"hand": ["Ascendant Evincar"],
                  "in_play": ["Swamp"] * 6 + [{"card": "Ascendant Evincar", "controller": 1}]},
                 {"in_play": ["Hill Giant"]})
    assert s.perm("Ascendant Evincar#2").controller == 1
    s.perm("Ascendant Evincar#2").regen_shields = 1
    s.do("play Ascendant Evincar")
    s.resolve()
    s.assert_in_play("Ascendant Evincar", False)
    s.assert_in_play("Ascendant Evincar#2", False)
    assert sorted(labels(s, 0, "graveyard")) == ["Ascendant Evincar", "Ascendant Evincar#2"]
    assert labels(s, 1, "graveyard") == []
    s.assert_pt("Hill Giant", 3, 3)


def test_single_legend_stays():
    """The legend rule needs two legendary permanents with the same name (2007 CR 420.5e): one
    Ascendant Evincar alone stays in play, next to other (nonlegendary) black creatures."""
    s = scenario({"in_play": ["Ascendant Evincar", "Mortivore"], "graveyard": ["Grizzly Bears"]},
                 {"in_play": ["Swamp"]})
    s.assert_in_play("Ascendant Evincar")
    s.assert_in_play("Mortivore")
    assert labels(s, 0, "graveyard") == ["Grizzly Bears"]


# -- Assassinate ---------------------------------------------------------------------------------
def test_assassinate_destroys_target_tapped_creature():
    """Assassinate: "Destroy target tapped creature." An untapped creature is not a legal target
    (2007 CR 409.1d)."""
    s = scenario({"hand": ["Assassinate"], "in_play": ["Swamp"] * 3},
                 {"in_play": [{"card": "Hill Giant", "tapped": True}, "Grizzly Bears"]})
    s.do("play Assassinate")
    assert s.options() == ["target Hill Giant"]
    with pytest.raises(IllegalActionError):
        s.do("target Grizzly Bears")
    s.do("target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    assert labels(s, 1, "graveyard") == ["Hill Giant"]
    assert labels(s, 0, "graveyard") == ["Assassinate"]
    s.assert_in_play("Grizzly Bears")


def test_assassinate_not_playable_without_a_tapped_creature():
    """Assassinate needs a legal target to be played (2007 CR 409.1d): with only untapped
    creatures in play it isn't offered."""
    s = scenario({"hand": ["Assassinate"], "in_play": ["Swamp"] * 3 + ["Grizzly Bears"]},
                 {"in_play": ["Hill Giant"]})
    assert "play Assassinate" not in s.options()


def test_assassinate_can_target_own_tapped_creature_and_allows_regeneration():
    """Assassinate's target is any tapped creature, yours included; it doesn't say "can't be
    regenerated", so Drudge Skeletons' shield replaces the destruction (2007 CR 419.6b)."""
    s = scenario({"hand": ["Assassinate"],
                  "in_play": ["Swamp"] * 3 + [{"card": "Grizzly Bears", "tapped": True}]},
                 {"in_play": [{"card": "Drudge Skeletons", "tapped": True}, "Swamp"]})
    s.do("play Assassinate")
    assert sorted(s.options()) == ["target Drudge Skeletons", "target Grizzly Bears"]
    s.do("target Drudge Skeletons")
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()  # the regeneration shield
    s.resolve()  # Assassinate
    s.assert_in_play("Drudge Skeletons")
    assert s.perm("Drudge Skeletons").tapped
    assert labels(s, 1, "graveyard") == []


def test_assassinate_is_a_sorcery():
    """Assassinate is a sorcery: only in your main phase with an empty stack (2012 307.1), so not
    in combat or on the opponent's turn."""
    s = scenario({"hand": ["Assassinate"], "in_play": ["Swamp"] * 3},
                 {"in_play": [{"card": "Hill Giant", "tapped": True}]}, step="beginning_of_combat")
    assert "play Assassinate" not in s.options()
    s2 = scenario({"hand": ["Assassinate"], "in_play": ["Swamp"] * 3},
                  {"in_play": [{"card": "Hill Giant", "tapped": True}]}, active_player=1)
    s2.pass_priority()
    assert s2.game.decision.player == 0
    assert "play Assassinate" not in s2.options()


# -- Bottle Gnomes -------------------------------------------------------------------------------
def test_bottle_gnomes_sacrifice_gain_3_life():
    """Bottle Gnomes: "Sacrifice Bottle Gnomes: You gain 3 life." The sacrifice is a cost
    (2007 CR 409.1f): Gnomes is in the graveyard before the ability resolves. No {T} in the cost,
    so a summoning-sick Gnomes can use it."""
    s = scenario({"in_play": [{"card": "Bottle Gnomes", "summoning_sick": True}], "life": 10}, {})
    s.do("activate Bottle Gnomes")
    s.assert_in_play("Bottle Gnomes", False)
    assert labels(s, 0, "graveyard") == ["Bottle Gnomes"]
    s.assert_life(0, 10)
    s.resolve()
    s.assert_life(0, 13)


def test_bottle_gnomes_in_response_to_shock():
    """Bottle Gnomes' ability is played at instant speed (2007 CR 409): in response to the
    opponent's Shock on it. Shock's only target is gone, so it is countered on resolution
    (2007 CR 413.2a); player 0 gains 3."""
    s = scenario({"in_play": ["Bottle Gnomes"]},
                 {"hand": ["Shock"], "in_play": ["Mountain"]}, active_player=1)
    s.do("play Shock", "target Bottle Gnomes")
    s.pass_priority()
    assert s.game.decision.player == 0
    s.do("activate Bottle Gnomes")
    s.resolve()
    s.assert_life(0, 23)
    s.resolve()
    s.assert_life(0, 23)
    s.assert_life(1, 20)
    assert labels(s, 1, "graveyard") == ["Shock"]
    assert any("Shock is countered" in line for line in s.game.log)


def test_bottle_gnomes_sacrificed_after_combat_damage_on_the_stack_still_deals_it():
    """2007 combat damage on the stack (RULES_2007.md §6; 2007 CR 310.4): Bottle Gnomes blocks
    Raging Goblin; with damage on the stack its controller sacrifices it for 3 life. The Gnomes'
    assigned 1 damage is still dealt and kills the Goblin; the Goblin's damage to the Gnomes is not
    dealt (no longer in play)."""
    s = scenario({"in_play": ["Raging Goblin"]}, {"in_play": ["Bottle Gnomes"]}, step="beginning_of_combat")
    attack(s, "Raging Goblin")
    block(s, ("Raging Goblin", "Bottle Gnomes"))
    s.pass_priority(2)
    assert [x.kind for x in s.game.stack] == ["combat_damage"]
    s.pass_priority()
    s.do("activate Bottle Gnomes")
    s.resolve()
    s.assert_life(1, 23)
    s.resolve()
    s.assert_in_play("Raging Goblin", False)
    assert labels(s, 0, "graveyard") == ["Raging Goblin"]
    assert labels(s, 1, "graveyard") == ["Bottle Gnomes"]
    s.assert_life(0, 20)


def test_bottle_gnomes_stolen_gains_its_controller_life_and_goes_to_owners_graveyard():
    """"Sacrifice Bottle Gnomes: You gain 3 life": "you" is the ability's controller. Player 0
    takes the Gnomes with Threaten and sacrifices it: player 0 gains 3, and the card goes to its
    owner's graveyard (2007 CR 217.1a)."""
    s = scenario({"hand": ["Threaten"], "in_play": ["Mountain"] * 3}, {"in_play": ["Bottle Gnomes"]})
    s.do("play Threaten", "target Bottle Gnomes")
    s.resolve()
    s.do("activate Bottle Gnomes")
    s.resolve()
    s.assert_life(0, 23)
    s.assert_life(1, 20)
    assert labels(s, 1, "graveyard") == ["Bottle Gnomes"]
    assert labels(s, 0, "graveyard") == ["Threaten"]


def test_bottle_gnomes_is_an_artifact_creature():
    """Bottle Gnomes is a colorless artifact creature: Terror ("target nonartifact, nonblack
    creature") can't target it."""
    s = scenario({"hand": ["Terror"], "in_play": ["Swamp", "Swamp"]}, {"in_play": ["Bottle Gnomes"]})
    assert "play Terror" not in s.options()
    s.assert_pt("Bottle Gnomes", 1, 3)


# -- Consume Spirit ------------------------------------------------------------------------------
def test_consume_spirit_x_damage_and_x_life():
    """Consume Spirit: "Consume Spirit deals X damage to target creature or player and you gain X
    life." {X}{1}{B} with X=3 and five Swamps."""
    s = scenario({"hand": ["Consume Spirit"], "in_play": ["Swamp"] * 5, "life": 10}, {})
    s.do("play Consume Spirit", "X=3", "target player 1")
    s.resolve()
    s.assert_life(1, 17)
    s.assert_life(0, 13)
    assert all(p.tapped for p in s.game.permanents)


def test_consume_spirit_spend_only_black_mana_on_x():
    """Consume Spirit: "Spend only black mana on X." Three Swamps and two Mountains pay {1}{B}
    plus at most two black for X (2007 CR 409.1c, 409.1f); X=3 is not offered. With X=2 the
    generic {1} comes from a Mountain."""
    s = scenario({"hand": ["Consume Spirit"], "in_play": ["Swamp"] * 3 + ["Mountain"] * 2}, {})
    s.do("play Consume Spirit")
    assert s.options() == ["X=0", "X=1", "X=2"]
    with pytest.raises(IllegalActionError):
        s.do("X=3")
    s.do("X=2", "target player 1")
    s.resolve()
    s.assert_life(1, 18)
    s.assert_life(0, 22)
    assert [p.card.label for p in s.game.permanents if not p.tapped] == ["Mountain#2"]


def test_consume_spirit_floating_red_mana_cant_pay_x():
    """"Spend only black mana on X": floating red mana pays only the generic part. One Swamp plus
    RR floating: X can only be 0."""
    s = scenario({"hand": ["Consume Spirit"], "in_play": ["Swamp"], "mana_pool": "RR"}, {})
    s.do("play Consume Spirit")
    assert s.options() == ["X=0"]


def test_consume_spirit_kills_creature_and_still_gains_x_when_damage_is_prevented():
    """Consume Spirit on a creature: X damage destroys it, controller gains X. The life gain is
    X, not the damage dealt (Gatherer ruling on Consume Spirit): against Cho-Manno, whose damage
    is all prevented, the caster still gains X."""
    s = scenario({"hand": ["Consume Spirit", "Consume Spirit"], "in_play": ["Swamp"] * 8},
                 {"in_play": ["Hill Giant", "Cho-Manno, Revolutionary"]})
    s.do("play Consume Spirit", "X=3", "target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    s.assert_life(0, 23)
    s.do("play Consume Spirit#2", "X=1", "target Cho-Manno, Revolutionary")
    s.resolve()
    s.assert_in_play("Cho-Manno, Revolutionary")
    s.assert_damage("Cho-Manno, Revolutionary", 0)
    s.assert_life(0, 24)


def test_consume_spirit_illegal_target_no_life():
    """If Consume Spirit's only target is illegal on resolution, the spell is countered and none
    of it happens (2007 CR 413.2a): no life gained."""
    s = scenario({"hand": ["Consume Spirit"], "in_play": ["Swamp"] * 4},
                 {"hand": ["Unsummon"], "in_play": ["Hill Giant", "Island"]})
    s.do("play Consume Spirit", "X=2", "target Hill Giant")
    s.pass_priority()
    s.do("play Unsummon", "target Hill Giant")
    s.resolve()
    s.resolve()
    s.assert_life(0, 20)
    assert labels(s, 0, "graveyard") == ["Consume Spirit"]
    assert labels(s, 1, "hand") == ["Hill Giant"]


# -- Cruel Edict ---------------------------------------------------------------------------------
def test_cruel_edict_opponent_chooses_and_sacrifices():
    """Cruel Edict: "Target opponent sacrifices a creature." The opponent is the only legal
    target (2007 CR 409.1d), and that player chooses which of their creatures to sacrifice."""
    s = scenario({"hand": ["Cruel Edict"], "in_play": ["Swamp", "Swamp", "Grizzly Bears"]},
                 {"in_play": ["Hill Giant", "Drudge Skeletons", "Swamp"]})
    s.do("play Cruel Edict")
    assert s.options() == ["target player 1"]
    with pytest.raises(IllegalActionError):
        s.do("target player 0")
    s.do("target player 1")
    s.resolve()
    assert kind(s) is DecisionKind.CHOOSE_CARDS
    assert s.game.decision.player == 1
    assert sorted(s.options()) == ["sacrifice Drudge Skeletons", "sacrifice Hill Giant"]
    s.do("sacrifice Hill Giant")
    s.assert_in_play("Hill Giant", False)
    s.assert_in_play("Drudge Skeletons")
    s.assert_in_play("Grizzly Bears")
    assert labels(s, 1, "graveyard") == ["Hill Giant"]


def test_cruel_edict_sacrifice_ignores_regeneration():
    """Sacrificing is not destroying: a regenerating creature is still sacrificed
    (2007 rulebook, "Sacrifice"; 2007 CR 419.6b covers only destruction)."""
    s = scenario({"hand": ["Cruel Edict"], "in_play": ["Swamp", "Swamp"]},
                 {"in_play": ["Drudge Skeletons", "Swamp"]})
    s.do("play Cruel Edict", "target player 1")
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    assert s.perm("Drudge Skeletons").regen_shields == 1
    s.resolve()
    assert s.options() == ["sacrifice Drudge Skeletons"]
    s.do("sacrifice Drudge Skeletons")
    s.assert_in_play("Drudge Skeletons", False)
    assert not any("regenerates" in line for line in s.game.log)
    assert labels(s, 1, "graveyard") == ["Drudge Skeletons"]


def test_cruel_edict_only_creatures_the_opponent_controls():
    """Cruel Edict: the opponent sacrifices a creature *they control* (2012 701.14a): the Hill
    Giant player 0 took with Threaten can't be chosen, so player 1 must sacrifice Grizzly Bears."""
    s = scenario({"hand": ["Threaten", "Cruel Edict"], "in_play": ["Mountain"] * 3 + ["Swamp"] * 2},
                 {"in_play": ["Hill Giant", "Grizzly Bears"]})
    s.do("play Threaten", "target Hill Giant")
    s.resolve()
    s.do("play Cruel Edict", "target player 1")
    s.resolve()
    assert s.game.decision.player == 1
    assert s.options() == ["sacrifice Grizzly Bears"]
    s.do("sacrifice Grizzly Bears")
    s.assert_in_play("Hill Giant")
    assert labels(s, 1, "graveyard") == ["Grizzly Bears"]


def test_cruel_edict_opponent_without_creatures():
    """Cruel Edict targets the opponent even with no creatures; it then does nothing."""
    s = scenario({"hand": ["Cruel Edict"], "in_play": ["Swamp", "Swamp", "Grizzly Bears"]}, {})
    s.do("play Cruel Edict", "target player 1")
    s.resolve()
    assert kind(s) is DecisionKind.PRIORITY
    s.assert_in_play("Grizzly Bears")
    assert labels(s, 0, "graveyard") == ["Cruel Edict"]


def test_cruel_edict_is_a_sorcery():
    """Cruel Edict is a sorcery (2012 307.1): not playable in the opponent's turn."""
    s = scenario({"hand": ["Cruel Edict"], "in_play": ["Swamp", "Swamp"]},
                 {"in_play": ["Hill Giant"]}, active_player=1)
    s.pass_priority()
    assert "play Cruel Edict" not in s.options()


# -- Demon's Horn --------------------------------------------------------------------------------
def test_demons_horn_any_players_black_spell():
    """Demon's Horn: "Whenever a player plays a black spell, you may gain 1 life." The trigger
    goes on the stack above the spell and resolves first (Gatherer ruling); it triggers for the
    opponent's black spells too, and only the Horn's controller gains."""
    s = scenario({"in_play": ["Demon's Horn"]},
                 {"hand": ["Terror"], "in_play": ["Swamp", "Swamp", "Grizzly Bears"]}, active_player=1)
    s.do("play Terror", "target Grizzly Bears")
    assert [x.label for x in s.game.stack] == ["Terror", "Demon's Horn"]
    s.resolve()
    assert kind(s) is DecisionKind.YES_NO
    assert s.game.decision.player == 0
    s.do("yes")
    s.assert_life(0, 21)
    s.assert_life(1, 20)
    assert [x.label for x in s.game.stack] == ["Terror"]


def test_demons_horn_may_decline_and_ignores_other_colors_and_abilities():
    """Demon's Horn's "may" can be declined. A red spell doesn't trigger it, and neither does an
    activated ability of a black permanent (not a spell; RULES_2007.md §1)."""
    s = scenario({"hand": ["Unholy Strength", "Shock"],
                  "in_play": ["Demon's Horn", "Looming Shade", "Swamp", "Swamp", "Mountain"]}, {})
    s.do("play Unholy Strength", "target Looming Shade")
    s.resolve()
    s.do("no")
    s.resolve()
    s.assert_life(0, 20)
    s.do("play Shock", "target player 1")
    assert len(s.game.stack) == 1
    s.resolve()
    s.do("activate Looming Shade")
    assert len(s.game.stack) == 1
    s.resolve()
    s.assert_life(0, 20)
    s.assert_pt("Looming Shade", 4, 3)


# -- Diabolic Tutor ------------------------------------------------------------------------------
def test_diabolic_tutor_any_card_to_hand_then_shuffle():
    """Diabolic Tutor: "Search your library for a card and put that card into your hand. Then
    shuffle your library." Any card (no quality, so the search can't fail while the library has
    cards: 2012 701.15b), then a shuffle."""
    s = scenario({"hand": ["Diabolic Tutor"], "library": ["Forest", "Terror", "Swamp", "Hill Giant"],
                  "in_play": ["Swamp"] * 4}, {})
    s.do("play Diabolic Tutor")
    s.resolve()
    assert kind(s) is DecisionKind.CHOOSE_CARDS
    assert sorted(s.options()) == ["find Forest", "find Hill Giant", "find Swamp", "find Terror"]
    s.do("find Terror")
    assert labels(s, 0, "hand") == ["Terror"]
    assert sorted(labels(s, 0, "library")) == ["Forest", "Hill Giant", "Swamp"]
    assert labels(s, 0, "graveyard") == ["Diabolic Tutor"]
    assert "player 0 shuffles their library" in s.game.log


def test_diabolic_tutor_empty_library():
    """Diabolic Tutor with an empty library finds nothing and doesn't lose the game (no draw)."""
    s = scenario({"hand": ["Diabolic Tutor"], "in_play": ["Swamp"] * 4}, {})
    s.do("play Diabolic Tutor")
    s.resolve()
    assert kind(s) is DecisionKind.PRIORITY
    assert not s.game.is_over
    assert labels(s, 0, "hand") == []


def test_diabolic_tutor_is_a_sorcery():
    """Diabolic Tutor is a sorcery (2012 307.1): not with a spell on the stack."""
    s = scenario({"hand": ["Diabolic Tutor", "Shock"], "library": ["Forest"],
                  "in_play": ["Swamp"] * 4 + ["Mountain"]}, {})
    s.do("play Shock", "target player 1")
    assert "play Diabolic Tutor" not in s.options()


# -- Dross Crocodile, Mass of Ghouls -------------------------------------------------------------
def test_dross_crocodile_vanilla_5_1():
    """Dross Crocodile: a 5/1 creature with no abilities; unblocked it deals 5, and 1 damage
    destroys it (2007 CR 420.5c)."""
    s = scenario({"in_play": ["Dross Crocodile"]},
                 {"hand": ["Shock"], "in_play": ["Mountain"]}, step="beginning_of_combat")
    s.assert_pt("Dross Crocodile", 5, 1)
    assert s.perm("Dross Crocodile").subtypes == ("Zombie", "Crocodile")
    attack(s, "Dross Crocodile")
    s.advance_to("end_of_combat")
    s.assert_life(1, 15)
    s.pass_priority()
    s.do("play Shock", "target Dross Crocodile")
    s.resolve()
    s.assert_in_play("Dross Crocodile", False)


def test_mass_of_ghouls_vanilla_5_3_trades_with_hill_giant():
    """Mass of Ghouls: a 5/3 creature with no abilities. Blocked by Hill Giant (3/3): both deal
    lethal combat damage (2007 CR 310) and both are destroyed."""
    s = scenario({"in_play": ["Mass of Ghouls"]}, {"in_play": ["Hill Giant"]}, step="beginning_of_combat")
    s.assert_pt("Mass of Ghouls", 5, 3)
    attack(s, "Mass of Ghouls")
    block(s, ("Mass of Ghouls", "Hill Giant"))
    s.advance_to("end_of_combat")
    s.assert_in_play("Mass of Ghouls", False)
    s.assert_in_play("Hill Giant", False)
    s.assert_life(1, 20)


# -- Essence Drain -------------------------------------------------------------------------------
def test_essence_drain_player_and_creature():
    """Essence Drain: "Essence Drain deals 3 damage to target creature or player and you gain 3
    life." """
    s = scenario({"hand": ["Essence Drain", "Essence Drain"], "in_play": ["Swamp"] * 10},
                 {"in_play": ["Hill Giant"]})
    s.do("play Essence Drain", "target player 1")
    s.resolve()
    s.assert_life(1, 17)
    s.assert_life(0, 23)
    s.do("play Essence Drain#2", "target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    s.assert_life(0, 26)


def test_essence_drain_countered_on_illegal_target():
    """Essence Drain whose target creature left play is countered on resolution (2007 CR 413.2a;
    Gatherer ruling): no life gained."""
    s = scenario({"hand": ["Essence Drain"], "in_play": ["Swamp"] * 5},
                 {"hand": ["Unsummon"], "in_play": ["Hill Giant", "Island"]})
    s.do("play Essence Drain", "target Hill Giant")
    s.pass_priority()
    s.do("play Unsummon", "target Hill Giant")
    s.resolve()
    s.resolve()
    s.assert_life(0, 20)


# -- Gravedigger ---------------------------------------------------------------------------------
def test_gravedigger_returns_creature_card_from_own_graveyard():
    """Gravedigger: "When Gravedigger comes into play, you may return target creature card from
    your graveyard to your hand." Only creature cards in *your* graveyard are targets; the "may"
    is chosen on resolution (2012 603.5)."""
    s = scenario({"hand": ["Gravedigger"], "graveyard": ["Grizzly Bears", "Terror", "Hill Giant"],
                  "in_play": ["Swamp"] * 4},
                 {"graveyard": ["Craw Wurm"]})
    s.do("play Gravedigger")
    s.resolve()
    assert kind(s) is DecisionKind.TARGET
    assert sorted(s.options()) == ["target Grizzly Bears", "target Hill Giant"]
    s.do("target Hill Giant")
    s.resolve()
    assert kind(s) is DecisionKind.YES_NO
    s.do("yes")
    assert labels(s, 0, "hand") == ["Hill Giant"]
    assert labels(s, 0, "graveyard") == ["Grizzly Bears", "Terror"]
    assert labels(s, 1, "graveyard") == ["Craw Wurm"]
    s.assert_in_play("Gravedigger")


def test_gravedigger_may_decline():
    """Gravedigger's return is optional ("you may"): answering no leaves the card in the
    graveyard."""
    s = scenario({"hand": ["Gravedigger"], "graveyard": ["Grizzly Bears"], "in_play": ["Swamp"] * 4}, {})
    s.do("play Gravedigger")
    s.resolve()
    s.do("target Grizzly Bears")
    s.resolve()
    s.do("no")
    assert labels(s, 0, "hand") == []
    assert labels(s, 0, "graveyard") == ["Grizzly Bears"]


def test_gravedigger_without_creature_cards_in_graveyard():
    """With no creature card in its controller's graveyard, Gravedigger's trigger has no legal
    target and is removed from the stack (2012 603.3d); the opponent's graveyard doesn't count."""
    s = scenario({"hand": ["Gravedigger"], "graveyard": ["Terror"], "in_play": ["Swamp"] * 4},
                 {"graveyard": ["Grizzly Bears"]})
    s.do("play Gravedigger")
    s.resolve()
    assert kind(s) is DecisionKind.PRIORITY
    assert not s.game.stack
    assert labels(s, 1, "graveyard") == ["Grizzly Bears"]
    assert labels(s, 0, "hand") == []


# -- Looming Shade -------------------------------------------------------------------------------
def test_looming_shade_pumps_per_black_mana_until_end_of_turn():
    """Looming Shade: "{B}: Looming Shade gets +1/+1 until end of turn." No limit per turn; only
    black mana pays it; the bonus ends in the cleanup step (2012 514.2)."""
    s = scenario({"in_play": ["Looming Shade", "Swamp", "Swamp", "Swamp", "Mountain"]}, {})
    for _ in range(3):
        s.do("activate Looming Shade")
        s.resolve()
    s.assert_pt("Looming Shade", 4, 4)
    assert "activate Looming Shade" not in s.options()  # only the Mountain is left
    s.advance_to("upkeep", active=1)
    s.assert_pt("Looming Shade", 1, 1)


def test_looming_shade_pump_after_damage_on_stack_raises_toughness_only():
    """2007 combat damage on the stack (RULES_2007.md §6): Looming Shade blocks Hill Giant
    (3/3); after damage is assigned (Shade 1, Giant 3) the Shade pumps three times: it survives
    as a 4/4 with 3 damage and still deals only the 1 damage it assigned."""
    s = scenario({"in_play": ["Hill Giant"]},
                 {"in_play": ["Looming Shade", "Swamp", "Swamp", "Swamp"]}, step="beginning_of_combat")
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Looming Shade"))
    s.pass_priority(2)
    assert s.game.step == "combat_damage" and s.game.stack
    for _ in range(3):
        s.pass_priority()  # player 0 passes; player 1 pumps the Shade
        s.do("activate Looming Shade")
        s.resolve()
    s.assert_pt("Looming Shade", 4, 4)
    assert [x.kind for x in s.game.stack] == ["combat_damage"]
    s.resolve()  # combat damage
    s.assert_in_play("Looming Shade")
    s.assert_damage("Looming Shade", 3)
    s.assert_damage("Hill Giant", 1)


# -- Mind Rot ------------------------------------------------------------------------------------
def test_mind_rot_target_player_discards_two_of_their_choice():
    """Mind Rot: "Target player discards two cards." The discarding player chooses
    (2012 701.7b)."""
    s = scenario({"hand": ["Mind Rot"], "in_play": ["Swamp"] * 3},
                 {"hand": ["Shock", "Giant Growth", "Forest"]})
    s.do("play Mind Rot", "target player 1")
    s.resolve()
    assert kind(s) is DecisionKind.CHOOSE_CARDS
    assert s.game.decision.player == 1
    s.do("discard Forest", "discard Shock")
    assert labels(s, 1, "hand") == ["Giant Growth"]
    assert sorted(labels(s, 1, "graveyard")) == ["Forest", "Shock"]
    assert labels(s, 0, "graveyard") == ["Mind Rot"]


def test_mind_rot_one_card_and_self_target():
    """Mind Rot with only one card in the target player's hand discards that one; "target player"
    includes its controller."""
    s = scenario({"hand": ["Mind Rot", "Mind Rot", "Terror"], "in_play": ["Swamp"] * 6},
                 {"hand": ["Shock"]})
    s.do("play Mind Rot")
    assert sorted(s.options()) == ["target player 0", "target player 1"]
    s.do("target player 1")
    s.resolve()
    assert s.game.decision.player == 1
    assert s.options() == ["discard Shock"]
    s.do("discard Shock")
    assert labels(s, 1, "hand") == []
    assert labels(s, 1, "graveyard") == ["Shock"]
    s.do("play Mind Rot#2", "target player 0")
    s.resolve()
    assert s.options() == ["discard Terror"]
    s.do("discard Terror")
    assert labels(s, 0, "hand") == []
    assert labels(s, 0, "graveyard") == ["Mind Rot", "Terror", "Mind Rot#2"]


def test_mind_rot_is_a_sorcery():
    """Mind Rot is a sorcery (2012 307.1): not in combat."""
    s = scenario({"hand": ["Mind Rot"], "in_play": ["Swamp"] * 3}, {"hand": ["Shock"]},
                 step="beginning_of_combat")
    assert "play Mind Rot" not in s.options()


# -- Mortivore -----------------------------------------------------------------------------------
def test_mortivore_counts_creature_cards_in_all_graveyards():
    """Mortivore: "Mortivore's power and toughness are each equal to the number of creature cards
    in all graveyards." Both graveyards count; noncreature cards don't (an artifact creature card
    does), nor do creature cards in a library or hand; the value follows the graveyards as they
    change (2007 CR 418.5, layer 6a)."""
    s = scenario({"hand": ["Shock"], "graveyard": ["Grizzly Bears", "Terror", "Bottle Gnomes"],
                  "library": ["Hill Giant"], "in_play": ["Mortivore", "Mountain"]},
                 {"graveyard": ["Hill Giant", "Swamp"], "hand": ["Craw Wurm"], "in_play": ["Raging Goblin"]})
    s.assert_pt("Mortivore", 3, 3)
    s.do("play Shock", "target Raging Goblin")
    s.resolve()
    s.assert_pt("Mortivore", 4, 4)


def test_mortivore_layer_6a_then_6b_pump_then_6d():
    """RULES_2007.md §9: Mortivore's characteristic-setting ability applies in layer 6a, a
    resolved Giant Growth in 6b and Ascendant Evincar's static "+1/+1" in 6d. Two creature cards
    in graveyards: 2/2 (6a) +1/+1 = 3/3; Giant Growth: 2+3+1 = 6/6. A third creature card reaches
    a graveyard: the 6a value changes beneath the pump, 3+3+1 = 7/7. The pump ends at cleanup:
    3+1 = 4/4."""
    s = scenario({"hand": ["Giant Growth", "Shock"], "graveyard": ["Grizzly Bears", "Hill Giant"],
                  "in_play": ["Mortivore", "Ascendant Evincar", "Forest", "Mountain"]},
                 {"in_play": ["Grizzly Bears"]})
    s.assert_pt("Mortivore", 3, 3)
    s.assert_pt("Grizzly Bears#2", 1, 1)
    s.do("play Giant Growth", "target Mortivore")
    s.resolve()
    s.assert_pt("Mortivore", 6, 6)
    s.do("play Shock", "target Grizzly Bears#2")
    s.resolve()
    assert labels(s, 1, "graveyard") == ["Grizzly Bears#2"]
    s.assert_pt("Mortivore", 7, 7)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Mortivore", 4, 4)


def test_mortivore_setting_ability_and_pump_order():
    """RULES_2007.md §9 (layers): Mortivore's characteristic-setting ability (6a) is applied
    before Giant Growth (6b), and is recomputed each time: with one creature card in each
    graveyard Mortivore is 2/2, Giant Growth makes it 5/5, and when the opponent's Raging Goblin
    is put into a graveyard it becomes 6/6 (the pump still applies on top of the new 6a value).
    At end of turn the pump ends: 3/3."""
    s = scenario({"hand": ["Giant Growth", "Shock"], "graveyard": ["Grizzly Bears"],
                  "in_play": ["Mortivore", "Forest", "Mountain"]},
                 {"graveyard": ["Hill Giant"], "in_play": ["Raging Goblin"]})
    s.assert_pt("Mortivore", 2, 2)
    s.do("play Giant Growth", "target Mortivore")
    s.resolve()
    s.assert_pt("Mortivore", 5, 5)
    s.do("play Shock", "target Raging Goblin")
    s.resolve()
    s.assert_pt("Mortivore", 6, 6)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Mortivore", 3, 3)


def test_mortivore_grows_when_creature_cards_are_discarded():
    """Mortivore counts creature cards however they reach a graveyard: Mind Rot makes the opponent
    discard Hill Giant and Shock; only the Giant counts (1 -> 2)."""
    s = scenario({"hand": ["Mind Rot"], "graveyard": ["Grizzly Bears"],
                  "in_play": ["Mortivore"] + ["Swamp"] * 3},
                 {"hand": ["Hill Giant", "Shock"]})
    s.assert_pt("Mortivore", 1, 1)
    s.do("play Mind Rot", "target player 1")
    s.resolve()
    s.do("discard Hill Giant", "discard Shock")
    s.assert_pt("Mortivore", 2, 2)


def test_mortivore_regenerates():
    """Mortivore: "{B}: Regenerate Mortivore." A shield replaces destruction by lethal damage:
    Mortivore is tapped, its damage removed (2007 CR 419.6b)."""
    s = scenario({"in_play": ["Mortivore", "Swamp"], "graveyard": ["Grizzly Bears", "Hill Giant"]},
                 {"hand": ["Shock"], "in_play": ["Mountain"]})
    s.do("activate Mortivore")
    s.resolve()
    s.pass_priority()
    s.do("play Shock", "target Mortivore")
    s.resolve()
    s.assert_in_play("Mortivore")
    assert s.perm("Mortivore").tapped
    s.assert_damage("Mortivore", 0)
    s.assert_pt("Mortivore", 2, 2)


def test_mortivore_dies_without_shield_and_then_counts():
    """Without a regeneration shield Mortivore with lethal damage is destroyed (2007 CR 420.5c)
    and is itself a creature card in a graveyard."""
    s = scenario({"in_play": ["Mortivore", "Looming Shade"], "graveyard": ["Grizzly Bears", "Hill Giant"]},
                 {"hand": ["Shock"], "in_play": ["Mountain"]}, active_player=1)
    s.do("play Shock", "target Mortivore")
    s.resolve()
    s.assert_in_play("Mortivore", False)
    assert labels(s, 0, "graveyard") == ["Grizzly Bears", "Hill Giant", "Mortivore"]


def test_mortivore_zero_toughness_ignores_regeneration():
    """A creature with toughness 0 is put into the graveyard as a state-based effect; that isn't
    destruction, so regeneration can't save it (2007 CR 420.5b). Mortivore with a shield and one
    creature card in graveyards: Gravedigger returns that card, Mortivore becomes 0/0 and dies."""
    s = scenario({"hand": ["Gravedigger"], "graveyard": ["Grizzly Bears"],
                  "in_play": ["Mortivore"] + ["Swamp"] * 5}, {})
    s.assert_pt("Mortivore", 1, 1)
    s.do("activate Mortivore")
    s.resolve()
    assert s.perm("Mortivore").regen_shields == 1
    s.do("play Gravedigger")
    s.resolve()
    s.do("target Grizzly Bears")
    s.resolve()
    s.do("yes")
    s.assert_in_play("Mortivore", False)
    assert labels(s, 0, "graveyard") == ["Mortivore"]
    assert labels(s, 0, "hand") == ["Grizzly Bears"]


def test_mortivore_regeneration_needs_black_mana():
    """Mortivore's regeneration costs {B}: a Mountain can't pay it."""
    s = scenario({"in_play": ["Mortivore", "Mountain"], "graveyard": ["Grizzly Bears"]}, {})
    assert "activate Mortivore" not in s.options()


# -- Terror --------------------------------------------------------------------------------------
def test_terror_destroys_and_cant_be_regenerated():
    """Terror: "Destroy target nonartifact, nonblack creature. It can't be regenerated." A
    regeneration shield (set directly: no nonblack creature in the pool can regenerate) doesn't
    save it (2007 CR 419.6b)."""
    s = scenario({"hand": ["Terror"], "in_play": ["Swamp", "Swamp"]}, {"in_play": ["Hill Giant"]})
    s.perm("Hill Giant").regen_shields = 1
    s.do("play Terror", "target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    assert labels(s, 1, "graveyard") == ["Hill Giant"]


def test_terror_targets_only_nonartifact_nonblack_creatures():
    """Terror's target restriction: black creatures (Drudge Skeletons, Mortivore, the caster's own
    Looming Shade) and artifact creatures (Bottle Gnomes) aren't legal targets."""
    s = scenario({"hand": ["Terror"], "in_play": ["Swamp", "Swamp", "Looming Shade", "Grizzly Bears"]},
                 {"in_play": ["Drudge Skeletons", "Bottle Gnomes", "Hill Giant",
                              {"card": "Mortivore"}], "graveyard": ["Craw Wurm"]})
    s.do("play Terror")
    assert sorted(s.options()) == ["target Grizzly Bears", "target Hill Giant"]


def test_terror_at_instant_speed_in_combat():
    """Terror is an instant: the defending player plays it during the opponent's combat."""
    s = scenario({"in_play": ["Hill Giant"]}, {"hand": ["Terror"], "in_play": ["Swamp", "Swamp"]},
                 step="beginning_of_combat")
    attack(s, "Hill Giant")
    s.pass_priority()
    assert s.game.decision.player == 1
    s.do("play Terror", "target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    s.advance_to("end_of_combat")
    s.assert_life(1, 20)


# -- Thrull Surgeon ------------------------------------------------------------------------------
def test_thrull_surgeon_controller_chooses_the_discard():
    """Thrull Surgeon: "{1}{B}, Sacrifice Thrull Surgeon: Look at target player's hand and choose
    a card from it. That player discards that card." The sacrifice is part of the cost; the
    Surgeon's controller chooses the card."""
    s = scenario({"in_play": ["Thrull Surgeon", "Swamp", "Swamp"]},
                 {"hand": ["Shock", "Giant Growth", "Forest"]})
    s.do("activate Thrull Surgeon")
    assert sorted(s.options()) == ["target player 0", "target player 1"]
    s.do("target player 1")
    assert labels(s, 0, "graveyard") == ["Thrull Surgeon"]
    s.resolve()
    assert kind(s) is DecisionKind.CHOOSE_CARDS
    assert s.game.decision.player == 0
    assert sorted(s.options()) == ["discard Forest", "discard Giant Growth", "discard Shock"]
    s.do("discard Giant Growth")
    assert labels(s, 1, "hand") == ["Shock", "Forest"]
    assert labels(s, 1, "graveyard") == ["Giant Growth"]


def test_thrull_surgeon_only_as_a_sorcery():
    """Thrull Surgeon: "Play this ability only any time you could play a sorcery." Not in the
    opponent's turn, not in combat, not with a spell on the stack (2012 307.1)."""
    opp_turn = scenario({"in_play": ["Thrull Surgeon", "Swamp", "Swamp"]}, {"hand": ["Shock"]},
                        active_player=1)
    opp_turn.pass_priority()
    assert opp_turn.game.decision.player == 0
    assert "activate Thrull Surgeon" not in opp_turn.options()
    combat = scenario({"in_play": ["Thrull Surgeon", "Swamp", "Swamp"]}, {"hand": ["Shock"]},
                      step="beginning_of_combat")
    assert "activate Thrull Surgeon" not in combat.options()
    stack = scenario({"hand": ["Shock"], "in_play": ["Thrull Surgeon", "Swamp", "Swamp", "Mountain"]},
                     {"hand": ["Shock"]})
    assert "activate Thrull Surgeon" in stack.options()
    stack.do("play Shock", "target player 1")
    assert "activate Thrull Surgeon" not in stack.options()


def test_thrull_surgeon_summoning_sick_and_empty_hand():
    """No {T} in its cost, so a summoning-sick Surgeon can use the ability; against an empty hand
    it resolves doing nothing."""
    s = scenario({"in_play": [{"card": "Thrull Surgeon", "summoning_sick": True}, "Swamp", "Swamp"]}, {})
    s.do("activate Thrull Surgeon", "target player 1")
    s.resolve()
    assert kind(s) is DecisionKind.PRIORITY
    assert not s.game.stack
    assert labels(s, 0, "graveyard") == ["Thrull Surgeon"]


# -- Unholy Strength -----------------------------------------------------------------------------
def test_unholy_strength_plus_2_plus_1():
    """Unholy Strength: "Enchant creature ... Enchanted creature gets +2/+1." Any creature is a
    legal target, the opponent's too (the Aura stays under its caster's control); the +1
    toughness lets Grizzly Bears survive Shock."""
    s = scenario({"hand": ["Unholy Strength", "Unholy Strength"],
                  "in_play": ["Swamp", "Swamp", "Grizzly Bears"]},
                 {"hand": ["Shock"], "in_play": ["Hill Giant", "Mountain"]})
    s.do("play Unholy Strength")
    assert sorted(s.options()) == ["target Grizzly Bears", "target Hill Giant"]
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 4, 3)
    s.do("play Unholy Strength#2", "target Hill Giant")
    s.resolve()
    s.assert_pt("Hill Giant", 5, 4)
    assert s.perm("Unholy Strength#2").controller == 0
    s.pass_priority()
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears")  # 3 toughness, 2 damage
    s.assert_damage("Grizzly Bears", 2)


def test_unholy_strength_goes_to_graveyard_with_its_creature():
    """When the enchanted creature dies, Unholy Strength is put into its owner's graveyard as a
    state-based effect (2007 CR 420.5d)."""
    s = scenario({"in_play": ["Swamp", {"card": "Grizzly Bears", "id": "bears"},
                              {"card": "Unholy Strength", "attached_to": "bears"}]},
                 {"hand": ["Terror"], "in_play": ["Swamp", "Swamp"]}, active_player=1)
    s.assert_pt("Grizzly Bears", 4, 3)
    s.do("play Terror", "target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Unholy Strength", False)
    assert sorted(labels(s, 0, "graveyard")) == ["Grizzly Bears", "Unholy Strength"]


def test_unholy_strength_needs_a_creature_target():
    """An Aura spell targets (Enchant creature; 2012 303.4a): with no creature in play Unholy
    Strength can't be played."""
    s = scenario({"hand": ["Unholy Strength"], "in_play": ["Swamp"]}, {})
    assert "play Unholy Strength" not in s.options()


# -- Vampire Bats --------------------------------------------------------------------------------
def test_vampire_bats_no_more_than_twice_each_turn():
    """Vampire Bats: "{B}: Vampire Bats gets +1/+0 until end of turn. Play this ability no more
    than twice each turn." The third activation isn't offered even with mana left (even with the
    earlier ones still on the stack); the count starts again next turn."""
    s = scenario({"in_play": ["Vampire Bats"] + ["Swamp"] * 4, "library": ["Swamp"] * 3},
                 {"library": ["Swamp"] * 3}, step="upkeep")
    s.do("activate Vampire Bats", "activate Vampire Bats")
    assert "activate Vampire Bats" not in s.options()
    with pytest.raises(IllegalActionError):
        s.do("activate Vampire Bats")
    s.resolve()
    s.resolve()
    s.assert_pt("Vampire Bats", 2, 1)
    assert "activate Vampire Bats" not in s.options()
    s.advance_to("upkeep", active=1)
    s.assert_pt("Vampire Bats", 0, 1)
    s.advance_to("upkeep", active=0)
    s.do("activate Vampire Bats")
    s.resolve()
    s.assert_pt("Vampire Bats", 1, 1)


def test_vampire_bats_limit_counts_on_opponents_turn_separately():
    """The "twice each turn" limit counts per turn, whoever's it is: twice in the opponent's end
    of turn step, then available again in your own next turn."""
    s = scenario({"in_play": ["Vampire Bats"] + ["Swamp"] * 4, "library": ["Swamp"] * 3},
                 {"library": ["Swamp"] * 3}, active_player=1, step="end_of_turn")
    s.pass_priority()
    assert s.game.decision.player == 0
    s.do("activate Vampire Bats")
    s.resolve()
    s.pass_priority()
    s.do("activate Vampire Bats")
    s.resolve()
    s.pass_priority()
    assert "activate Vampire Bats" not in s.options()
    s.assert_pt("Vampire Bats", 2, 1)
    s.advance_to("upkeep", active=0)
    s.assert_pt("Vampire Bats", 0, 1)
    assert "activate Vampire Bats" in s.options()


def test_vampire_bats_flying():
    """Vampire Bats has flying: Grizzly Bears can't block it, Giant Spider (reach) can."""
    s = scenario({"in_play": ["Vampire Bats", "Swamp"]}, {"in_play": ["Grizzly Bears", "Giant Spider"]},
                 step="beginning_of_combat")
    attack(s, "Vampire Bats")
    s.pass_priority(2)
    opts = s.options()
    assert "block Vampire Bats with Giant Spider" in opts
    assert "block Vampire Bats with Grizzly Bears" not in opts
