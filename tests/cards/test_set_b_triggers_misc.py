"""Scenario tests for the Tenth Edition cards using the trigger vocabulary (events
with references to the event's objects and amounts) and other new ops, amounts and costs.

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012
CR; rulings are Gatherer rulings printed with the card.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.testing import Scenario, attack, block, combat, logged, main, upkeep_of

K = DecisionKind


def n_triggers(s: Scenario) -> int:
    return sum(1 for x in s.game.stack if x.kind == "triggered")


# -- Angelic Chorus -------------------------------------------------------------------------------
def test_angelic_chorus_gains_life_equal_to_the_creatures_toughness() -> None:
    """Angelic Chorus: "Whenever a creature comes into play under your control, you gain life
    equal to its toughness." Hill Giant (3/3) comes into play: player 0 gains 3."""
    s = main({"hand": ["Hill Giant"], "in_play": ["Angelic Chorus"] + ["Mountain"] * 4})
    s.do("play Hill Giant")
    s.resolve()  # the Giant resolves; the Chorus triggers
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(0, 23)


def test_angelic_chorus_ignores_creatures_of_other_players() -> None:
    """Angelic Chorus: "under your control": player 1's Chorus doesn't see player 0's creature."""
    s = main({"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest"]},
             {"in_play": ["Angelic Chorus"]})
    s.do("play Grizzly Bears")
    s.resolve()
    assert n_triggers(s) == 0
    s.assert_life(1, 20)


def test_angelic_chorus_uses_last_known_toughness() -> None:
    """Angelic Chorus counts "its toughness" as the creature last existed in play if it has left
    (2012 608.2g): Grizzly Bears (2/2) is Shocked in response; player 0 still gains 2."""
    s = main({"hand": ["Grizzly Bears", "Shock"],
              "in_play": ["Angelic Chorus", "Forest", "Forest", "Mountain"]})
    s.do("play Grizzly Bears")
    s.resolve()
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.resolve()
    s.assert_life(0, 22)


def test_angelic_chorus_counts_the_current_toughness() -> None:
    """Angelic Chorus reads the toughness when the ability resolves: Giant Growth (+3/+3) on the
    Bears in response makes it 5."""
    s = main({"hand": ["Grizzly Bears", "Giant Growth"],
              "in_play": ["Angelic Chorus", "Forest", "Forest", "Forest"]})
    s.do("play Grizzly Bears")
    s.resolve()
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.resolve()
    s.assert_life(0, 25)


# -- Contaminated Bond -------------------------------------------------------------------------------
def test_contaminated_bond_attacking_creatures_controller_loses_3() -> None:
    """Contaminated Bond: "Whenever enchanted creature attacks or blocks, its controller loses 3
    life." Player 1's Bond on player 0's Grizzly Bears: player 0 loses 3 when it attacks."""
    s = combat({"in_play": [{"card": "Grizzly Bears", "id": "b"}]},
               {"in_play": [{"card": "Contaminated Bond", "attached_to": "b"}]})
    attack(s, "Grizzly Bears")
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(0, 17)
    s.assert_life(1, 20)


def test_contaminated_bond_ignores_other_attackers() -> None:
    """Contaminated Bond triggers for *enchanted* creature only: Hill Giant attacking alone (the
    Bond is on the Bears, which stays home) triggers nothing (the trigger's ``what: enchanted``
    names the enchanted permanent, not any attacker)."""
    s = combat({"in_play": [{"card": "Grizzly Bears", "id": "b"}, "Hill Giant",
                            {"card": "Contaminated Bond", "attached_to": "b"}]})
    attack(s, "Hill Giant")
    assert n_triggers(s) == 0
    s.pass_priority(2)
    s.assert_life(0, 20)


