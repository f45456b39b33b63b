"""Scenario tests for the non-core cards of the blue and white Tenth Edition theme decks,
plus RULES_2007.md §19 scenarios 7 (Condemn with combat damage on the stack) and 14 (legend rule).

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known
(RULES_2007.md), else 2012 CR.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.testing import Scenario, attack, block, block_options, combat, labels, main, to_damage

K = DecisionKind


# -- helpers ---------------------------------------------------------------------------------
def answer_may(s: Scenario, answer: str) -> None:
    """Pass until a "may" trigger asks its controller, then answer ``yes`` or ``no``."""
    for _ in range(10):
        if s.game.decision.kind is K.YES_NO:
            s.do(answer)
            return
        s.pass_priority()
    raise AssertionError("no yes/no decision came")


# -- Air Elemental, Wild Griffin, Skyhunter Patrol: flying (and first strike) ------------------
def test_air_elemental_flying_only_flyers_and_reach_can_block() -> None:
    """Air Elemental: "Flying (This creature can't be blocked except by creatures with flying or
    reach.)" (2012 702.9b, 702.16b). Unblocked, the 4/4 deals 4 to the defending player."""
    s = combat(["Air Elemental"], ["Grizzly Bears", "Giant Spider", "Wild Griffin"])
    attack(s, "Air Elemental")
    assert block_options(s) == ["block Air Elemental with Giant Spider",
                                "block Air Elemental with Wild Griffin", "done"]
    s.do("done")
    to_damage(s)
    s.resolve()
    s.assert_life(1, 16)


def test_wild_griffin_flies_over_ground_creatures_and_blocks_ground_creatures() -> None:
    """Wild Griffin: "Flying (This creature can't be blocked except by creatures with flying or
    reach.)" Grizzly Bears can't block it (2012 702.9b); flying doesn't stop it blocking a
    creature without flying (2012 702.9c is about attackers only)."""
    s = combat(["Wild Griffin"], ["Grizzly Bears"])
    attack(s, "Wild Griffin")
    assert block_options(s) == []
    to_damage(s)
    s.resolve()
    s.assert_life(1, 18)

    s = combat(["Grizzly Bears"], ["Wild Griffin"])
    attack(s, "Grizzly Bears")
    block(s, ("Grizzly Bears", "Wild Griffin"))
    to_damage(s)
    s.resolve()
    assert not s.in_play("Grizzly Bears") and not s.in_play("Wild Griffin")
    s.assert_life(1, 20)


def test_skyhunter_patrol_flying_first_strike_kills_a_flying_blocker_unharmed() -> None:
    """Skyhunter Patrol: "Flying, first strike". Only the flying Wild Griffin may block it; in
    the first-strike damage step the 2/3 Patrol kills the 2/2 Griffin, which never deals its
    damage (2007 CR 310.5, 502.28)."""
    s = combat(["Skyhunter Patrol"], ["Grizzly Bears", "Wild Griffin"])
    attack(s, "Skyhunter Patrol")
    assert block_options(s) == ["block Skyhunter Patrol with Wild Griffin", "done"]
    s.do("block Skyhunter Patrol with Wild Griffin")
    to_damage(s)
    s.resolve()  # first-strike combat damage
    assert not s.in_play("Wild Griffin")
    s.pass_priority(2)  # second combat damage step: nothing left to deal damage
    s.assert_damage("Skyhunter Patrol", 0)
    s.assert_life(1, 20)


def test_skyhunter_patrol_blocking_kills_an_attacker_first() -> None:
    """Skyhunter Patrol: "first strike" works on defence too: blocking Grizzly Bears, it deals
    its 2 first and the Bears deal nothing (2007 CR 310.5)."""
    s = combat(["Grizzly Bears"], ["Skyhunter Patrol"])
    attack(s, "Grizzly Bears")
    block(s, ("Grizzly Bears", "Skyhunter Patrol"))
    to_damage(s)
    s.resolve()
    assert not s.in_play("Grizzly Bears")
    s.assert_damage("Skyhunter Patrol", 0)


# -- Phantom Warrior -------------------------------------------------------------------------
def test_phantom_warrior_is_unblockable() -> None:
    """Phantom Warrior: "Phantom Warrior is unblockable." Not even flying or reach creatures may
    block it (2012 509.1b restrictions); its 2 damage hits the defending player."""
    s = combat(["Phantom Warrior", "Grizzly Bears"], ["Giant Spider", "Wild Griffin"])
    attack(s, "Phantom Warrior", "Grizzly Bears")
    opts = block_options(s)
    assert not [o for o in opts if o.startswith("block Phantom Warrior")]
    assert "block Grizzly Bears with Giant Spider" in opts
    s.do("done")
    to_damage(s)
    s.resolve()
    s.assert_life(1, 16)


# -- Cloud Elemental -------------------------------------------------------------------------
def test_cloud_elemental_can_block_only_creatures_with_flying() -> None:
    """Cloud Elemental: "Cloud Elemental can block only creatures with flying." Attacked by
    Grizzly Bears and Wild Griffin, it may block only the Griffin."""
    s = combat(["Grizzly Bears", "Wild Griffin"], ["Cloud Elemental"])
    attack(s, "Grizzly Bears", "Wild Griffin")
    assert block_options(s) == ["block Wild Griffin with Cloud Elemental", "done"]
    with pytest.raises(IllegalActionError):
        s.do("block Grizzly Bears with Cloud Elemental")
    s.do("block Wild Griffin with Cloud Elemental")
    to_damage(s)
    s.resolve()
    assert not s.in_play("Wild Griffin")
    s.assert_damage("Cloud Elemental", 2)
    s.assert_life(1, 18)


def test_cloud_elemental_flying_attacker() -> None:
    """Cloud Elemental: "Flying (This creature can't be blocked except by creatures with flying
    or reach.)" and the blocking restriction doesn't stop it attacking."""
    s = combat(["Cloud Elemental"], ["Grizzly Bears", "Giant Spider"])
    attack(s, "Cloud Elemental")
    assert block_options(s) == ["block Cloud Elemental with Giant Spider", "done"]
    s.do("done")
    to_damage(s)
    s.resolve()
    s.assert_life(1, 18)


# -- Benalish Knight ---------------------------------------------------------------------------
def test_benalish_knight_flash_played_in_opponents_combat_then_blocks_first() -> None:
    """Benalish Knight: "Flash (You may play this spell any time you could play an instant.)
    First strike". Player 1 plays it in player 0's declare attackers step (2012 702.8a), then
    blocks the attacking Grizzly Bears with it and kills them first (2007 CR 310.5)."""
    s = combat(["Grizzly Bears"],
               {"in_play": ["Plains", "Plains", "Plains"], "hand": ["Benalish Knight", "Wild Griffin"]})
    attack(s, "Grizzly Bears")
    s.pass_priority()  # player 0 passes in declare attackers; player 1 may respond
    assert s.game.decision.player == 1
    assert "play Benalish Knight" in s.options()
    assert "play Wild Griffin" not in s.options()  # no flash: sorcery timing only
    s.do("play Benalish Knight")
    s.resolve()
    s.assert_in_play("Benalish Knight")
    block(s, ("Grizzly Bears", "Benalish Knight"))
    to_damage(s)
    s.resolve()
    assert not s.in_play("Grizzly Bears")
    s.assert_damage("Benalish Knight", 0)


def test_benalish_knight_without_flash_timing_is_not_needed_in_own_main_phase() -> None:
    """Benalish Knight: flash adds timing; it can still be played as a normal creature spell in
    its controller's main phase, and comes into play as a 2/2 first striker."""
    s = main({"hand": ["Benalish Knight"], "in_play": ["Plains", "Plains", "Plains"]})
    s.do("play Benalish Knight")
    s.resolve()
    s.assert_pt("Benalish Knight", 2, 2)
    assert "first_strike" in s.perm("Benalish Knight").keywords
    assert s.game.players[0].hand == []


