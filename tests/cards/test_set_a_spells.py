"""Scenario tests for the instants and sorceries of Tenth Edition:
pumps, life, destruction (targeted and "all"), bounce, tap, damage sweepers, graveyard
returns, library search, draw-then-discard, a counterspell with a library look, and Stun.

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known
(../shared/reference/RULES_2007.md), else 2012 CR. Player 0 is active unless stated otherwise.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.testing import Scenario, attack, kind, labels, scenario, to_blockers

K = DecisionKind


def end_turn(s: Scenario) -> None:
    """Pass to the next turn's upkeep (player 1 active): "until end of turn" effects have ended
    in the cleanup step (2007 CR 314.2)."""
    s.advance_to("upkeep", active=1)


# -- Pump spells -------------------------------------------------------------------------------
def test_aggressive_urge_pumps_any_creature_and_draws() -> None:
    """Aggressive Urge: "Target creature gets +1/+1 until end of turn. Draw a card." Any
    creature is a legal target (the opponent's too); the effect ends at cleanup (2007 CR 314.2)."""
    s = scenario({"hand": ["Aggressive Urge"], "library": ["Forest"], "in_play": ["Forest", "Forest"]},
                 {"in_play": ["Hill Giant"]})
    s.do("play Aggressive Urge")
    assert s.options() == ["target Hill Giant"]
    s.do("target Hill Giant")
    s.resolve()
    s.assert_pt("Hill Giant", 4, 4)
    assert labels(s, 0, "hand") == ["Forest"]
    end_turn(s)
    s.assert_pt("Hill Giant", 3, 3)


def test_aggressive_urge_needs_a_creature_target() -> None:
    """Aggressive Urge targets a creature (2007 CR 409.1d): with no creature in play it can't be
    played; a land is not a creature."""
    s = scenario({"hand": ["Aggressive Urge"], "in_play": ["Forest", "Forest"]})
    assert "play Aggressive Urge" not in s.options()


def test_angelic_blessing_pumps_and_grants_flying_until_end_of_turn() -> None:
    """Angelic Blessing: "Target creature gets +3/+3 and gains flying until end of turn." Both
    parts end at cleanup (2007 CR 314.2)."""
    s = scenario({"hand": ["Angelic Blessing"], "in_play": ["Plains", "Plains", "Plains", "Grizzly Bears"]})
    s.do("play Angelic Blessing", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 5, 5)
    assert s.perm("Grizzly Bears").has("flying")
    end_turn(s)
    s.assert_pt("Grizzly Bears", 2, 2)
    assert not s.perm("Grizzly Bears").has("flying")


def test_angelic_blessing_flyer_cannot_be_blocked_by_a_ground_creature() -> None:
    """Angelic Blessing's flying: "It can't be blocked except by creatures with flying or reach"
    (2007 CR 502.4). Blessed Grizzly Bears attack; Hill Giant is no blocker, 5 damage is dealt."""
    s = scenario({"hand": ["Angelic Blessing"], "in_play": ["Plains", "Plains", "Plains", "Grizzly Bears"]},
                 {"in_play": ["Hill Giant"]})
    s.do("play Angelic Blessing", "target Grizzly Bears")
    s.resolve()
    attack(s, "Grizzly Bears")
    s.advance_to("end_of_combat")
    s.assert_life(1, 15)


def test_fists_of_the_anvil_gives_plus_four_power_only() -> None:
    """Fists of the Anvil: "Target creature gets +4/+0 until end of turn." """
    s = scenario({"hand": ["Fists of the Anvil"], "in_play": ["Mountain", "Mountain", "Grizzly Bears"]})
    s.do("play Fists of the Anvil", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 6, 2)
    end_turn(s)
    s.assert_pt("Grizzly Bears", 2, 2)


def test_might_of_oaks_gives_plus_seven() -> None:
    """Might of Oaks: "Target creature gets +7/+7 until end of turn." An instant: it can be
    played on the opponent's turn (2007 CR 212.6)."""
    s = scenario({"hand": ["Might of Oaks"], "in_play": ["Forest", "Forest", "Forest", "Forest",
                                                          "Grizzly Bears"]},
                 {}, active_player=1)
    s.pass_priority()
    s.do("play Might of Oaks", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 9, 9)


def test_righteousness_targets_only_a_blocking_creature() -> None:
    """Righteousness: "Target blocking creature gets +7/+7 until end of turn." Grizzly Bears
    block Hill Giant: only the blocker is a target, and it survives and kills the Giant."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "declare_blockers", "players": [
        {"hand": ["Righteousness"],
         "in_play": ["Plains", {"card": "Grizzly Bears", "blocking": ["g"]}, "Youthful Knight"]},
        {"in_play": [{"card": "Hill Giant", "id": "g", "attacking": True}]}]})
    s.pass_priority()
    s.do("play Righteousness")
    assert s.options() == ["target Grizzly Bears"]
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 9, 9)
    s.advance_to("end_of_combat", active=1)
    s.assert_in_play("Grizzly Bears")
    s.assert_in_play("Hill Giant", False)


def test_righteousness_has_no_target_outside_blocks() -> None:
    """Righteousness needs a *blocking* creature: in a main phase (or for an attacker) there is
    no legal target, so it can't be played (2007 CR 409.1d)."""
    s = scenario({"hand": ["Righteousness"], "in_play": ["Plains", "Grizzly Bears"]},
                 {"in_play": ["Hill Giant"]})
    assert "play Righteousness" not in s.options()
    s2 = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"hand": ["Righteousness"], "in_play": ["Plains", {"card": "Grizzly Bears", "id": "a",
                                                          "attacking": True}]},
        {"in_play": [{"card": "Hill Giant", "blocking": ["a"]}]}]})
    s2.do("play Righteousness")
    assert s2.options() == ["target Hill Giant"]