def test_contaminated_bond_blocking_creatures_controller_loses_3() -> None:
    """Contaminated Bond: "... or blocks": player 1's enchanted Hill Giant blocks; player 1
    (its controller) loses 3."""
    s = combat({"in_play": ["Grizzly Bears", {"card": "Contaminated Bond", "attached_to": "g"}]},
               {"in_play": [{"card": "Hill Giant", "id": "g"}]})
    attack(s, "Grizzly Bears")
    block(s, ("Grizzly Bears", "Hill Giant"))
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(1, 17)
    s.assert_life(0, 20)


# -- Elvish Berserker ---------------------------------------------------------------------------
def test_elvish_berserker_gets_plus_one_for_each_blocker() -> None:
    """Elvish Berserker: "Whenever Elvish Berserker becomes blocked, it gets +1/+1 until end of
    turn for each creature blocking it." Two blockers: 3/3."""
    s = combat({"in_play": ["Elvish Berserker"]}, {"in_play": ["Grizzly Bears", "Grizzly Bears"]})
    attack(s, "Elvish Berserker")
    block(s, ("Elvish Berserker", "Grizzly Bears"), ("Elvish Berserker", "Grizzly Bears#2"))
    assert n_triggers(s) == 1  # "becomes blocked" triggers once, however many block
    s.resolve()
    s.assert_pt("Elvish Berserker", 3, 3)


def test_elvish_berserker_unblocked_stays_1_1() -> None:
    """Elvish Berserker: not blocked, no trigger: it deals 1 as a 1/1."""
    s = combat({"in_play": ["Elvish Berserker"]}, {"in_play": ["Grizzly Bears"]})
    attack(s, "Elvish Berserker")
    block(s)
    assert n_triggers(s) == 0
    s.assert_pt("Elvish Berserker", 1, 1)


# -- Hypnotic Specter ---------------------------------------------------------------------------
def test_hypnotic_specter_damage_to_opponent_makes_them_discard_at_random() -> None:
    """Hypnotic Specter: "Whenever Hypnotic Specter deals damage to an opponent, that player
    discards a card at random." Unblocked: player 1 loses 2 and one of two cards."""
    s = combat({"in_play": ["Hypnotic Specter"]}, {"hand": ["Shock", "Forest"]})
    attack(s, "Hypnotic Specter")
    s.advance_to("combat_damage")
    s.resolve()  # combat damage
    s.assert_life(1, 18)
    assert n_triggers(s) == 1
    s.resolve()
    assert len(s.game.players[1].hand) == 1
    assert len(s.game.players[1].graveyard) == 1
    assert logged(s, "player 1 discards")


def test_hypnotic_specter_damage_to_a_creature_does_nothing() -> None:
    """Hypnotic Specter: damage to a creature is not damage to an opponent: no discard."""
    s = combat({"in_play": ["Hypnotic Specter"]},
               {"hand": ["Shock"], "in_play": ["Giant Spider"]})
    attack(s, "Hypnotic Specter")
    block(s, ("Hypnotic Specter", "Giant Spider"))
    s.pass_priority(2)
    s.resolve()
    assert n_triggers(s) == 0
    assert len(s.game.players[1].hand) == 1


# -- Lord of the Pit ---------------------------------------------------------------------------
def test_lord_of_the_pit_sacrifices_another_creature() -> None:
    """Lord of the Pit: "At the beginning of your upkeep, sacrifice a creature other than Lord of
    the Pit." Grizzly Bears is the only choice (the Lord itself is not offered)."""
    s = upkeep_of({"in_play": ["Lord of the Pit", "Grizzly Bears"], "library": ["Forest"]})
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_CARDS
    assert s.options() == ["sacrifice Grizzly Bears"]
    s.do("sacrifice Grizzly Bears")
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Lord of the Pit")
    s.assert_life(0, 20)


def test_lord_of_the_pit_deals_7_if_you_cant_sacrifice() -> None:
    """Lord of the Pit: "If you can't, Lord of the Pit deals 7 damage to you." No other creature
    (an opponent's creature doesn't count): 7 damage to player 0."""
    s = upkeep_of({"in_play": ["Lord of the Pit"], "library": ["Forest"]},
                  {"in_play": ["Grizzly Bears"]})
    s.resolve()
    s.assert_life(0, 13)
    s.assert_in_play("Lord of the Pit")
    assert logged(s, "Lord of the Pit deals 7 damage to player 0")