# -- Arcanis the Omnipotent --------------------------------------------------------------------
def test_arcanis_taps_to_draw_three_cards() -> None:
    """Arcanis the Omnipotent: "{T}: Draw three cards." """
    s = main({"library": ["Forest", "Island", "Plains", "Swamp"],
              "in_play": ["Arcanis the Omnipotent"]})
    s.do("activate Arcanis the Omnipotent ability 1")
    assert s.perm("Arcanis the Omnipotent").tapped
    s.resolve()
    assert labels(s, 0, "hand") == ["Forest", "Island", "Plains"]
    assert labels(s, 0, "library") == ["Swamp"]
    assert "activate Arcanis the Omnipotent ability 1" not in s.options()  # it is tapped


def test_arcanis_tap_ability_needs_it_to_have_been_controlled_since_the_turn_began() -> None:
    """Arcanis the Omnipotent: "{T}: Draw three cards." is a {T} ability of a creature: not
    playable while it is summoning sick (2007 CR 212.3d), but "{2}{U}{U}: Return Arcanis the
    Omnipotent to its owner's hand." has no {T} and is."""
    s = main({"library": ["Forest"] * 3,
              "in_play": [{"card": "Arcanis the Omnipotent", "summoning_sick": True}] + ["Island"] * 4})
    opts = s.options()
    assert "activate Arcanis the Omnipotent ability 1" not in opts
    assert "activate Arcanis the Omnipotent ability 2" in opts


def test_arcanis_returns_to_its_owners_hand() -> None:
    """Arcanis the Omnipotent: "{2}{U}{U}: Return Arcanis the Omnipotent to its owner's hand."
    Player 1 controls player 0's Arcanis: it goes to player 0's hand (2007 CR 217.1a)."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": [{"card": "Arcanis the Omnipotent", "controller": 1}]},
        {"in_play": ["Island"] * 4}]})
    s.do("activate Arcanis the Omnipotent ability 2")
    assert all(p.tapped for p in s.game.permanents if p.name == "Island")
    s.resolve()
    s.assert_in_play("Arcanis the Omnipotent", False)
    assert labels(s, 0, "hand") == ["Arcanis the Omnipotent"]
    assert labels(s, 1, "hand") == []


def test_arcanis_return_costs_two_blue() -> None:
    """Arcanis the Omnipotent: "{2}{U}{U}" needs two blue mana: four Plains can't pay it."""
    s = main({"in_play": ["Arcanis the Omnipotent"] + ["Plains"] * 3 + ["Island"]})
    assert "activate Arcanis the Omnipotent ability 2" not in s.options()


# -- Aven Fisher -------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "hand"), [("yes", ["Forest"]), ("no", [])])
def test_aven_fisher_may_draw_when_put_into_graveyard_from_play(answer: str, hand: list) -> None:
    """Aven Fisher: "When Aven Fisher is put into a graveyard from play, you may draw a card."
    Shocked by the opponent, its controller chooses on resolution (2012 603.5, 603.6c)."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"library": ["Forest"], "in_play": ["Aven Fisher"]},
        {"hand": ["Shock"], "in_play": ["Mountain"]}]})
    s.do("play Shock", "target Aven Fisher")
    s.resolve()
    assert labels(s, 0, "graveyard") == ["Aven Fisher"]
    assert len(s.game.stack) == 1  # the trigger
    answer_may(s, answer)
    assert labels(s, 0, "hand") == hand
    assert not s.game.stack


def test_aven_fisher_dies_in_combat_and_triggers() -> None:
    """Aven Fisher: "Flying" and "When Aven Fisher is put into a graveyard from play, you may
    draw a card." Blocked by Wild Griffin, both 2/2 flyers die; its controller draws."""
    s = combat({"in_play": ["Aven Fisher"], "library": ["Island"]}, ["Wild Griffin", "Grizzly Bears"])
    attack(s, "Aven Fisher")
    assert block_options(s) == ["block Aven Fisher with Wild Griffin", "done"]
    s.do("block Aven Fisher with Wild Griffin")
    to_damage(s)
    s.resolve()
    assert not s.in_play("Aven Fisher") and not s.in_play("Wild Griffin")
    answer_may(s, "yes")
    assert labels(s, 0, "hand") == ["Island"]


def test_aven_fisher_returned_to_hand_does_not_trigger() -> None:
    """Aven Fisher triggers only when "put into a graveyard from play": Boomerang returning it
    to its owner's hand doesn't trigger it."""
    s = main({"hand": ["Boomerang"], "library": ["Forest"], "in_play": ["Island", "Island"]},
             {"in_play": ["Aven Fisher"]})
    s.do("play Boomerang", "target Aven Fisher")
    s.resolve()
    assert labels(s, 1, "hand") == ["Aven Fisher"]
    assert not s.game.stack
    assert s.game.decision.kind is K.PRIORITY
    assert labels(s, 0, "hand") == [] and labels(s, 1, "library") == []


# -- Boomerang ---------------------------------------------------------------------------------
def test_boomerang_returns_any_permanent_to_its_owners_hand() -> None:
    """Boomerang: "Return target permanent to its owner's hand." Any permanent: a land, an Aura,
    an artifact; a permanent controlled by the opponent but owned by the caster goes to the
    caster's hand (2007 CR 217.1a)."""
    s = main({"hand": ["Boomerang", "Boomerang"], "in_play": ["Island"] * 4},
             {"in_play": ["Forest", "Rod of Ruin", {"card": "Grizzly Bears", "id": "b"},
                          {"card": "Pacifism", "attached_to": "b"}]})
    s.do("play Boomerang")
    assert s.options() == ["target Island", "target Island#2", "target Island#3",
                           "target Island#4", "target Forest", "target Rod of Ruin",
                           "target Grizzly Bears", "target Pacifism"]
    s.do("target Forest")
    s.resolve()
    assert labels(s, 1, "hand") == ["Forest"]
    s.do("play Boomerang#2", "target Pacifism")
    s.resolve()
    assert labels(s, 1, "hand") == ["Forest", "Pacifism"]
    s.assert_in_play("Grizzly Bears")


def test_boomerang_on_a_stolen_permanent_goes_to_the_owner() -> None:
    """Boomerang: "its owner's hand": player 1 controls player 0's Air Elemental; player 0
    Boomerangs it back into their own hand."""
    s = main({"hand": ["Boomerang"], "in_play": ["Island", "Island"]},
             {"in_play": [{"card": "Air Elemental", "controller": 0}]})
    s.do("play Boomerang", "target Air Elemental")
    s.resolve()
    assert labels(s, 1, "hand") == ["Air Elemental"]
    s.assert_in_play("Air Elemental", False)


# -- Counsel of the Soratami, Tidings ------------------------------------------------------------
def test_counsel_of_the_soratami_draws_two() -> None:
    """Counsel of the Soratami: "Draw two cards." ({2}{U} sorcery)"""
    s = main({"hand": ["Counsel of the Soratami"], "library": ["Forest", "Island", "Plains"],
              "in_play": ["Island"] * 3})
    s.do("play Counsel of the Soratami")
    s.resolve()
    assert labels(s, 0, "hand") == ["Forest", "Island"]
    assert labels(s, 0, "library") == ["Plains"]
    assert labels(s, 0, "graveyard") == ["Counsel of the Soratami"]


def test_counsel_of_the_soratami_is_a_sorcery() -> None:
    """Counsel of the Soratami is a sorcery: only in its controller's main phase with an empty
    stack (2012 307.1), so not in combat or in the opponent's turn."""
    s = combat({"in_play": ["Island"] * 3, "hand": ["Counsel of the Soratami"]},
               {"in_play": ["Island"] * 3, "hand": ["Counsel of the Soratami"]})
    assert not [o for o in s.options() if o.startswith("play")]
    s.pass_priority()
    assert s.game.decision.player == 1
    assert not [o for o in s.options() if o.startswith("play")]


def test_tidings_draws_four() -> None:
    """Tidings: "Draw four cards." ({3}{U}{U} sorcery)"""
    s = main({"hand": ["Tidings"], "library": ["Forest", "Island", "Plains", "Swamp", "Mountain"],
              "in_play": ["Island"] * 5})
    s.do("play Tidings")
    s.resolve()
    assert labels(s, 0, "hand") == ["Forest", "Island", "Plains", "Swamp"]
    assert labels(s, 0, "library") == ["Mountain"]