# -- Life ---------------------------------------------------------------------------------------
def test_natural_spring_target_player_gains_eight() -> None:
    """Natural Spring: "Target player gains 8 life." Either player may be the target."""
    s = scenario({"hand": ["Natural Spring", "Natural Spring"], "in_play": ["Forest"] * 10})
    s.do("play Natural Spring")
    assert sorted(s.options()) == ["target player 0", "target player 1"]
    s.do("target player 0")
    s.resolve()
    s.assert_life(0, 28)
    s.do("play Natural Spring#2", "target player 1")
    s.resolve()
    s.assert_life(1, 28)


def test_soul_feast_drains_four() -> None:
    """Soul Feast: "Target player loses 4 life and you gain 4 life." """
    s = scenario({"hand": ["Soul Feast"], "in_play": ["Swamp"] * 5})
    s.do("play Soul Feast", "target player 1")
    s.resolve()
    s.assert_life(1, 16)
    s.assert_life(0, 24)


def test_soul_feast_on_yourself_nets_zero() -> None:
    """Soul Feast's target is any player: targeting yourself you lose 4 and gain 4."""
    s = scenario({"hand": ["Soul Feast"], "in_play": ["Swamp"] * 5})
    s.do("play Soul Feast", "target player 0")
    s.resolve()
    s.assert_life(0, 20)
    s.assert_life(1, 20)


def test_reviving_dose_gains_three_and_draws() -> None:
    """Reviving Dose: "You gain 3 life. Draw a card." """
    s = scenario({"hand": ["Reviving Dose"], "library": ["Island", "Plains"], "in_play": ["Plains"] * 3})
    s.do("play Reviving Dose")
    s.resolve()
    s.assert_life(0, 23)
    assert labels(s, 0, "hand") == ["Island"]
    assert labels(s, 0, "library") == ["Plains"]


def test_stronghold_discipline_each_player_loses_per_own_creature() -> None:
    """Stronghold Discipline: "Each player loses 1 life for each creature he or she controls."
    Player 0 has 1 creature, player 1 has 3; lands don't count."""
    s = scenario({"hand": ["Stronghold Discipline"], "in_play": ["Swamp"] * 4 + ["Grizzly Bears"]},
                 {"in_play": ["Hill Giant", "Grizzly Bears", "Craw Wurm", "Forest"]})
    s.do("play Stronghold Discipline")
    s.resolve()
    s.assert_life(0, 19)
    s.assert_life(1, 17)