# -- Loyal Sentry -----------------------------------------------------------------------------
def test_loyal_sentry_destroys_the_blocked_creature_and_itself() -> None:
    """Loyal Sentry: "When Loyal Sentry blocks a creature, destroy that creature and Loyal
    Sentry." Both are destroyed before combat damage."""
    s = combat({"in_play": ["Hill Giant"]}, {"in_play": ["Loyal Sentry"]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Loyal Sentry"))
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    s.assert_in_play("Loyal Sentry", False)


def test_loyal_sentry_not_blocking_does_nothing() -> None:
    """Loyal Sentry triggers only when it blocks: another creature blocking triggers nothing."""
    s = combat({"in_play": ["Hill Giant"]}, {"in_play": ["Loyal Sentry", "Grizzly Bears"]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Grizzly Bears"))
    assert n_triggers(s) == 0
    s.assert_in_play("Hill Giant")


# -- Manabarbs ----------------------------------------------------------------------------------
def test_manabarbs_hits_a_player_tapping_lands_through_the_automatic_payer() -> None:
    """Manabarbs: "Whenever a player taps a land for mana, Manabarbs deals 1 damage to that
    player." Player 0 plays Hill Giant paying with four Mountains (the automatic payer taps
    them): four triggers, on the stack above the Giant (Gatherer ruling), 4 damage to player 0.
    Player 1 controls the Manabarbs ("a player")."""
    s = main({"hand": ["Hill Giant"], "in_play": ["Mountain"] * 4},
             {"in_play": ["Manabarbs"]})
    s.do("play Hill Giant")
    assert n_triggers(s) == 4
    assert s.game.stack[0].label == "Hill Giant"
    for _ in range(4):
        s.resolve()
    s.assert_life(0, 16)
    s.assert_life(1, 20)


def test_manabarbs_triggers_on_a_manual_tap() -> None:
    """Manabarbs: tapping a land by hand (a mana ability) triggers it too; the controller of the
    Manabarbs is hit for their own land."""
    s = Scenario({"turn": 3, "step": "precombat_main",
                  "players": [{"in_play": ["Mountain", "Manabarbs"]}, {}]}, manual_mana=True)
    s.do("tap Mountain for R")
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(0, 19)


# -- Quirion Dryad -----------------------------------------------------------------------------
def test_quirion_dryad_gets_a_counter_for_a_red_spell() -> None:
    """Quirion Dryad: "Whenever you play a white, blue, black, or red spell, put a +1/+1 counter
    on Quirion Dryad." Shock (red): a +1/+1 counter, 2/2 (2007 CR 418.5 layer 6c)."""
    s = main({"hand": ["Shock"], "in_play": ["Quirion Dryad", "Mountain"]})
    s.do("play Shock", "target player 1")
    assert n_triggers(s) == 1
    s.resolve()
    assert s.perm("Quirion Dryad").counters == {"+1/+1": 1}
    s.assert_pt("Quirion Dryad", 2, 2)


def test_quirion_dryad_ignores_green_spells_and_opponents_spells() -> None:
    """Quirion Dryad: a green spell (Giant Growth) doesn't trigger it, nor does an opponent's red
    spell ("you play")."""
    s = main({"hand": ["Giant Growth"], "in_play": ["Quirion Dryad", "Forest"]},
             {"hand": ["Shock"], "in_play": ["Mountain"]})
    s.do("play Giant Growth", "target Quirion Dryad")
    assert n_triggers(s) == 0
    s.pass_priority()
    s.do("play Shock", "target player 0")
    assert n_triggers(s) == 0
    s.resolve_all()
    assert not s.perm("Quirion Dryad").counters


# -- Scoria Wurm ---------------------------------------------------------------------------------
def _wurm_flip(seed: int) -> tuple[bool, bool]:
    s = upkeep_of({"in_play": ["Scoria Wurm"], "library": ["Forest"]}, seed=seed)
    assert n_triggers(s) == 1
    s.resolve()
    return logged(s, "player 0 flips a coin and wins"), s.in_play("Scoria Wurm")


def test_scoria_wurm_returns_to_hand_when_the_flip_is_lost() -> None:
    """Scoria Wurm: "At the beginning of your upkeep, flip a coin. If you lose the flip, return
    Scoria Wurm to its owner's hand." Over several seeds both outcomes happen; a lost flip
    returns it, a won flip leaves it in play."""
    results = [_wurm_flip(seed) for seed in range(12)]
    assert {won for won, _ in results} == {True, False}
    for won, in_play in results:
        assert won == in_play


def test_scoria_wurm_flip_is_deterministic_from_the_seed() -> None:
    """The coin flip uses the game's seeded random generator: the same seed, the same flip."""
    assert [_wurm_flip(seed) for seed in range(6)] == [_wurm_flip(seed) for seed in range(6)]


# -- Sleeper Agent ------------------------------------------------------------------------------
def test_sleeper_agent_goes_to_the_opponent_and_hurts_them_in_their_upkeep() -> None:
    """Sleeper Agent: "When Sleeper Agent comes into play, target opponent gains control of it.
    At the beginning of your upkeep, Sleeper Agent deals 2 damage to you." "You" is its
    controller (Gatherer ruling): player 1, in player 1's upkeep."""
    s = main({"hand": ["Sleeper Agent"], "in_play": ["Swamp"]}, {"library": ["Forest"]})
    s.do("play Sleeper Agent")
    s.resolve()
    assert s.game.decision.kind is K.TARGET
    assert s.options() == ["target player 1"]  # "target opponent"
    s.do("target player 1")
    s.resolve()
    assert s.perm("Sleeper Agent").controller == 1
    s.advance_to("upkeep", active=1)
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(1, 18)
    s.assert_life(0, 20)


# -- Spark Elemental ---------------------------------------------------------------------------
def test_spark_elemental_is_sacrificed_at_end_of_turn() -> None:
    """Spark Elemental: "Trample, haste ... At end of turn, sacrifice Spark Elemental." It can
    attack at once (haste) and is sacrificed as the end of turn step begins."""
    s = combat({"in_play": [{"card": "Spark Elemental", "summoning_sick": True}]})
    attack(s, "Spark Elemental")
    s.advance_to("end_of_turn")
    s.assert_life(1, 17)
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_in_play("Spark Elemental", False)
    s.assert_zone(0, "graveyard", "Spark Elemental")
    assert logged(s, "player 0 sacrifices Spark Elemental")


def test_spark_elemental_is_sacrificed_at_the_end_of_any_turn() -> None:
    """Spark Elemental: "At end of turn" means every turn's end: it is sacrificed at the end of
    player 1's turn too (2007 CR 313.1: "at end of turn" triggers as the end of turn step
    begins)."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "postcombat_main",
                  "players": [{"in_play": ["Spark Elemental"]}, {}]})
    s.advance_to("end_of_turn")
    s.resolve()
    s.assert_in_play("Spark Elemental", False)


# -- Spirit Link -----------------------------------------------------------------------------------
def test_spirit_link_gains_its_controller_the_damage_dealt() -> None:
    """Spirit Link: "Whenever enchanted creature deals damage, you gain that much life." Player 1
    controls the Spirit Link on player 0's Hill Giant: it deals 3 to player 1, who gains 3."""
    s = combat({"in_play": [{"card": "Hill Giant", "id": "g"}]},
               {"in_play": [{"card": "Spirit Link", "attached_to": "g"}]})
    attack(s, "Hill Giant")
    s.advance_to("combat_damage")
    s.resolve()
    s.assert_life(1, 17)
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(1, 20)
    s.assert_life(0, 20)


def test_spirit_link_counts_damage_to_creatures_and_ignores_other_sources() -> None:
    """Spirit Link: "deals damage" to anything: blocked by Grizzly Bears, the Giant deals 3 to it
    and player 0 (the Link's controller) gains 3 (Gatherer ruling: all the damage). The Bears'
    damage to the Giant gains nothing."""
    s = combat({"in_play": [{"card": "Hill Giant", "id": "g"},
                            {"card": "Spirit Link", "attached_to": "g"}]},
               {"in_play": ["Grizzly Bears"]})
    attack(s, "Hill Giant")
    block(s, ("Hill Giant", "Grizzly Bears"))
    s.pass_priority(2)
    s.resolve()
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(0, 23)


# -- Sylvan Basilisk ----------------------------------------------------------------------------
def test_sylvan_basilisk_destroys_each_blocking_creature() -> None:
    """Sylvan Basilisk: "Whenever Sylvan Basilisk becomes blocked by a creature, destroy that
    creature." Two blockers: two triggers, both destroyed."""
    s = combat({"in_play": ["Sylvan Basilisk"]}, {"in_play": ["Grizzly Bears", "Hill Giant"]})
    attack(s, "Sylvan Basilisk")
    block(s, ("Sylvan Basilisk", "Grizzly Bears"), ("Sylvan Basilisk", "Hill Giant"))
    assert n_triggers(s) == 2
    s.resolve()
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Hill Giant", False)
    s.assert_in_play("Sylvan Basilisk")


def test_sylvan_basilisk_blocked_creatures_of_others_are_safe() -> None:
    """Sylvan Basilisk: only creatures blocking *it*: a creature blocking another attacker is
    not destroyed."""
    s = combat({"in_play": ["Sylvan Basilisk", "Grizzly Bears"]}, {"in_play": ["Hill Giant"]})
    attack(s, "Sylvan Basilisk", "Grizzly Bears")
    block(s, ("Grizzly Bears", "Hill Giant"))
    assert n_triggers(s) == 0


# -- Underworld Dreams ------------------------------------------------------------------------
def test_underworld_dreams_deals_1_for_each_card_an_opponent_draws() -> None:
    """Underworld Dreams: "Whenever an opponent draws a card, Underworld Dreams deals 1 damage to
    him or her." Counsel of the Soratami (draw two) triggers it twice (Gatherer ruling: once for
    each card)."""
    s = main({"hand": ["Counsel of the Soratami"], "library": ["Forest", "Forest"],
              "in_play": ["Island", "Island", "Island"]},
             {"in_play": ["Underworld Dreams"]})
    s.do("play Counsel of the Soratami")
    s.resolve()
    assert n_triggers(s) == 2
    s.resolve_all()
    s.assert_life(0, 18)


def test_underworld_dreams_ignores_its_controllers_draws_and_sees_the_draw_step() -> None:
    """Underworld Dreams: "an opponent": its controller's draw doesn't trigger it; the
    opponent's draw step draw does."""
    s = Scenario({"turn": 2, "active_player": 1, "step": "postcombat_main", "players": [
        {"library": ["Forest"]}, {"in_play": ["Underworld Dreams"], "library": ["Forest"]}]})
    s.advance_to("draw", active=0)
    assert n_triggers(s) == 1
    s.resolve()
    s.assert_life(0, 19)
    s = main({"hand": ["Counsel of the Soratami"], "library": ["Forest", "Forest"],
              "in_play": ["Island", "Island", "Island", "Underworld Dreams"]})
    s.do("play Counsel of the Soratami")
    s.resolve()
    assert n_triggers(s) == 0
    s.assert_life(0, 20)


# -- Aura Graft -------------------------------------------------------------------------------------
def test_aura_graft_steals_an_aura_and_moves_it() -> None:
    """Aura Graft: "Gain control of target Aura that's attached to a permanent. Attach it to
    another permanent it can enchant." Player 1's Holy Strength on their Bears moves to player
    0's Hill Giant under player 0's control; a land can't be enchanted by it (Enchant
    creature) and the current host is not "another" permanent."""
    s = main({"hand": ["Aura Graft"], "in_play": ["Island", "Island", "Hill Giant"]},
             {"in_play": [{"card": "Grizzly Bears", "id": "b"},
                          {"card": "Holy Strength", "attached_to": "b"}]})
    s.do("play Aura Graft", "target Holy Strength")
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_CARDS
    assert s.options() == ["attach to Hill Giant"]
    s.do("attach to Hill Giant")
    hs = s.perm("Holy Strength")
    assert hs.controller == 0
    assert hs.attached_to == s.perm("Hill Giant").id
    s.assert_pt("Hill Giant", 4, 5)
    s.assert_pt("Grizzly Bears", 2, 2)


def test_aura_graft_targets_only_auras() -> None:
    """Aura Graft: "target Aura": a non-Aura enchantment (Manabarbs) can't be targeted; with
    none attached, Aura Graft can't be played."""
    s = main({"hand": ["Aura Graft"], "in_play": ["Island", "Island", "Manabarbs"]})
    assert "play Aura Graft" not in s.options()


def test_aura_graft_with_no_other_host_keeps_control_only() -> None:
    """Aura Graft: with no other permanent it can enchant, the Aura doesn't move but you still
    control it (Gatherer ruling)."""
    s = main({"hand": ["Aura Graft"], "in_play": ["Island", "Island"]},
             {"in_play": [{"card": "Grizzly Bears", "id": "b"},
                          {"card": "Holy Strength", "attached_to": "b"}]})
    s.do("play Aura Graft", "target Holy Strength")
    s.resolve()
    hs = s.perm("Holy Strength")
    assert hs.controller == 0
    assert hs.attached_to == s.perm("Grizzly Bears").id


# -- Beacon of Immortality ----------------------------------------------------------------------
def test_beacon_of_immortality_doubles_life_and_shuffles_itself_in() -> None:
    """Beacon of Immortality: "Double target player's life total. Shuffle Beacon of Immortality
    into its owner's library." 7 life becomes 14; the Beacon is in the library, not the
    graveyard."""
    s = main({"hand": ["Beacon of Immortality"], "life": 7, "in_play": ["Plains"] * 6})
    s.do("play Beacon of Immortality", "target player 0")
    s.resolve()
    s.assert_life(0, 14)
    s.assert_zone(0, "library", "Beacon of Immortality")
    s.assert_zone(0, "graveyard", "Beacon of Immortality", present=False)


# -- Colossus of Sardia --------------------------------------------------------------------------
def test_colossus_of_sardia_doesnt_untap_and_untaps_for_9_in_upkeep() -> None:
    """Colossus of Sardia: "Colossus of Sardia doesn't untap during your untap step. {9}: Untap
    Colossus of Sardia. Play this ability only during your upkeep." It stays tapped through the
    untap step; in the upkeep {9} untaps it."""
    s = upkeep_of({"in_play": [{"card": "Colossus of Sardia", "tapped": True}] + ["Swamp"] * 9,
                   "library": ["Forest"]})
    assert s.perm("Colossus of Sardia").tapped
    s.do("activate Colossus of Sardia")
    s.resolve()
    assert not s.perm("Colossus of Sardia").tapped


def test_colossus_of_sardia_ability_only_in_your_upkeep() -> None:
    """Colossus of Sardia: "Play this ability only during your upkeep": not in a main phase, not
    in the opponent's upkeep."""
    s = main({"in_play": [{"card": "Colossus of Sardia", "tapped": True}] + ["Swamp"] * 9})
    assert "activate Colossus of Sardia" not in s.options()
    with pytest.raises(IllegalActionError):
        s.do("activate Colossus of Sardia")
    # Nor in the opponent's upkeep.
    s = Scenario({"turn": 3, "step": "postcombat_main", "players": [
        {"in_play": [{"card": "Colossus of Sardia", "tapped": True}] + ["Swamp"] * 9},
        {"library": ["Forest"]}]})
    s.advance_to("upkeep", active=1)
    s.pass_priority()
    assert s.game.decision.player == 0 and s.game.step == "upkeep"
    assert "activate Colossus of Sardia" not in s.options()


# -- Cone of Flame -------------------------------------------------------------------------------------
def test_cone_of_flame_deals_1_2_3_to_three_different_targets() -> None:
    """Cone of Flame: "deals 1 damage to target creature or player, 2 damage to another target
    creature or player, and 3 damage to a third target creature or player." The second and third
    targets exclude those already chosen (each target must be different, Gatherer ruling)."""
    s = main({"hand": ["Cone of Flame"], "in_play": ["Mountain"] * 5},
             {"in_play": ["Hill Giant"]})
    s.do("play Cone of Flame", "target Hill Giant")
    assert "target Hill Giant" not in s.options()
    s.do("target player 0")
    assert s.options() == ["target player 1"]
    s.do("target player 1")
    s.resolve()
    s.assert_damage("Hill Giant", 1)
    s.assert_life(0, 18)
    s.assert_life(1, 17)


def test_cone_of_flame_needs_three_different_targets() -> None:
    """Cone of Flame: without three different legal targets it can't be played (Gatherer
    ruling): two players and no creature are only two."""
    s = main({"hand": ["Cone of Flame"], "in_play": ["Mountain"] * 5})
    assert "play Cone of Flame" not in s.options()


# -- Flowstone Slide -------------------------------------------------------------------------------
def test_flowstone_slide_gives_all_creatures_plus_x_minus_x() -> None:
    """Flowstone Slide: "All creatures get +X/-X until end of turn." X=2: Hill Giant 5/1,
    Grizzly Bears (toughness 0) dies."""
    s = main({"hand": ["Flowstone Slide"], "in_play": ["Mountain"] * 6 + ["Hill Giant"]},
             {"in_play": ["Grizzly Bears"]})
    s.do("play Flowstone Slide", "X=2")
    s.resolve()
    s.assert_pt("Hill Giant", 5, 1)
    s.assert_in_play("Grizzly Bears", False)
    s.advance_to("end_of_turn")
    s.pass_priority(2)
    s.assert_pt("Hill Giant", 3, 3)


# -- Puppeteer -------------------------------------------------------------------------------------
def test_puppeteer_taps_an_untapped_creature() -> None:
    """Puppeteer: "{U}, {T}: You may tap or untap target creature." An untapped Hill Giant of the
    opponent: the choice is to tap it."""
    s = main({"in_play": ["Puppeteer", "Island"]}, {"in_play": ["Hill Giant"]})
    s.do("activate Puppeteer", "target Hill Giant")
    s.resolve()
    assert s.options() == ["tap Hill Giant", "done"]
    s.do("tap Hill Giant")
    assert s.perm("Hill Giant").tapped


def test_puppeteer_untaps_a_tapped_creature_or_does_nothing() -> None:
    """Puppeteer: "You may": a tapped creature may be untapped, or left tapped (done)."""
    s = main({"in_play": ["Puppeteer", "Island", "Island",
                          {"card": "Hill Giant", "tapped": True}]})
    s.do("activate Puppeteer", "target Hill Giant")
    s.resolve()
    s.do("untap Hill Giant")
    assert not s.perm("Hill Giant").tapped
    s2 = main({"in_play": ["Puppeteer", "Island", {"card": "Hill Giant", "tapped": True}]})
    s2.do("activate Puppeteer", "target Hill Giant")
    s2.resolve()
    s2.do("done")
    assert s2.perm("Hill Giant").tapped


def test_puppeteer_targets_creatures_only() -> None:
    """Puppeteer: "target creature": a land is not a legal target."""
    s = main({"in_play": ["Puppeteer", "Island"]}, {"in_play": ["Forest", "Hill Giant"]})
    s.do("activate Puppeteer")
    assert "target Forest" not in s.options()


# -- Seismic Assault -------------------------------------------------------------------------------
def test_seismic_assault_discards_a_land_card_for_2_damage() -> None:
    """Seismic Assault: "Discard a land card: Seismic Assault deals 2 damage to target creature
    or player." Only the land card may be discarded to pay."""
    s = main({"hand": ["Forest", "Shock"], "in_play": ["Seismic Assault"]})
    s.do("activate Seismic Assault", "target player 1")
    assert s.options() == ["discard Forest"]
    s.do("discard Forest")
    s.resolve()
    s.assert_life(1, 18)
    s.assert_zone(0, "graveyard", "Forest")
    s.assert_zone(0, "hand", "Shock")


def test_seismic_assault_needs_a_land_card_in_hand() -> None:
    """Seismic Assault: with only nonland cards in hand the ability can't be played."""
    s = main({"hand": ["Shock"], "in_play": ["Seismic Assault"]})
    assert "activate Seismic Assault" not in s.options()


# -- Soulblast -------------------------------------------------------------------------------------
def test_soulblast_sacrifices_all_your_creatures_for_their_total_power() -> None:
    """Soulblast: "As an additional cost to play Soulblast, sacrifice all creatures you control.
    Soulblast deals damage to target creature or player equal to the total power of the
    sacrificed creatures." Hill Giant (3) and Grizzly Bears (2): 5 damage; player 1's creature
    is not sacrificed."""
    s = main({"hand": ["Soulblast"], "in_play": ["Mountain"] * 6 + ["Hill Giant", "Grizzly Bears"]},
             {"in_play": ["Craw Wurm"]})
    s.do("play Soulblast", "target player 1")
    s.assert_in_play("Hill Giant", False)
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Craw Wurm")
    s.resolve()
    s.assert_life(1, 15)


def test_soulblast_power_is_locked_in_when_paid() -> None:
    """Soulblast counts the power of the sacrificed creatures as they were sacrificed (the cost
    is paid as it is played): a pumped Giant Growth'd Bears (5) counts 5."""
    s = main({"hand": ["Soulblast", "Giant Growth"],
              "in_play": ["Mountain"] * 6 + ["Forest", "Grizzly Bears"]})
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.do("play Soulblast", "target player 1")
    s.resolve()
    s.assert_life(1, 15)


# -- Sudden Impact ---------------------------------------------------------------------------------
def test_sudden_impact_deals_damage_equal_to_the_targets_hand() -> None:
    """Sudden Impact: "deals damage equal to the number of cards in target player's hand to that
    player." Three cards: 3 damage; the caster's own hand doesn't count."""
    s = main({"hand": ["Sudden Impact", "Forest"], "in_play": ["Mountain"] * 4},
             {"hand": ["Forest", "Forest", "Shock"]})
    s.do("play Sudden Impact", "target player 1")
    s.resolve()
    s.assert_life(1, 17)
    s.assert_life(0, 20)


# -- Twitch -------------------------------------------------------------------------------------------
def test_twitch_taps_a_land_and_draws() -> None:
    """Twitch: "You may tap or untap target artifact, creature, or land. Draw a card." Player 1's
    Mountain is tapped; player 0 draws."""
    s = main({"hand": ["Twitch"], "library": ["Forest"], "in_play": ["Island"] * 3},
             {"in_play": ["Mountain"]})
    s.do("play Twitch", "target Mountain")
    s.resolve()
    s.do("tap Mountain")
    assert s.perm("Mountain").tapped
    s.assert_zone(0, "hand", "Forest")


def test_twitch_cannot_target_an_enchantment() -> None:
    """Twitch: "artifact, creature, or land": an enchantment is not a legal target."""
    s = main({"hand": ["Twitch"], "in_play": ["Island"] * 3 + ["Manabarbs"]})
    s.do("play Twitch")
    assert "target Manabarbs" not in s.options()