def test_tidings_with_three_cards_left_loses_the_game() -> None:
    """Tidings: "Draw four cards." with three cards in the library: the fourth draw is from an
    empty library and the player loses at the next state-based check (2007 CR 420.5g)."""
    s = main({"hand": ["Tidings"], "library": ["Forest", "Island", "Plains"],
              "in_play": ["Island"] * 5})
    s.do("play Tidings")
    s.resolve()
    s.assert_winner(1)
    assert labels(s, 0, "hand") == ["Forest", "Island", "Plains"]


# -- Denizen of the Deep -----------------------------------------------------------------------
def test_denizen_of_the_deep_returns_each_other_creature_you_control() -> None:
    """Denizen of the Deep: "When Denizen of the Deep comes into play, return each other creature
    you control to its owner's hand." Only creatures its controller controls (not the
    opponent's, not lands or artifacts); a controlled creature owned by the opponent goes to the
    opponent's hand (2007 CR 217.1a). The 11/11 itself stays."""
    s = main({"hand": ["Denizen of the Deep"],
              "in_play": ["Island"] * 8 + ["Grizzly Bears", "Rod of Ruin", "Air Elemental"]},
             {"in_play": ["Wild Griffin", {"card": "Sage Owl", "controller": 0}]})
    s.do("play Denizen of the Deep")
    s.pass_priority(2)  # the creature spell resolves; the trigger goes on the stack
    s.assert_in_play("Denizen of the Deep")
    assert len(s.game.stack) == 1
    s.resolve()
    s.assert_pt("Denizen of the Deep", 11, 11)
    assert sorted(labels(s, 0, "hand")) == ["Air Elemental", "Grizzly Bears"]
    assert labels(s, 1, "hand") == ["Sage Owl"]
    s.assert_in_play("Wild Griffin")
    s.assert_in_play("Rod of Ruin")
    assert len([p for p in s.game.permanents if p.name == "Island"]) == 8


def test_denizen_of_the_deep_with_no_other_creatures() -> None:
    """Denizen of the Deep's trigger with nothing to return does nothing; the Denizen stays."""
    s = main({"hand": ["Denizen of the Deep"], "in_play": ["Island"] * 8}, {"in_play": ["Grizzly Bears"]})
    s.do("play Denizen of the Deep")
    s.pass_priority(2)
    s.resolve()
    s.assert_in_play("Denizen of the Deep")
    s.assert_in_play("Grizzly Bears")
    assert labels(s, 0, "hand") == [] and labels(s, 1, "hand") == []


# -- Kraken's Eye, Angel's Feather -------------------------------------------------------------
def test_krakens_eye_any_player_plays_a_blue_spell_and_resolves_first() -> None:
    """Kraken's Eye: "Whenever a player plays a blue spell, you may gain 1 life." It triggers on
    the opponent's blue spell too, goes on the stack above the spell and resolves first
    (Gatherer 2009-10-01). The Eye's controller gains the life."""
    s = main({"hand": ["Counsel of the Soratami"], "library": ["Forest", "Forest"],
              "in_play": ["Island"] * 3},
             {"in_play": ["Kraken's Eye"]})
    s.do("play Counsel of the Soratami")
    assert [i.label for i in s.game.stack] == ["Counsel of the Soratami", "Kraken's Eye"]
    s.pass_priority(2)
    assert s.game.decision.kind is K.YES_NO and s.game.decision.player == 1
    s.do("yes")
    s.assert_life(1, 21)
    s.assert_life(0, 20)
    assert labels(s, 0, "hand") == []  # the spell hasn't resolved yet
    s.resolve()
    assert labels(s, 0, "hand") == ["Forest", "Forest#2"]


def test_krakens_eye_may_decline() -> None:
    """Kraken's Eye: "you may gain 1 life": answering no gains nothing."""
    s = main({"hand": ["Boomerang"], "in_play": ["Island", "Island", "Kraken's Eye"]},
             {"in_play": ["Forest"]})
    s.do("play Boomerang", "target Forest")
    answer_may(s, "no")
    s.assert_life(0, 20)


def test_krakens_eye_ignores_spells_that_are_not_blue() -> None:
    """Kraken's Eye triggers only for a blue spell: Shock (red) and Pacifism (white) don't
    trigger it."""
    s = main({"hand": ["Shock", "Pacifism"], "in_play": ["Mountain", "Plains", "Plains", "Kraken's Eye"]},
             {"in_play": ["Grizzly Bears"]})
    s.do("play Shock", "target player 1")
    assert [i.label for i in s.game.stack] == ["Shock"]
    s.resolve()
    s.do("play Pacifism", "target Grizzly Bears")
    assert [i.label for i in s.game.stack] == ["Pacifism"]
    s.resolve()
    s.assert_life(0, 20)


@pytest.mark.parametrize(("answer", "life"), [("yes", 21), ("no", 20)])
def test_angels_feather_any_player_plays_a_white_spell(answer: str, life: int) -> None:
    """Angel's Feather: "Whenever a player plays a white spell, you may gain 1 life." The
    opponent's white creature spell triggers it; the Feather's controller decides."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": ["Angel's Feather"]},
        {"hand": ["Wild Griffin"], "in_play": ["Plains"] * 3}]})
    s.do("play Wild Griffin")
    assert [i.label for i in s.game.stack] == ["Wild Griffin", "Angel's Feather"]
    s.pass_priority(2)
    assert s.game.decision.kind is K.YES_NO and s.game.decision.player == 0
    s.do(answer)
    s.assert_life(0, life)
    s.assert_life(1, 20)


def test_angels_feather_ignores_spells_that_are_not_white() -> None:
    """Angel's Feather triggers only for a white spell, not for a blue one."""
    s = main({"hand": ["Boomerang"], "in_play": ["Island", "Island", "Angel's Feather"]},
             {"in_play": ["Forest"]})
    s.do("play Boomerang", "target Forest")
    assert [i.label for i in s.game.stack] == ["Boomerang"]


def test_angels_feather_and_krakens_eye_do_not_trigger_on_abilities() -> None:
    """"Whenever a player plays a ... spell": activating an ability (Arcanis, blue) is not
    playing a spell, so Kraken's Eye doesn't trigger (2012 111.1/113.1 distinction)."""
    s = main({"library": ["Forest"] * 3, "in_play": ["Arcanis the Omnipotent", "Kraken's Eye"]})
    s.do("activate Arcanis the Omnipotent ability 1")
    assert [i.label for i in s.game.stack] == ["Arcanis the Omnipotent"]


# -- Remove Soul -------------------------------------------------------------------------------
def test_remove_soul_counters_a_creature_spell() -> None:
    """Remove Soul: "Counter target creature spell." The countered creature card goes to its
    owner's graveyard and never comes into play (2012 701.5a)."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"hand": ["Remove Soul"], "in_play": ["Island", "Island"]},
        {"hand": ["Air Elemental"], "in_play": ["Island"] * 5}]})
    s.do("play Air Elemental", "pass")
    assert s.game.decision.player == 0
    s.do("play Remove Soul", "target Air Elemental")
    s.resolve()
    assert labels(s, 1, "graveyard") == ["Air Elemental"]
    assert labels(s, 0, "graveyard") == ["Remove Soul"]
    assert not s.game.stack
    s.assert_in_play("Air Elemental", False)


def test_remove_soul_can_target_only_creature_spells() -> None:
    """Remove Soul: "target creature spell": a Shock (instant) or Pacifism (Aura) on the stack
    is no legal target, so Remove Soul can't be played; with a creature spell and an instant
    both on the stack only the creature spell is offered."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"hand": ["Remove Soul"], "in_play": ["Island", "Island", "Grizzly Bears"]},
        {"hand": ["Pacifism", "Grizzly Bears", "Shock"],
         "in_play": ["Plains", "Plains", "Forest", "Forest", "Mountain"]}]})
    s.do("play Pacifism", "target Grizzly Bears", "pass")
    assert s.game.decision.player == 0
    assert "play Remove Soul" not in s.options()
    s.do("pass")  # Pacifism resolves
    s.do("play Grizzly Bears#2", "play Shock", "target player 0", "pass")
    assert s.game.decision.player == 0
    s.do("play Remove Soul")
    assert s.options() == ["target Grizzly Bears#2"]