def test_stronghold_discipline_losses_are_simultaneous_a_draw() -> None:
    """Stronghold Discipline's losses happen together; state-based effects are checked only
    after it resolves (2007 CR 420.3), so both players at 0 lose at once: a draw (2012 104.4a)."""
    s = scenario({"life": 1, "hand": ["Stronghold Discipline"], "in_play": ["Swamp"] * 4 + [
                                                                           "Grizzly Bears"]},
                 {"life": 2, "in_play": ["Hill Giant", "Grizzly Bears"]})
    s.do("play Stronghold Discipline")
    s.resolve()
    s.assert_winner(None)


# -- Warrior's Honor ---------------------------------------------------------------------------
def test_warriors_honor_pumps_only_your_creatures_in_play_now() -> None:
    """Warrior's Honor: "Creatures you control get +1/+1 until end of turn." Only creatures you
    control as it resolves are affected (the affected set is locked in as it resolves: 2012 611.2c):
    the opponent's creature and a creature coming into play later are not."""
    s = scenario({"hand": ["Warrior's Honor", "Grizzly Bears"],
                  "in_play": ["Plains"] * 3 + ["Forest"] * 2 + ["Youthful Knight", "Hill Giant"]},
                 {"in_play": ["Craw Wurm"]})
    s.do("play Warrior's Honor")
    s.resolve()
    s.assert_pt("Youthful Knight", 3, 2)
    s.assert_pt("Hill Giant", 4, 4)
    s.assert_pt("Craw Wurm", 6, 4)
    s.do("play Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 2, 2)


# -- Targeted destruction -------------------------------------------------------------------------
def test_demystify_destroys_target_enchantment_only() -> None:
    """Demystify: "Destroy target enchantment." Only enchantments are targets (an Aura or a
    global enchantment); the creature and the artifact are not."""
    s = scenario({"hand": ["Demystify"], "in_play": ["Plains", {"card": "Grizzly Bears", "id": "b"},
                                                      {"card": "Holy Strength", "attached_to": "b"}]},
                 {"in_play": ["Upwelling", "Bottle Gnomes"]})
    s.do("play Demystify")
    assert sorted(s.options()) == ["target Holy Strength", "target Upwelling"]
    s.do("target Holy Strength")
    s.resolve()
    s.assert_in_play("Holy Strength", False)
    assert sorted(labels(s, 0, "graveyard")) == ["Demystify", "Holy Strength"]
    s.assert_pt("Grizzly Bears", 2, 2)


def test_naturalize_destroys_artifact_or_enchantment() -> None:
    """Naturalize: "Destroy target artifact or enchantment." Lands and non-artifact creatures
    are not targets."""
    s = scenario({"hand": ["Naturalize", "Naturalize"], "in_play": ["Forest", "Forest", "Forest",
                                                                    "Forest", "Grizzly Bears"]},
                 {"in_play": ["Upwelling", "Bottle Gnomes", "Mountain"]})
    s.do("play Naturalize")
    assert sorted(s.options()) == ["target Bottle Gnomes", "target Upwelling"]
    s.do("target Bottle Gnomes")
    s.resolve()
    s.do("play Naturalize#2", "target Upwelling")
    s.resolve()
    s.assert_in_play("Bottle Gnomes", False)
    s.assert_in_play("Upwelling", False)
    assert sorted(labels(s, 1, "graveyard")) == ["Bottle Gnomes", "Upwelling"]


def test_rain_of_tears_destroys_target_land() -> None:
    """Rain of Tears: "Destroy target land." Only lands are targets; a sorcery (2007 CR 212.5)."""
    s = scenario({"hand": ["Rain of Tears"], "in_play": ["Swamp", "Swamp", "Swamp", "Grizzly Bears"]},
                 {"in_play": ["Forest"]})
    s.do("play Rain of Tears")
    assert "target Forest" in s.options()
    assert all("Swamp" in o or "Forest" in o for o in s.options())
    s.do("target Forest")
    s.resolve()
    s.assert_in_play("Forest", False)
    assert labels(s, 1, "graveyard") == ["Forest"]


def test_rain_of_tears_is_a_sorcery() -> None:
    """Rain of Tears is a sorcery: not playable on the opponent's turn (2007 CR 212.5)."""
    s = scenario({"hand": ["Rain of Tears"], "in_play": ["Swamp", "Swamp", "Swamp"]},
                 {"in_play": ["Forest"]}, active_player=1)
    s.pass_priority()
    assert kind(s) is K.PRIORITY and s.game.decision.player == 0
    assert "play Rain of Tears" not in s.options()


def test_smash_destroys_target_artifact_and_draws() -> None:
    """Smash: "Destroy target artifact. Draw a card." An enchantment is not a target."""
    s = scenario({"hand": ["Smash"], "library": ["Mountain"], "in_play": ["Mountain", "Mountain",
                                                                          "Mountain"]},
                 {"in_play": ["Bottle Gnomes", "Upwelling"]})
    s.do("play Smash")
    assert s.options() == ["target Bottle Gnomes"]
    s.do("target Bottle Gnomes")
    s.resolve()
    s.assert_in_play("Bottle Gnomes", False)
    assert labels(s, 0, "hand") == ["Mountain"]


# -- Mass effects -------------------------------------------------------------------------------
def test_evacuation_returns_all_creatures_to_their_owners_hands() -> None:
    """Evacuation: "Return all creatures to their owners' hands." Both players' creatures go; a
    creature player 0 controls but player 1 owns goes to player 1's hand; the Aura on a bounced
    creature goes to its owner's graveyard (2007 CR 420.5d); lands stay."""
    s = scenario({"hand": ["Evacuation"], "in_play": ["Island"] * 5 + [
             {"card": "Grizzly Bears", "id": "b"}, {"card": "Holy Strength", "attached_to": "b"}]},
                 {"in_play": ["Hill Giant", {"card": "Craw Wurm", "controller": 0}]})
    s.do("play Evacuation")
    s.resolve()
    for n in ("Grizzly Bears", "Hill Giant", "Craw Wurm", "Holy Strength"):
        s.assert_in_play(n, False)
    assert labels(s, 0, "hand") == ["Grizzly Bears"]
    assert sorted(labels(s, 1, "hand")) == ["Craw Wurm", "Hill Giant"]
    assert "Holy Strength" in labels(s, 0, "graveyard")
    s.assert_in_play("Island")


def test_deluge_taps_all_creatures_without_flying() -> None:
    """Deluge: "Tap all creatures without flying." Flyers stay untapped, on both sides; lands
    are not creatures and stay untapped."""
    s = scenario({"hand": ["Deluge"], "in_play": ["Island", "Island", "Island", "Plains",
                                                   "Grizzly Bears", "Wild Griffin"]},
                 {"in_play": ["Hill Giant", "Serra Angel", "Forest"]})
    s.do("play Deluge")
    s.resolve()
    assert s.perm("Grizzly Bears").tapped and s.perm("Hill Giant").tapped
    assert not s.perm("Wild Griffin").tapped and not s.perm("Serra Angel").tapped
    assert not s.perm("Forest").tapped


def test_deluge_with_granted_flying() -> None:
    """Deluge checks flying as it resolves: a creature that gained flying (Angelic Blessing)
    is not tapped (2007 CR 418.5, characteristics as modified)."""
    s = scenario({"hand": ["Deluge", "Angelic Blessing"],
                  "in_play": ["Island", "Island", "Island", "Plains", "Plains", "Plains",
                              "Plains", "Grizzly Bears", "Hill Giant"]})
    s.do("play Angelic Blessing", "target Grizzly Bears")
    s.resolve()
    s.do("play Deluge")
    s.resolve()
    assert not s.perm("Grizzly Bears").tapped
    assert s.perm("Hill Giant").tapped


def test_pyroclasm_deals_two_to_each_creature_not_players() -> None:
    """Pyroclasm: "Pyroclasm deals 2 damage to each creature." X/2s die (2007 CR 420.5c),
    bigger creatures keep 2 damage, players are not dealt damage."""
    s = scenario({"hand": ["Pyroclasm"], "in_play": ["Mountain", "Mountain", "Grizzly Bears"]},
                 {"in_play": ["Hill Giant", "Wild Griffin"]})
    s.do("play Pyroclasm")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Wild Griffin", False)
    s.assert_damage("Hill Giant", 2)
    s.assert_life(0, 20)
    s.assert_life(1, 20)


def test_tempest_of_light_destroys_all_enchantments() -> None:
    """Tempest of Light: "Destroy all enchantments." Auras and global enchantments of both
    players; creatures and artifacts stay."""
    s = scenario({"hand": ["Tempest of Light"], "in_play": ["Plains", "Plains", "Plains",
                                                             {"card": "Grizzly Bears", "id": "b"},
                                                             {"card": "Holy Strength", "attached_to": "b"}]},
                 {"in_play": ["Upwelling", "Bottle Gnomes"]})
    s.do("play Tempest of Light")
    s.resolve()
    s.assert_in_play("Holy Strength", False)
    s.assert_in_play("Upwelling", False)
    s.assert_in_play("Grizzly Bears")
    s.assert_in_play("Bottle Gnomes")


def test_shatterstorm_destroys_all_artifacts_and_they_cant_be_regenerated() -> None:
    """Shatterstorm: "Destroy all artifacts. They can't be regenerated." Bottle Gnomes (an
    artifact creature) has a regeneration shield from Regeneration; it is destroyed anyway
    (2007 CR 419.6b, 2012 701.12c). Loxodon Warhammer goes too; Upwelling stays."""
    s = scenario({"hand": ["Shatterstorm"], "in_play": ["Mountain"] * 4 + [
             "Forest", {"card": "Bottle Gnomes", "id": "g"},
             {"card": "Regeneration", "attached_to": "g"}, "Loxodon Warhammer", "Upwelling"]})
    s.do("activate Regeneration")
    s.resolve()
    gnomes = s.perm("Bottle Gnomes").id
    assert any(r.KIND == "regenerate" and r.pid == gnomes for r in s.game.replacements)
    s.do("play Shatterstorm")
    s.resolve()
    s.assert_in_play("Bottle Gnomes", False)
    s.assert_in_play("Loxodon Warhammer", False)
    s.assert_in_play("Upwelling")


def test_wrath_of_god_destroys_all_creatures_even_regenerating_ones() -> None:
    """Wrath of God: "Destroy all creatures. They can't be regenerated." Drudge Skeletons with a
    regeneration shield is destroyed (2007 CR 419.6b, 2012 701.12c); both players' creatures
    go, lands stay."""
    s = scenario({"hand": ["Wrath of God"], "in_play": ["Plains"] * 4 + ["Grizzly Bears"]},
                 {"in_play": ["Drudge Skeletons", "Swamp", "Hill Giant"]})
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.do("play Wrath of God")
    s.resolve()
    for n in ("Grizzly Bears", "Drudge Skeletons", "Hill Giant"):
        s.assert_in_play(n, False)
    s.assert_in_play("Swamp")
    assert sorted(labels(s, 1, "graveyard")) == ["Drudge Skeletons", "Hill Giant"]


def test_a_regeneration_shield_does_work_against_plain_destroy() -> None:
    """Control for the "can't be regenerated" tests: the same shield saves Drudge Skeletons from
    plain destruction (Assassinate; 2007 CR 419.6b), so the tests above can fail."""
    s = scenario({"hand": ["Assassinate"], "in_play": ["Swamp"] * 3},
                 {"in_play": [{"card": "Drudge Skeletons", "tapped": True}, "Swamp"]})
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.do("play Assassinate", "target Drudge Skeletons")
    s.resolve()
    s.assert_in_play("Drudge Skeletons")


def test_plague_wind_destroys_only_creatures_you_dont_control() -> None:
    """Plague Wind: "Destroy all creatures you don't control. They can't be regenerated." The
    caster's creatures survive; the opponent's regenerating Drudge Skeletons doesn't."""
    s = scenario({"hand": ["Plague Wind"], "in_play": ["Swamp"] * 9 + ["Grizzly Bears"]},
                 {"in_play": ["Drudge Skeletons", "Swamp", "Hill Giant"]})
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.do("play Plague Wind")
    s.resolve()
    s.assert_in_play("Grizzly Bears")
    s.assert_in_play("Drudge Skeletons", False)
    s.assert_in_play("Hill Giant", False)


def test_plague_wind_spares_a_stolen_creature_you_control() -> None:
    """Plague Wind counts control, not ownership: a creature player 0 controls but player 1
    owns survives."""
    s = scenario({"hand": ["Plague Wind"], "in_play": ["Swamp"] * 9},
                 {"in_play": [{"card": "Hill Giant", "controller": 0}, "Grizzly Bears"]})
    s.do("play Plague Wind")
    s.resolve()
    s.assert_in_play("Hill Giant")
    s.assert_in_play("Grizzly Bears", False)


# -- Graveyard returns -------------------------------------------------------------------------
def test_recover_returns_creature_card_from_your_graveyard_and_draws() -> None:
    """Recover: "Return target creature card from your graveyard to your hand. Draw a card."
    Only creature cards in your own graveyard are targets."""
    s = scenario({"hand": ["Recover"], "library": ["Swamp"],
                  "graveyard": ["Grizzly Bears", "Shock"], "in_play": ["Swamp", "Swamp", "Swamp"]},
                 {"graveyard": ["Hill Giant"]})
    s.do("play Recover")
    assert s.options() == ["target Grizzly Bears"]
    s.do("target Grizzly Bears")
    s.resolve()
    assert labels(s, 0, "hand") == ["Grizzly Bears", "Swamp"]
    assert labels(s, 0, "graveyard") == ["Shock", "Recover"]
    assert labels(s, 1, "graveyard") == ["Hill Giant"]


def test_recover_needs_a_creature_card_in_your_graveyard() -> None:
    """Recover with only a non-creature card in your graveyard (and a creature in the
    opponent's) has no legal target and can't be played (2007 CR 409.1d)."""
    s = scenario({"hand": ["Recover"], "graveyard": ["Shock"], "in_play": ["Swamp"] * 3},
                 {"graveyard": ["Hill Giant"]})
    assert "play Recover" not in s.options()


def test_recollect_returns_any_card_from_your_graveyard() -> None:
    """Recollect: "Return target card from your graveyard to your hand." Any card type; only your
    own graveyard."""
    s = scenario({"hand": ["Recollect"], "graveyard": ["Shock", "Forest"], "in_play": ["Forest"] * 3},
                 {"graveyard": ["Hill Giant"]})
    s.do("play Recollect")
    assert sorted(s.options()) == ["target Forest", "target Shock"]
    s.do("target Shock")
    s.resolve()
    assert labels(s, 0, "hand") == ["Shock"]
    assert labels(s, 0, "graveyard") == ["Forest", "Recollect"]


# -- Library ----------------------------------------------------------------------------------
def test_sylvan_scrying_finds_a_land_and_shuffles() -> None:
    """Sylvan Scrying: "Search your library for a land card, reveal it, and put it into your
    hand. Then shuffle your library." Only land cards are found (2012 701.15); the revealed card
    is named in the log (2012 701.13a)."""
    s = scenario({"hand": ["Sylvan Scrying"], "library": ["Grizzly Bears", "Treetop Village", "Shock"],
                  "in_play": ["Forest", "Forest"]})
    s.do("play Sylvan Scrying")
    s.resolve()
    assert [o for o in s.options() if o.startswith("find ")] == ["find Treetop Village"]
    s.do("find Treetop Village")
    assert labels(s, 0, "hand") == ["Treetop Village"]
    assert sorted(labels(s, 0, "library")) == ["Grizzly Bears", "Shock"]
    assert any("Treetop Village into their hand" in line for line in s.game.log)


def test_sylvan_scrying_may_find_nothing() -> None:
    """A search for a card with a stated quality may fail to find one (2012 701.15b): with no
    land in the library Sylvan Scrying just shuffles."""
    s = scenario({"hand": ["Sylvan Scrying"], "library": ["Grizzly Bears"], "in_play": ["Forest", "Forest"]})
    s.do("play Sylvan Scrying")
    s.resolve()
    while kind(s) is not K.PRIORITY:
        s.do(s.options()[0])
    assert labels(s, 0, "hand") == []
    assert labels(s, 0, "library") == ["Grizzly Bears"]


def test_sift_draws_three_then_discards_one() -> None:
    """Sift: "Draw three cards, then discard a card." The discard is chosen among the hand
    after the draw."""
    s = scenario({"hand": ["Sift", "Shock"], "library": ["Forest", "Island", "Plains", "Swamp"],
                  "in_play": ["Island"] * 4})
    s.do("play Sift")
    s.resolve()
    assert sorted(s.options()) == ["discard Forest", "discard Island", "discard Plains",
                                   "discard Shock"]
    s.do("discard Plains")
    assert sorted(labels(s, 0, "hand")) == ["Forest", "Island", "Shock"]
    assert sorted(labels(s, 0, "graveyard")) == ["Plains", "Sift"]
    assert labels(s, 0, "library") == ["Swamp"]


def test_goblin_lore_draws_four_and_discards_three_at_random() -> None:
    """Goblin Lore: "Draw four cards, then discard three cards at random." Nobody chooses
    (2012 701.7): the spell resolves with no decision and 3 of the 5 cards
    in hand go to the graveyard."""
    s = scenario({"hand": ["Goblin Lore", "Shock"], "library": ["Forest", "Island", "Plains", "Swamp",
                                                                 "Mountain"],
                  "in_play": ["Mountain", "Mountain"]})
    s.do("play Goblin Lore")
    s.resolve()
    assert kind(s) is K.PRIORITY
    assert len(labels(s, 0, "hand")) == 2
    assert len(labels(s, 0, "graveyard")) == 4  # three discarded cards and Goblin Lore
    assert labels(s, 0, "library") == ["Mountain"]
    assert sum("at random" in line for line in s.game.log) == 3


def test_discombobulate_counters_and_reorders_top_four() -> None:
    """Discombobulate: "Counter target spell. Look at the top four cards of your library, then
    put them back in any order." Only the top four are looked at; the chosen order is kept."""
    s = scenario({"hand": ["Discombobulate"], "library": ["Forest", "Island", "Plains", "Swamp",
                                                           "Mountain"],
                  "in_play": ["Island"] * 4},
                 {"hand": ["Shock"], "in_play": ["Mountain"]}, active_player=1)
    s.do("play Shock", "target player 0")
    s.pass_priority()
    s.do("play Discombobulate", "target Shock")
    s.resolve()
    assert sorted(s.options()) == ["put on top Forest", "put on top Island",
                                   "put on top Plains", "put on top Swamp"]
    for n in ("Swamp", "Plains", "Island", "Forest"):
        if kind(s) is not K.PRIORITY:
            s.do(f"put on top {n}")
    assert labels(s, 0, "library") == ["Swamp", "Plains", "Island", "Forest", "Mountain"]
    assert "Shock" in labels(s, 1, "graveyard")
    assert not s.game.stack
    s.assert_life(0, 20)


def test_discombobulate_needs_a_spell_target() -> None:
    """Discombobulate targets a spell: with an empty stack it can't be played."""
    s = scenario({"hand": ["Discombobulate"], "in_play": ["Island"] * 4})
    assert "play Discombobulate" not in s.options()


def test_stun_stops_blocking_this_turn_and_draws() -> None:
    """Stun: "Target creature can't block this turn. Draw a card." The stunned Hill Giant is
    not offered as a blocker; Grizzly Bears is (declaring blockers: 2012 509.1a)."""
    s = scenario({"hand": ["Stun"], "library": ["Mountain"],
                  "in_play": ["Mountain", "Mountain", "Craw Wurm"]},
                 {"in_play": ["Hill Giant", "Grizzly Bears"]})
    s.do("play Stun", "target Hill Giant")
    s.resolve()
    assert labels(s, 0, "hand") == ["Mountain"]
    attack(s, "Craw Wurm")
    to_blockers(s)
    opts = s.options()
    assert "block Craw Wurm with Grizzly Bears" in opts
    assert "block Craw Wurm with Hill Giant" not in opts


def test_stun_wears_off_next_turn() -> None:
    """Stun lasts "this turn" only: on the next turn the creature can block again."""
    s = scenario({"hand": ["Stun"], "library": ["Mountain"], "in_play": ["Mountain", "Mountain"]},
                 {"in_play": ["Hill Giant"]})
    s.do("play Stun", "target Hill Giant")
    s.resolve()
    assert s.perm("Hill Giant").has("cant_block")
    end_turn(s)
    assert not s.perm("Hill Giant").has("cant_block")


def test_sorcery_speed_sweeper_not_playable_with_a_spell_on_the_stack() -> None:
    """Wrath of God is a sorcery: only in your main phase with the stack empty (2007 CR 212.5)."""
    s = scenario({"hand": ["Wrath of God", "Shock"], "in_play": ["Plains"] * 4 + ["Mountain"]})
    assert "play Wrath of God" in s.options()
    s.do("play Shock", "target player 1")
    with pytest.raises(IllegalActionError):
        s.do("play Wrath of God")