# -- Rod of Ruin -------------------------------------------------------------------------------
def test_rod_of_ruin_pings_a_creature_or_player() -> None:
    """Rod of Ruin: "{3}, {T}: Rod of Ruin deals 1 damage to target creature or player." An
    artifact's {T} ability is usable the turn it comes into play (2007 CR 212.3d is about
    creatures only); once tapped it can't be used again this turn."""
    s = main({"in_play": [{"card": "Rod of Ruin", "summoning_sick": True}] + ["Mountain"] * 6},
             {"in_play": ["Sage Owl"]})
    s.do("activate Rod of Ruin")
    assert s.options() == ["target player 0", "target player 1", "target Sage Owl"]
    s.do("target Sage Owl")
    assert s.perm("Rod of Ruin").tapped
    assert sum(p.tapped for p in s.game.permanents if p.name == "Mountain") == 3
    s.resolve()
    assert labels(s, 1, "graveyard") == ["Sage Owl"]
    assert "activate Rod of Ruin" not in s.options()


def test_rod_of_ruin_needs_three_mana() -> None:
    """Rod of Ruin: "{3}, {T}": with only two untapped lands it can't be activated; with three
    it hits a player for 1."""
    s = main({"in_play": ["Rod of Ruin", "Mountain", "Mountain"]})
    assert "activate Rod of Ruin" not in s.options()
    s = main({"in_play": ["Rod of Ruin", "Mountain", "Mountain", "Plains"]})
    s.do("activate Rod of Ruin", "target player 1")
    s.resolve()
    s.assert_life(1, 19)


# -- Sage Owl ----------------------------------------------------------------------------------
def test_sage_owl_puts_the_top_four_back_in_any_order() -> None:
    """Sage Owl: "When Sage Owl comes into play, look at the top four cards of your library, then
    put them back in any order." The first card chosen ends up on top; the fifth card is
    untouched; no card leaves the library."""
    s = main({"hand": ["Sage Owl"], "library": ["Forest", "Island", "Plains", "Swamp", "Mountain"],
              "in_play": ["Island"] * 2})
    s.do("play Sage Owl")
    s.pass_priority(2)  # the Owl resolves, its trigger goes on the stack
    s.assert_in_play("Sage Owl")
    assert "flying" in s.perm("Sage Owl").keywords
    s.resolve()
    assert s.game.decision.kind is K.CHOOSE_CARDS
    assert s.options() == ["put on top Forest", "put on top Island", "put on top Plains",
                           "put on top Swamp"]
    s.do("put on top Swamp", "put on top Island", "put on top Forest", "put on top Plains")
    assert labels(s, 0, "library") == ["Swamp", "Island", "Forest", "Plains", "Mountain"]
    assert labels(s, 0, "hand") == []


def test_sage_owl_with_fewer_than_four_cards() -> None:
    """Sage Owl with two cards in the library looks at both and puts them back in the chosen
    order (2012 609.3: do as much as possible)."""
    s = main({"hand": ["Sage Owl"], "library": ["Forest", "Island"], "in_play": ["Island"] * 2})
    s.do("play Sage Owl")
    s.pass_priority(2)
    s.resolve()
    s.do("put on top Island", "put on top Forest")
    assert labels(s, 0, "library") == ["Island", "Forest"]


# -- Telling Time ------------------------------------------------------------------------------
def test_telling_time_one_to_hand_one_on_top_one_on_the_bottom() -> None:
    """Telling Time: "Look at the top three cards of your library. Put one of those cards into
    your hand, one on top of your library, and one on the bottom of your library." """
    s = main({"hand": ["Telling Time"], "library": ["Forest", "Island", "Plains", "Swamp", "Mountain"],
              "in_play": ["Island", "Island"]})
    s.do("play Telling Time")
    s.resolve()
    assert s.options() == ["put into hand Forest", "put into hand Island", "put into hand Plains"]
    s.do("put into hand Plains")
    assert s.options() == ["put on top Forest", "put on top Island"]
    s.do("put on top Island")
    assert s.options() == ["put on the bottom Forest"]
    s.do("put on the bottom Forest")
    assert labels(s, 0, "hand") == ["Plains"]
    assert labels(s, 0, "library") == ["Island", "Swamp", "Mountain", "Forest"]


def test_telling_time_is_an_instant() -> None:
    """Telling Time is an instant: playable in the opponent's turn."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "upkeep", "players": [
        {"hand": ["Telling Time"], "library": ["Forest", "Island", "Plains"], "in_play": ["Island"] * 2},
        {}]})
    s.pass_priority()
    assert "play Telling Time" in s.options()


def test_telling_time_with_two_cards_follows_the_instructions_in_order() -> None:
    """Telling Time with fewer than three cards: "follow the instructions in the order given for
    any cards that are there" (Gatherer 2005-10-01): with two cards, one goes to hand and the
    other on top; nothing goes to the bottom."""
    s = main({"hand": ["Telling Time"], "library": ["Forest", "Plains"], "in_play": ["Island"] * 2})
    s.do("play Telling Time")
    s.resolve()
    s.do("put into hand Plains")
    assert s.options() == ["put on top Forest"]
    s.do("put on top Forest")
    assert s.game.decision.kind is K.PRIORITY
    assert labels(s, 0, "hand") == ["Plains"]
    assert labels(s, 0, "library") == ["Forest"]


def test_telling_time_with_one_card_puts_it_into_hand() -> None:
    """Telling Time with one card: it goes to the hand (the first instruction)."""
    s = main({"hand": ["Telling Time"], "library": ["Forest"], "in_play": ["Island"] * 2})
    s.do("play Telling Time")
    s.resolve()
    assert s.options() == ["put into hand Forest"]
    s.do("put into hand Forest")
    assert labels(s, 0, "hand") == ["Forest"]
    assert labels(s, 0, "library") == []


# -- Thieving Magpie ---------------------------------------------------------------------------
def test_thieving_magpie_draws_when_it_deals_combat_damage_to_the_opponent() -> None:
    """Thieving Magpie: "Flying" and "Whenever Thieving Magpie deals damage to an opponent, you
    draw a card." The trigger comes when the combat damage resolves (RULES_2007.md §8)."""
    s = combat({"in_play": ["Thieving Magpie"], "library": ["Island", "Forest"]}, ["Grizzly Bears"])
    attack(s, "Thieving Magpie")
    assert block_options(s) == []
    to_damage(s)
    assert labels(s, 0, "hand") == []
    s.pass_priority(2)  # the combat damage resolves
    s.assert_life(1, 19)
    assert [i.label for i in s.game.stack] == ["Thieving Magpie"]  # its trigger
    s.resolve()
    assert labels(s, 0, "hand") == ["Island"]


def test_thieving_magpie_damage_to_a_creature_draws_nothing() -> None:
    """Thieving Magpie triggers only on damage to an opponent: blocked by Wild Griffin, it deals
    its damage to the Griffin and draws nothing."""
    s = combat({"in_play": ["Thieving Magpie"], "library": ["Island"]}, ["Wild Griffin"])
    attack(s, "Thieving Magpie")
    block(s, ("Thieving Magpie", "Wild Griffin"))
    to_damage(s)
    s.resolve()
    s.assert_damage("Wild Griffin", 1)
    assert not s.game.stack
    assert labels(s, 0, "hand") == []
    s.assert_life(1, 20)


# -- Ancestor's Chosen, Angel of Mercy, Venerable Monk: "comes into play" life gain ------------
def test_ancestors_chosen_gains_1_life_per_card_in_your_graveyard() -> None:
    """Ancestor's Chosen: "When Ancestor's Chosen comes into play, you gain 1 life for each card
    in your graveyard." Counts its controller's graveyard only (three cards, not the opponent's
    two), when the trigger resolves (2012 608.2h)."""
    s = main({"hand": ["Ancestor's Chosen"], "graveyard": ["Shock", "Forest", "Grizzly Bears"],
              "in_play": ["Plains"] * 7},
             {"graveyard": ["Boomerang", "Island"]})
    s.do("play Ancestor's Chosen")
    s.pass_priority(2)
    assert [i.label for i in s.game.stack] == ["Ancestor's Chosen"]
    s.resolve()
    s.assert_life(0, 23)
    s.assert_life(1, 20)
    s.assert_pt("Ancestor's Chosen", 4, 4)


def test_ancestors_chosen_counts_the_graveyard_on_resolution() -> None:
    """Ancestor's Chosen: "you gain 1 life for each card in your graveyard" is counted as the
    trigger resolves (2012 608.2h), not when it triggered: the opponent Shocks the controller's
    Wild Griffin in response, so the graveyard holds 2 cards (the old Forest and the Griffin)."""
    s = main({"hand": ["Ancestor's Chosen"], "graveyard": ["Forest"],
              "in_play": ["Plains"] * 7 + ["Wild Griffin"]},
             {"hand": ["Shock"], "in_play": ["Mountain"]})
    s.do("play Ancestor's Chosen")
    s.pass_priority(2)
    s.do("pass", "play Shock", "target Wild Griffin")
    s.resolve()  # Shock
    assert labels(s, 0, "graveyard") == ["Forest", "Wild Griffin"]
    s.resolve()  # the trigger
    s.assert_life(0, 22)


def test_ancestors_chosen_first_strike() -> None:
    """Ancestor's Chosen: "First strike": blocked by Hill Giant (3/3), the 4/4 kills it before it
    deals damage (2007 CR 310.5)."""
    s = combat(["Ancestor's Chosen"], ["Hill Giant"])
    attack(s, "Ancestor's Chosen")
    block(s, ("Ancestor's Chosen", "Hill Giant"))
    to_damage(s)
    s.resolve()
    assert not s.in_play("Hill Giant")
    s.pass_priority(2)
    s.assert_damage("Ancestor's Chosen", 0)


def test_angel_of_mercy_gains_3_life_and_flies() -> None:
    """Angel of Mercy: "Flying" and "When Angel of Mercy comes into play, you gain 3 life." """
    s = main({"hand": ["Angel of Mercy"], "in_play": ["Plains"] * 5})
    s.do("play Angel of Mercy")
    s.pass_priority(2)
    s.assert_life(0, 20)
    s.resolve()
    s.assert_life(0, 23)
    s.assert_pt("Angel of Mercy", 3, 3)
    assert "flying" in s.perm("Angel of Mercy").keywords


def test_venerable_monk_gains_2_life_only_for_itself() -> None:
    """Venerable Monk: "When Venerable Monk comes into play, you gain 2 life." Another creature
    coming into play afterwards doesn't trigger it."""
    s = main({"hand": ["Venerable Monk", "Wild Griffin"], "in_play": ["Plains"] * 6})
    s.do("play Venerable Monk")
    s.pass_priority(2)
    s.resolve()
    s.assert_life(0, 22)
    s.do("play Wild Griffin")
    s.resolve()
    s.assert_in_play("Wild Griffin")
    assert not s.game.stack
    s.assert_life(0, 22)


# -- Cho-Manno, Revolutionary ------------------------------------------------------------------
def test_cho_manno_prevents_all_damage_to_itself() -> None:
    """Cho-Manno, Revolutionary: "Prevent all damage that would be dealt to Cho-Manno,
    Revolutionary." Shock and Rod of Ruin do nothing to it (2012 615)."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"] * 4 + ["Rod of Ruin"]},
             {"in_play": ["Cho-Manno, Revolutionary"]})
    s.do("play Shock", "target Cho-Manno, Revolutionary")
    s.resolve()
    s.do("activate Rod of Ruin", "target Cho-Manno, Revolutionary")
    s.resolve()
    s.assert_in_play("Cho-Manno, Revolutionary")
    s.assert_damage("Cho-Manno, Revolutionary", 0)


def test_cho_manno_blocks_craw_wurm_and_survives() -> None:
    """Cho-Manno, Revolutionary blocks Craw Wurm (6/4): the Wurm's 6 combat damage is prevented,
    Cho-Manno's 2 is dealt normally."""
    s = combat(["Craw Wurm"], ["Cho-Manno, Revolutionary"])
    attack(s, "Craw Wurm")
    block(s, ("Craw Wurm", "Cho-Manno, Revolutionary"))
    to_damage(s)
    s.resolve()
    s.assert_damage("Cho-Manno, Revolutionary", 0)
    s.assert_damage("Craw Wurm", 2)
    s.assert_life(1, 20)


# -- Condemn -----------------------------------------------------------------------------------
def test_condemn_puts_an_attacker_on_the_bottom_and_its_controller_gains_its_toughness() -> None:
    """Condemn: "Put target attacking creature on the bottom of its owner's library. Its
    controller gains life equal to its toughness." The defending player Condemns Craw Wurm
    (6/4): it goes under the attacker's library, the attacker gains 4."""
    s = combat({"in_play": ["Craw Wurm"], "library": ["Forest"]},
               {"in_play": ["Plains"], "hand": ["Condemn"]})
    attack(s, "Craw Wurm")
    s.do("pass", "play Condemn", "target Craw Wurm")
    s.resolve()
    s.assert_in_play("Craw Wurm", False)
    assert labels(s, 0, "library") == ["Forest", "Craw Wurm"]
    s.assert_life(0, 24)
    s.assert_life(1, 20)
    assert labels(s, 1, "graveyard") == ["Condemn"]


def test_condemn_targets_only_attacking_creatures() -> None:
    """Condemn: "target attacking creature": the blocker and the non-attacking creatures are no
    legal targets; before attackers are declared Condemn can't be played at all."""
    s = combat(["Craw Wurm", "Grizzly Bears"],
               {"in_play": ["Plains", "Hill Giant", "Wild Griffin"], "hand": ["Condemn"]})
    s.pass_priority()
    assert s.game.decision.player == 1
    assert "play Condemn" not in s.options()
    s.pass_priority()
    s.do("attack with Craw Wurm", "done")
    block(s, ("Craw Wurm", "Hill Giant"))
    s.pass_priority()
    s.do("play Condemn")
    assert s.options() == ["target Craw Wurm"]
    with pytest.raises(IllegalActionError):
        s.do("target Hill Giant")


def test_condemn_uses_the_toughness_the_creature_last_had_in_play() -> None:
    """Condemn: "Its controller gains life equal to its toughness": the creature's last known
    toughness in play (Gatherer 2010-08-15), here Grizzly Bears pumped by Giant Growth (2/2 +3/+3
    = 5)."""
    s = combat({"in_play": ["Grizzly Bears", "Forest"], "hand": ["Giant Growth"]},
               {"in_play": ["Plains"], "hand": ["Condemn"]})
    attack(s, "Grizzly Bears")
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 5, 5)
    s.do("pass", "play Condemn", "target Grizzly Bears")
    s.resolve()
    s.assert_life(0, 25)


def test_condemn_owner_and_controller_differ() -> None:
    """Condemn: "its owner's library" but "Its controller gains life": player 0 attacks with
    player 1's Hill Giant; it goes under player 1's library, player 0 gains 3."""
    s = combat([], {"in_play": ["Plains", {"card": "Hill Giant", "controller": 0}],
                    "hand": ["Condemn"], "library": ["Island"]})
    attack(s, "Hill Giant")
    s.do("pass", "play Condemn", "target Hill Giant")
    s.resolve()
    assert labels(s, 1, "library") == ["Island", "Hill Giant"]
    s.assert_life(0, 23)
    s.assert_life(1, 20)


def test_rules_2007_scenario_7_condemn_with_combat_damage_on_the_stack() -> None:
    """RULES_2007.md §19 scenario 7: A's Craw Wurm is blocked by D's Grizzly Bears; with combat
    damage on the stack D Condemns the Wurm: A gains 4, and the Wurm's 6 damage still kills the
    Bears (2007 CR 310.4: damage is dealt as assigned even if the source has left play). The
    Wurm took no damage and is on the bottom of A's library."""
    s = combat(["Craw Wurm"], {"in_play": ["Grizzly Bears", "Plains"], "hand": ["Condemn"]})
    attack(s, "Craw Wurm")
    block(s, ("Craw Wurm", "Grizzly Bears"))
    to_damage(s)
    assert [i.kind for i in s.game.stack] == ["combat_damage"]
    s.pass_priority()  # A passes with damage on the stack
    s.do("play Condemn", "target Craw Wurm")
    s.resolve()  # Condemn
    s.assert_life(0, 24)
    assert labels(s, 0, "library") == ["Craw Wurm"]
    s.resolve()  # combat damage
    s.assert_in_play("Grizzly Bears", False)
    assert labels(s, 1, "graveyard") == ["Condemn", "Grizzly Bears"]
    s.assert_life(1, 20)


# -- Ghost Warden ------------------------------------------------------------------------------
def test_ghost_warden_gives_target_creature_plus_one_until_end_of_turn() -> None:
    """Ghost Warden: "{T}: Target creature gets +1/+1 until end of turn." Any creature, the
    opponent's too; the bonus ends in the cleanup step (2012 514.2)."""
    s = main({"in_play": ["Ghost Warden", "Grizzly Bears"]}, {"in_play": ["Hill Giant"]})
    s.do("activate Ghost Warden")
    assert s.options() == ["target Ghost Warden", "target Grizzly Bears", "target Hill Giant"]
    s.do("target Hill Giant")
    assert s.perm("Ghost Warden").tapped
    s.resolve()
    s.assert_pt("Hill Giant", 4, 4)
    assert "activate Ghost Warden" not in s.options()
    s.advance_to("upkeep", active=1)
    s.assert_pt("Hill Giant", 3, 3)


def test_ghost_warden_summoning_sick_cannot_tap() -> None:
    """Ghost Warden: a {T} ability of a creature can't be played the turn it came under its
    controller's control (2007 CR 212.3d)."""
    s = main({"in_play": [{"card": "Ghost Warden", "summoning_sick": True}, "Grizzly Bears"]})
    assert "activate Ghost Warden" not in s.options()


# -- Icy Manipulator ---------------------------------------------------------------------------
def test_icy_manipulator_taps_a_creature_before_it_can_attack() -> None:
    """Icy Manipulator: "{1}, {T}: Tap target artifact, creature, or land." Player 1 taps player
    0's Craw Wurm in player 0's beginning of combat, so it can't attack."""
    s = combat(["Craw Wurm", "Grizzly Bears"], ["Icy Manipulator", "Island"])
    s.pass_priority()
    s.do("activate Icy Manipulator", "target Craw Wurm")
    s.resolve()
    assert s.perm("Craw Wurm").tapped
    assert s.perm("Icy Manipulator").tapped
    assert s.perm("Island").tapped
    s.pass_priority(2)
    assert s.options() == ["attack with Grizzly Bears", "done"]


def test_icy_manipulator_targets_artifacts_creatures_and_lands_only() -> None:
    """Icy Manipulator: "target artifact, creature, or land": an enchantment (Pacifism) is not a
    legal target; artifacts (itself, Rod of Ruin), creatures and lands of either player are. An
    artifact's {T} ability works the turn it comes into play."""
    s = main({"in_play": [{"card": "Icy Manipulator", "summoning_sick": True}, "Island",
                          {"card": "Grizzly Bears", "id": "b"}, {"card": "Pacifism", "attached_to": "b"}]},
             {"in_play": ["Rod of Ruin", "Forest"]})
    s.do("activate Icy Manipulator")
    assert s.options() == ["target Icy Manipulator", "target Island", "target Grizzly Bears",
                           "target Rod of Ruin", "target Forest"]
    s.do("target Forest")
    s.resolve()
    assert s.perm("Forest").tapped


def test_icy_manipulator_needs_one_mana_besides_itself() -> None:
    """Icy Manipulator: "{1}, {T}": with no other mana source it can't be activated."""
    s = main({"in_play": ["Icy Manipulator"]}, {"in_play": ["Grizzly Bears"]})
    assert "activate Icy Manipulator" not in s.options()


# -- Loxodon Mystic ----------------------------------------------------------------------------
def test_loxodon_mystic_taps_target_creature() -> None:
    """Loxodon Mystic: "{W}, {T}: Tap target creature." Only creatures are targets (not lands or
    artifacts). Tapping a blocker-to-be in the attacker's turn keeps it from blocking."""
    s = combat(["Loxodon Mystic", "Plains", "Grizzly Bears"], ["Hill Giant", "Rod of Ruin", "Island"])
    s.do("activate Loxodon Mystic")
    assert s.options() == ["target Loxodon Mystic", "target Grizzly Bears", "target Hill Giant"]
    s.do("target Hill Giant")
    s.resolve()
    assert s.perm("Hill Giant").tapped and s.perm("Loxodon Mystic").tapped and s.perm("Plains").tapped
    attack(s, "Grizzly Bears")
    assert block_options(s) == []


def test_loxodon_mystic_restrictions_white_mana_and_summoning_sickness() -> None:
    """Loxodon Mystic: "{W}, {T}": needs white mana (an Island can't pay) and, being a creature,
    can't use {T} while summoning sick (2007 CR 212.3d)."""
    s = main({"in_play": ["Loxodon Mystic", "Island"]}, {"in_play": ["Hill Giant"]})
    assert "activate Loxodon Mystic" not in s.options()
    s = main({"in_play": [{"card": "Loxodon Mystic", "summoning_sick": True}, "Plains"]},
             {"in_play": ["Hill Giant"]})
    assert "activate Loxodon Mystic" not in s.options()


# -- Pacifism ----------------------------------------------------------------------------------
def test_pacifism_enchanted_creature_cant_attack() -> None:
    """Pacifism: "Enchant creature" and "Enchanted creature can't attack or block." Played on
    the opponent's Craw Wurm, it can't attack on the opponent's turn."""
    s = main({"hand": ["Pacifism"], "in_play": ["Plains", "Plains"]},
             {"library": ["Forest"], "in_play": ["Craw Wurm", "Grizzly Bears"]})
    s.do("play Pacifism")
    assert s.options() == ["target Craw Wurm", "target Grizzly Bears"]  # creatures only
    s.do("target Craw Wurm")
    s.resolve()
    assert s.perm("Pacifism").attached_to == s.perm("Craw Wurm").id
    s.advance_to("beginning_of_combat", active=1)
    s.pass_priority(2)
    assert s.options() == ["attack with Grizzly Bears", "done"]


def test_pacifism_enchanted_creature_cant_block() -> None:
    """Pacifism: "Enchanted creature can't attack or block." """
    s = combat(["Grizzly Bears"], [{"card": "Craw Wurm", "id": "w"}, {"card": "Pacifism", "attached_to": "w"},
                                   "Hill Giant"])
    attack(s, "Grizzly Bears")
    assert block_options(s) == ["block Grizzly Bears with Hill Giant", "done"]


def test_pacifism_falls_off_when_the_creature_leaves() -> None:
    """Pacifism: an Aura attached to nothing goes to its owner's graveyard as a state-based
    effect (2007 CR 420.5d) when its creature is returned to hand."""
    s = main({"hand": ["Boomerang"], "in_play": ["Island", "Island"]},
             {"in_play": [{"card": "Craw Wurm", "id": "w"}, {"card": "Pacifism", "attached_to": "w"}]})
    s.do("play Boomerang", "target Craw Wurm")
    s.resolve()
    assert labels(s, 1, "hand") == ["Craw Wurm"]
    assert labels(s, 1, "graveyard") == ["Pacifism"]


# -- Serra's Embrace ---------------------------------------------------------------------------
def test_serras_embrace_plus_two_flying_vigilance() -> None:
    """Serra's Embrace: "Enchanted creature gets +2/+2 and has flying and vigilance." Grizzly
    Bears become a 4/4 flyer that Hill Giant can't block and that doesn't tap to attack
    (2012 702.19b)."""
    s = main({"hand": ["Serra's Embrace"], "in_play": ["Plains"] * 4 + ["Grizzly Bears"]},
             {"in_play": ["Hill Giant"]})
    s.do("play Serra's Embrace", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 4, 4)
    assert {"flying", "vigilance"} <= s.perm("Grizzly Bears").keywords
    s.advance_to("beginning_of_combat")
    attack(s, "Grizzly Bears")
    assert not s.perm("Grizzly Bears").tapped
    assert block_options(s) == []
    to_damage(s)
    s.resolve()
    s.assert_life(1, 16)


def test_serras_embrace_on_an_opponents_creature_and_leaving() -> None:
    """Serra's Embrace: "Enchant creature" may target any creature; the bonus lasts only while
    attached: when the Aura is returned to hand the creature is a 3/3 without flying again."""
    s = main({"hand": ["Serra's Embrace", "Boomerang"], "in_play": ["Plains"] * 4 + ["Island"] * 2},
             {"in_play": ["Hill Giant"]})
    s.do("play Serra's Embrace", "target Hill Giant")
    s.resolve()
    s.assert_pt("Hill Giant", 5, 5)
    assert "flying" in s.perm("Hill Giant").keywords
    s.do("play Boomerang", "target Serra's Embrace")
    s.resolve()
    s.assert_pt("Hill Giant", 3, 3)
    assert "flying" not in s.perm("Hill Giant").keywords
    assert labels(s, 0, "hand") == ["Serra's Embrace"]


# -- Pariah ------------------------------------------------------------------------------------
def test_pariah_redirects_damage_to_you_onto_the_enchanted_creature() -> None:
    """Pariah: "All damage that would be dealt to you is dealt to enchanted creature instead."
    "You" is Pariah's controller; the creature may be the opponent's (Gatherer 2004-10-04).
    Player 1's Shock at player 0 kills player 1's own Grizzly Bears instead."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": [{"card": "Pariah", "attached_to": "b"}]},
        {"hand": ["Shock"], "in_play": ["Mountain", {"card": "Grizzly Bears", "id": "b"}]}]})
    s.do("play Shock", "target player 0")
    s.resolve()
    s.assert_life(0, 20)
    assert labels(s, 1, "graveyard") == ["Shock", "Grizzly Bears"]
    assert labels(s, 0, "graveyard") == ["Pariah"]


def test_pariah_all_combat_damage_goes_to_the_one_creature() -> None:
    """Pariah: "If you take damage from multiple creatures in combat, all the combat damage goes
    to one Pariah" (Gatherer 2004-10-04): Grizzly Bears and Hill Giant attack the Pariah player,
    whose Craw Wurm (6/4) takes all 5 and dies; the player loses nothing. Damage to the player's
    creatures is not redirected."""
    s = combat(["Grizzly Bears", "Hill Giant"],
               [{"card": "Craw Wurm", "id": "w", "summoning_sick": True},
                {"card": "Pariah", "attached_to": "w"}])
    attack(s, "Grizzly Bears", "Hill Giant")
    block(s)
    to_damage(s)
    s.resolve()
    s.assert_life(1, 20)
    s.assert_in_play("Craw Wurm", False)


def test_pariah_only_protects_its_controller() -> None:
    """Pariah protects only "you": damage to the other player, and damage dealt to creatures, is
    not redirected. Player 1's Pariah is on player 0's Hill Giant; player 1 Shocks player 0."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": [{"card": "Hill Giant", "id": "g"}, "Grizzly Bears"]},
        {"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain",
                                                  {"card": "Pariah", "attached_to": "g"}]}]})
    s.do("play Shock", "target player 0")
    s.resolve()
    s.assert_life(0, 18)
    s.assert_damage("Hill Giant", 0)
    s.do("play Shock#2", "target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_damage("Hill Giant", 0)


def test_pariah_on_cho_manno_prevents_the_redirected_damage() -> None:
    """Pariah on Cho-Manno, Revolutionary: damage to Pariah's controller is dealt to Cho-Manno
    instead, and "Prevent all damage that would be dealt to Cho-Manno" then prevents it
    (2012 616.1: each replacement/prevention effect applies once to the modified event)."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"]},
             {"in_play": [{"card": "Cho-Manno, Revolutionary", "id": "c"},
                          {"card": "Pariah", "attached_to": "c"}]})
    s.do("play Shock", "target player 1")
    s.resolve()
    s.assert_life(1, 20)
    s.assert_damage("Cho-Manno, Revolutionary", 0)


def test_pariah_thieving_magpie_damage_redirected_draws_nothing() -> None:
    """Pariah vs Thieving Magpie: "Whenever Thieving Magpie deals damage to an opponent" doesn't
    trigger when Pariah makes the damage be dealt to a creature instead."""
    s = combat({"in_play": ["Thieving Magpie"], "library": ["Island"]},
               [{"card": "Craw Wurm", "id": "w"}, {"card": "Pariah", "attached_to": "w"}])
    attack(s, "Thieving Magpie")
    block(s)
    to_damage(s)
    s.resolve()
    s.assert_life(1, 20)
    s.assert_damage("Craw Wurm", 1)
    assert not s.game.stack
    assert labels(s, 0, "hand") == []


# -- Legend rule: RULES_2007.md §19 scenario 14 ----------------------------------------------
def test_rules_2007_scenario_14_two_arcanis_one_per_player_both_go() -> None:
    """RULES_2007.md §19 scenario 14 / §12 (2007 CR 420.5e): player 0 controls Arcanis the
    Omnipotent; player 1 plays another. Both legendary permanents with the same name go to
    their owners' graveyards, regardless of controller."""
    s = Scenario({"turn": 4, "active_player": 1, "step": "precombat_main", "players": [
        {"in_play": ["Arcanis the Omnipotent"]},
        {"hand": ["Arcanis the Omnipotent"], "in_play": ["Island"] * 6}]})
    s.do("play Arcanis the Omnipotent#2")
    s.resolve()
    s.assert_in_play("Arcanis the Omnipotent", False)
    s.assert_in_play("Arcanis the Omnipotent#2", False)
    assert labels(s, 0, "graveyard") == ["Arcanis the Omnipotent"]
    assert labels(s, 1, "graveyard") == ["Arcanis the Omnipotent#2"]


def test_rules_2007_scenario_14_two_cho_manno_both_go_despite_prevention() -> None:
    """Legend rule with Cho-Manno, Revolutionary: both go to their owners' graveyards; it's not
    damage or destruction, so Cho-Manno's prevention doesn't help (2007 CR 420.5e)."""
    s = main({"hand": ["Cho-Manno, Revolutionary"], "in_play": ["Plains"] * 4},
             {"in_play": ["Cho-Manno, Revolutionary"]})
    s.do("play Cho-Manno, Revolutionary")
    s.resolve()
    assert labels(s, 0, "graveyard") == ["Cho-Manno, Revolutionary"]
    assert labels(s, 1, "graveyard") == ["Cho-Manno, Revolutionary#2"]
    assert not [p for p in s.game.permanents if p.name == "Cho-Manno, Revolutionary"]


def test_legend_rule_does_not_touch_different_legends() -> None:
    """The legend rule needs two legendary permanents with the same name: Arcanis and Cho-Manno
    stay in play together."""
    s = main({"hand": ["Cho-Manno, Revolutionary"], "in_play": ["Plains"] * 4 + ["Arcanis the Omnipotent"]})
    s.do("play Cho-Manno, Revolutionary")
    s.resolve()
    s.assert_in_play("Cho-Manno, Revolutionary")
    s.assert_in_play("Arcanis the Omnipotent")


# -- interactions ------------------------------------------------------------------------------
def test_arcanis_draw_ability_resolves_after_arcanis_returned_in_response() -> None:
    """Arcanis the Omnipotent: "{T}: Draw three cards." An activated ability on the stack is
    independent of its source (2012 113.7a): returning Arcanis to hand with "{2}{U}{U}: Return
    Arcanis the Omnipotent to its owner's hand." in response doesn't stop the draw."""
    s = main({"library": ["Forest", "Island", "Plains", "Swamp"],
              "in_play": ["Arcanis the Omnipotent"] + ["Island"] * 4})
    s.do("activate Arcanis the Omnipotent ability 1")
    s.do("activate Arcanis the Omnipotent ability 2")
    s.resolve()
    assert labels(s, 0, "hand") == ["Arcanis the Omnipotent"]
    s.resolve()
    assert labels(s, 0, "hand") == ["Arcanis the Omnipotent", "Forest", "Island", "Plains"]


def test_thieving_magpie_returned_with_damage_on_the_stack_deals_damage_but_draws_nothing() -> None:
    """2007 CR 310.4: combat damage on the stack is dealt even if its source has left play; but
    Thieving Magpie's "Whenever Thieving Magpie deals damage to an opponent" needs the Magpie in
    play when the damage is dealt (only leaves-play abilities look back, 2012 603.6d), so
    returning it to hand in response means no card is drawn."""
    s = combat({"in_play": ["Thieving Magpie", "Island", "Island"], "hand": ["Boomerang"],
                "library": ["Forest"]}, [])
    attack(s, "Thieving Magpie")
    block(s)
    to_damage(s)
    s.do("play Boomerang", "target Thieving Magpie")
    s.resolve()
    assert labels(s, 0, "hand") == ["Thieving Magpie"]
    s.resolve()  # combat damage
    s.assert_life(1, 19)
    assert not s.game.stack
    assert labels(s, 0, "hand") == ["Thieving Magpie"]
    assert labels(s, 0, "library") == ["Forest"]


def test_icy_manipulator_tapping_a_blocker_does_not_stop_its_combat_damage() -> None:
    """Icy Manipulator: tapping a creature after it has blocked doesn't remove it from combat
    (2012 506.4); a tapped blocker still deals combat damage. Player 0 taps the blocking Hill
    Giant; it still kills the attacking Grizzly Bears."""
    s = combat(["Grizzly Bears", "Icy Manipulator", "Island"], ["Hill Giant"])
    attack(s, "Grizzly Bears")
    block(s, ("Grizzly Bears", "Hill Giant"))
    s.do("activate Icy Manipulator", "target Hill Giant")
    s.resolve()
    assert s.perm("Hill Giant").tapped
    to_damage(s)
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_damage("Hill Giant", 2)


def test_cho_manno_blocking_a_trampler_must_be_assigned_lethal_damage() -> None:
    """Cho-Manno blocking Stampeding Wildebeests (5/4 trample): trample assignment ignores
    prevention (2007 CR 502.9), so at least 2 (its toughness) must go to Cho-Manno; the rest may
    go to the player. The 2 is then prevented."""
    s = combat(["Stampeding Wildebeests"], ["Cho-Manno, Revolutionary"])
    attack(s, "Stampeding Wildebeests")
    block(s, ("Stampeding Wildebeests", "Cho-Manno, Revolutionary"))
    s.pass_priority(2)
    assert s.options() == [f"assign {n} damage to Cho-Manno, Revolutionary" for n in range(2, 6)]
    s.do("assign 2 damage to Cho-Manno, Revolutionary")
    s.resolve()
    s.assert_life(1, 17)
    s.assert_damage("Cho-Manno, Revolutionary", 0)
    s.assert_damage("Stampeding Wildebeests", 2)


def test_pariah_does_not_redirect_mana_burn() -> None:
    """Pariah redirects damage only; mana burn is life loss, not damage (RULES_2007.md §2,
    2007 CR 300.3): the Pariah player burns for 1, the enchanted creature takes nothing."""
    s = main({"in_play": ["Island", {"card": "Grizzly Bears", "id": "b"},
                          {"card": "Pariah", "attached_to": "b"}]})
    s.do("tap Island for U")
    s.pass_priority(2)  # the precombat main phase ends with U floating
    s.assert_life(0, 19)
    s.assert_damage("Grizzly Bears", 0)


def test_condemn_toughness_counts_the_auras_bonus_and_the_aura_falls_off() -> None:
    """Condemn on Grizzly Bears enchanted with Serra's Embrace (+2/+2): its controller gains 4
    (its last toughness in play); the Aura, attached to nothing, goes to its owner's graveyard
    (2007 CR 420.5d)."""
    s = Scenario({"turn": 3, "step": "declare_attackers", "players": [
        {"in_play": [{"card": "Grizzly Bears", "id": "b", "attacking": True},
                     {"card": "Serra's Embrace", "attached_to": "b"}]},
        {"hand": ["Condemn"], "in_play": ["Plains"]}]})
    s.do("pass", "play Condemn", "target Grizzly Bears")
    s.resolve()
    s.assert_life(0, 24)
    assert labels(s, 0, "library") == ["Grizzly Bears"]
    assert labels(s, 0, "graveyard") == ["Serra's Embrace"]


def test_remove_soul_countering_with_krakens_eye_out_triggers_twice() -> None:
    """Kraken's Eye triggers for each blue spell played: the opponent's Air Elemental and the
    Remove Soul that counters it (both blue) give 2 life; countering doesn't undo the trigger."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"hand": ["Remove Soul"], "in_play": ["Island", "Island", "Kraken's Eye"]},
        {"hand": ["Air Elemental"], "in_play": ["Island"] * 5}]})
    s.do("play Air Elemental")
    answer_may(s, "yes")
    s.assert_life(0, 21)
    s.pass_priority()  # the active player passes with the Elemental on the stack
    s.do("play Remove Soul", "target Air Elemental")
    answer_may(s, "yes")
    s.assert_life(0, 22)
    s.resolve()
    assert labels(s, 1, "graveyard") == ["Air Elemental"]


def test_pacifism_whose_target_left_is_countered() -> None:
    """Pacifism is an Aura spell that targets (RULES_2007.md §16): if its creature is returned to
    hand in response, the spell is countered on resolution (2007 CR 413.2a) and goes to its
    owner's graveyard."""
    s = main({"hand": ["Pacifism"], "in_play": ["Plains", "Plains"]},
             {"hand": ["Boomerang"], "in_play": ["Island", "Island", "Craw Wurm"]})
    s.do("play Pacifism", "target Craw Wurm", "pass")
    s.do("play Boomerang", "target Craw Wurm")
    s.resolve()
    s.resolve()
    assert not s.game.stack
    assert labels(s, 0, "graveyard") == ["Pacifism"]
    assert labels(s, 1, "hand") == ["Craw Wurm"]
    s.assert_in_play("Pacifism", False)


def test_pariah_creature_gone_with_damage_on_the_stack_the_player_takes_it() -> None:
    """Pariah's redirection applies when the combat damage is dealt (RULES_2007.md §6): if the
    enchanted creature is returned to hand after damage is on the stack, Pariah is gone too and
    the player takes the damage."""
    s = combat(["Hill Giant"], {"in_play": ["Island", "Island", {"card": "Grizzly Bears", "id": "b"},
                                            {"card": "Pariah", "attached_to": "b"}],
                                "hand": ["Boomerang"]})
    attack(s, "Hill Giant")
    block(s)
    to_damage(s)
    s.pass_priority()
    s.do("play Boomerang", "target Grizzly Bears")
    s.resolve()
    assert labels(s, 1, "graveyard") == ["Boomerang", "Pariah"]
    s.resolve()
    s.assert_life(1, 17)


def test_counsel_of_the_soratami_not_with_a_spell_on_the_stack() -> None:
    """Counsel of the Soratami (sorcery): not even in its controller's main phase while the stack
    is not empty (2012 307.1)."""
    s = main({"hand": ["Counsel of the Soratami", "Boomerang"], "in_play": ["Island"] * 5},
             {"in_play": ["Forest"]})
    assert "play Counsel of the Soratami" in s.options()
    s.do("play Boomerang", "target Forest")
    assert "play Counsel of the Soratami" not in s.options()
