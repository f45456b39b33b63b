"""Scenario tests of mana sources and activated abilities (the cards of
test_set_a_permanents.FILE_CARDS that have them): each card's printed text,
its costs and every restriction on its targets. Rule numbers: 2007 CR where known, else 2012 CR."""

from __future__ import annotations

from functools import partial

import pytest

from mtg_env import DecisionKind
from mtg_env.testing import Scenario, labels, position

LIB = ["Island"] * 3
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


# -- mana sources -----------------------------------------------------------------------------
def test_llanowar_elves_taps_for_green_and_the_payer_uses_it() -> None:
    """Llanowar Elves: "{T}: Add {G} to your mana pool." (2007 CR 406 mana abilities): tapped by
    hand it adds G; with no other source, the automatic payer taps it for Giant Growth."""
    s = Scenario(pos("precombat_main", {"in_play": ["Llanowar Elves"]}))
    s.do("tap Llanowar Elves for G")
    assert s.game.players[0].pool_text() == "G" and s.perm("Llanowar Elves").tapped
    s = Scenario(pos("precombat_main", {"in_play": ["Llanowar Elves", "Grizzly Bears"], "hand": ["Giant Growth"]}))
    s.do("play Giant Growth", "target Grizzly Bears")
    assert s.perm("Llanowar Elves").tapped
    s.resolve()
    s.assert_pt("Grizzly Bears", 5, 5)


@pytest.mark.parametrize("name", ["Llanowar Elves", "Birds of Paradise"])
def test_mana_creature_summoning_sick_cant_tap_for_mana(name: str) -> None:
    """2007 CR 212.3d: a creature's {T} ability (a mana ability too) can't be played unless its
    controller has controlled it continuously since the start of the turn: a summoning-sick
    Llanowar Elves / Birds of Paradise offers no mana and the payer doesn't use it."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": name, "summoning_sick": True}, "Grizzly Bears"],
                                        "hand": ["Giant Growth"]}))
    assert not any(o.startswith(f"tap {name}") for o in s.options())
    assert "play Giant Growth" not in s.options()


def test_birds_of_paradise_adds_one_mana_of_any_color() -> None:
    """Birds of Paradise: "{T}: Add one mana of any color to your mana pool." It offers each of
    the five colors, and one activation adds exactly one mana."""
    s = Scenario(pos("precombat_main", {"in_play": ["Birds of Paradise"]}))
    assert [o for o in s.options() if o.startswith("tap")] == [
        f"tap Birds of Paradise for {c}" for c in "WUBRG"]
    s.do("tap Birds of Paradise for B")
    assert s.game.players[0].pool_text() == "B"
    assert not any(o.startswith("tap Birds") for o in s.options())


def test_birds_of_paradise_pays_any_color_automatically() -> None:
    """Birds of Paradise's mana ability is used by the automatic payer for a colored cost: with
    only the Birds, Unsummon ({U}) can be played, and the Birds are tapped for it."""
    s = Scenario(pos("precombat_main", {"in_play": ["Birds of Paradise"], "hand": ["Unsummon"]},
                     {"in_play": ["Grizzly Bears"]}))
    s.do("play Unsummon", "target Grizzly Bears")
    assert s.perm("Birds of Paradise").tapped
    s.resolve()
    assert labels(s, 1, "hand") == ["Grizzly Bears"]


def test_mind_stone_taps_for_colorless_the_turn_it_comes_into_play() -> None:
    """Mind Stone: "{T}: Add {1} to your mana pool." An artifact isn't affected by summoning
    sickness (2007 CR 212.3d concerns creatures): played this turn it taps for {1} at once."""
    s = Scenario(pos("precombat_main", {"in_play": ["Plains", "Plains"], "hand": ["Mind Stone"]}))
    s.do("play Mind Stone")
    s.resolve()
    s.do("tap Mind Stone for C")
    assert s.game.players[0].pool_text() == "C"


def test_mind_stone_sacrifice_draws_a_card() -> None:
    """Mind Stone: "{1}, {T}, Sacrifice Mind Stone: Draw a card." The {1} can't come from Mind
    Stone itself (it must tap for the cost); with a Plains the ability is played, Mind Stone
    goes to the graveyard as a cost and one card is drawn on resolution."""
    s = Scenario(pos("precombat_main", {"in_play": ["Mind Stone"]}))
    assert "activate Mind Stone" not in s.options()
    s = Scenario(pos("precombat_main", {"in_play": ["Mind Stone", "Plains"], "library": ["Forest", "Island"]}))
    s.do("activate Mind Stone")
    s.assert_zone(0, "graveyard", "Mind Stone")
    assert labels(s, 0, "hand") == []
    s.resolve()
    assert labels(s, 0, "hand") == ["Forest"]


def test_terramorphic_expanse_fetches_a_basic_land_tapped() -> None:
    """Terramorphic Expanse: "{T}, Sacrifice Terramorphic Expanse: Search your library for a
    basic land card and put it into play tapped. Then shuffle your library." A nonbasic land
    (Treetop Village) and a nonland card are not offered; the land found comes into play tapped."""
    s = Scenario(pos("precombat_main", {"in_play": ["Terramorphic Expanse"],
                                        "library": ["Treetop Village", "Grizzly Bears", "Mountain"]}))
    s.do("activate Terramorphic Expanse")
    s.assert_zone(0, "graveyard", "Terramorphic Expanse")
    s.resolve()
    assert s.game.decision.kind is DecisionKind.CHOOSE_CARDS
    assert s.options() == ["find Mountain", "done"]
    s.do("find Mountain")
    assert s.perm("Mountain").tapped
    assert sorted(c.label for c in s.game.players[0].library) == ["Grizzly Bears", "Treetop Village"]


def test_terramorphic_expanse_is_played_as_a_land() -> None:
    """Terramorphic Expanse is a land: played as the turn's land play, it doesn't use the stack
    (2007 CR 212.6), and its ability can be played at once (lands aren't summoning sick)."""
    s = Scenario(pos("precombat_main", {"hand": ["Terramorphic Expanse"], "library": ["Forest"]}))
    s.do("play Terramorphic Expanse")
    assert not s.game.stack
    assert "activate Terramorphic Expanse" in s.options()


def test_quicksand_taps_for_colorless() -> None:
    """Quicksand: "{T}: Add {1} to your mana pool." With a Forest, the automatic payer uses it
    for the {1} of a Grizzly Bears ({1}{G})."""
    s = Scenario(pos("precombat_main", {"in_play": ["Quicksand", "Forest"], "hand": ["Grizzly Bears"]}))
    s.do("play Grizzly Bears")
    assert s.perm("Quicksand").tapped
    s.resolve()
    s.assert_pt("Grizzly Bears", 2, 2)


def test_quicksand_targets_only_an_attacking_creature_without_flying() -> None:
    """Quicksand: "{T}, Sacrifice Quicksand: Target attacking creature without flying gets
    -1/-2 until end of turn." Of an attacking Grizzly Bears, an attacking Suntail Hawk (flying)
    and a Hill Giant that isn't attacking, only the Bears can be targeted; it becomes 1/0 and dies."""
    s = Scenario(pos("declare_attackers",
                     {"in_play": [{"card": "Grizzly Bears", "attacking": True},
                                  {"card": "Suntail Hawk", "attacking": True}, "Hill Giant"]},
                     {"in_play": ["Quicksand"]}))
    s.pass_priority(1)
    s.do("activate Quicksand")
    assert s.options() == ["target Grizzly Bears"]
    s.do("target Grizzly Bears")
    s.assert_zone(1, "graveyard", "Quicksand")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)


def test_quicksand_not_playable_without_an_attacking_creature() -> None:
    """Quicksand's second ability has no legal target outside combat (nothing is attacking), so
    it can't be played (2007 CR 409.1c): only its mana ability is offered."""
    s = Scenario(pos("precombat_main", {"in_play": ["Quicksand", "Grizzly Bears"]}))
    assert "activate Quicksand" not in s.options() and "tap Quicksand for C" in s.options()


@pytest.mark.parametrize(("name", "lands"), [
    ("Royal Assassin", []), ("Merfolk Looter", []), ("Orcish Artillery", []), ("Crafty Pathmage", []),
    ("Vedalken Mastermind", ["Island"]), ("Jayemdae Tome", ["Island"] * 4)])
def test_tap_ability_needs_a_creature_controlled_since_the_turn_began(name: str, lands: list) -> None:
    """2007 CR 212.3d: a creature's ability with {T} in its cost can't be played unless the
    creature has been under its controller's control continuously since the start of the turn;
    it is offered once that holds. An artifact (Jayemdae Tome) isn't affected."""
    def scenario(sick: bool) -> Scenario:
        return Scenario(pos("precombat_main",
                            {"in_play": [{"card": name, "summoning_sick": sick}, "Hill Giant", *lands]},
                            {"in_play": [{"card": "Grizzly Bears", "tapped": True}]}))
    assert f"activate {name}" in scenario(False).options()
    assert (f"activate {name}" in scenario(True).options()) == (name == "Jayemdae Tome")


# -- artifacts ----------------------------------------------------------------------------------
def test_fountain_of_youth_gain_one_life_once_per_untap() -> None:
    """Fountain of Youth: "{2}, {T}: You gain 1 life." With four lands it can still be played
    only once (the {T} cost)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Fountain of Youth"] + ["Plains"] * 4}))
    s.do("activate Fountain of Youth")
    s.resolve()
    s.assert_life(0, 21)
    assert "activate Fountain of Youth" not in s.options()
    s = Scenario(pos("precombat_main", {"in_play": ["Fountain of Youth", "Plains"]}))
    assert "activate Fountain of Youth" not in s.options()


def test_jayemdae_tome_four_and_tap_draw_a_card() -> None:
    """Jayemdae Tome: "{4}, {T}: Draw a card." Three lands are not enough; with four it draws
    the top card."""
    s = Scenario(pos("precombat_main", {"in_play": ["Jayemdae Tome"] + ["Island"] * 3}))
    assert "activate Jayemdae Tome" not in s.options()
    s = Scenario(pos("precombat_main", {"in_play": ["Jayemdae Tome"] + ["Island"] * 4,
                                        "library": ["Forest", "Swamp"]}))
    s.do("activate Jayemdae Tome")
    s.resolve()
    assert labels(s, 0, "hand") == ["Forest"] and s.perm("Jayemdae Tome").tapped


# -- invokers and pumpers -----------------------------------------------------------------------
def test_starlight_invoker_gain_five_life() -> None:
    """Starlight Invoker: "{7}{W}: You gain 5 life." With eight Plains it gains 5; with seven it
    can't be played. No {T} in the cost: it can be played the turn it comes into play."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Starlight Invoker", "summoning_sick": True}]
                                        + ["Plains"] * 8}))
    s.do("activate Starlight Invoker")
    s.resolve()
    s.assert_life(0, 25)
    s = Scenario(pos("precombat_main", {"in_play": ["Starlight Invoker"] + ["Plains"] * 7}))
    assert "activate Starlight Invoker" not in s.options()


def test_flamewave_invoker_five_damage_to_target_player_only() -> None:
    """Flamewave Invoker: "{7}{R}: Flamewave Invoker deals 5 damage to target player." Only
    players are targets (not the opponent's Grizzly Bears)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Flamewave Invoker"] + ["Mountain"] * 8},
                     {"in_play": ["Grizzly Bears"]}))
    s.do("activate Flamewave Invoker")
    assert s.options() == ["target player 0", "target player 1"]
    s.do("target player 1")
    s.resolve()
    s.assert_life(1, 15)


@pytest.mark.parametrize(("name", "color", "times", "pt"), [
    ("Shivan Dragon", "Mountain", 3, (8, 5)), ("Wall of Fire", "Mountain", 2, (2, 5)),
    ("Honor Guard", "Plains", 2, (1, 3))])
def test_self_pump_until_end_of_turn(name: str, color: str, times: int, pt: tuple) -> None:
    """Shivan Dragon "{R}: Shivan Dragon gets +1/+0 until end of turn.", Wall of Fire "{R}: Wall
    of Fire gets +1/+0 until end of turn.", Honor Guard "{W}: Honor Guard gets +0/+1 until end of
    turn.": each activation adds its bonus; it ends in the cleanup step (2012 514.2)."""
    s = Scenario(pos("precombat_main", {"in_play": [name] + [color] * times}))
    base = (s.perm(name).power, s.perm(name).toughness)
    for _ in range(times):
        s.do(f"activate {name}")
        s.resolve()
    s.assert_pt(name, *pt)
    s.advance_to("upkeep", active=1)
    s.assert_pt(name, *base)


def test_wall_of_fire_defender_cant_attack() -> None:
    """Wall of Fire: "Defender (This creature can't attack.)": even pumped, it isn't offered as
    an attacker (no declare-attackers decision at all)."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Wall of Fire"]}))
    s.pass_priority(2)
    assert s.game.decision.kind is not DecisionKind.DECLARE_ATTACKERS


def test_shivan_hellkite_pings_creature_or_player() -> None:
    """Shivan Hellkite: "{1}{R}: Shivan Hellkite deals 1 damage to target creature or player."
    Playable repeatedly (no {T}): twice kills a Goblin Sky Raider (1/2); once more hits player 1."""
    s = Scenario(pos("precombat_main", {"in_play": ["Shivan Hellkite"] + ["Mountain"] * 6},
                     {"in_play": ["Goblin Sky Raider"]}))
    for _ in range(2):
        s.do("activate Shivan Hellkite", "target Goblin Sky Raider")
        s.resolve()
    s.assert_in_play("Goblin Sky Raider", False)
    s.do("activate Shivan Hellkite", "target player 1")
    s.resolve()
    s.assert_life(1, 19)


def test_icatian_priest_pumps_target_creature() -> None:
    """Icatian Priest: "{1}{W}{W}: Target creature gets +1/+1 until end of turn." Any creature
    can be targeted, including an opponent's."""
    s = Scenario(pos("precombat_main", {"in_play": ["Icatian Priest"] + ["Plains"] * 3},
                     {"in_play": ["Grizzly Bears"]}))
    s.do("activate Icatian Priest")
    assert s.options() == ["target Icatian Priest", "target Grizzly Bears"]
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 3, 3)
    s.assert_pt("Icatian Priest", 1, 1)


def test_horseshoe_crab_untaps_itself() -> None:
    """Horseshoe Crab: "{U}: Untap Horseshoe Crab." A tapped Crab is untapped on resolution."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Horseshoe Crab", "tapped": True}, "Island"]}))
    s.do("activate Horseshoe Crab")
    assert s.perm("Horseshoe Crab").tapped
    s.resolve()
    assert not s.perm("Horseshoe Crab").tapped


# -- Royal Assassin ---------------------------------------------------------------------------
def test_royal_assassin_destroys_only_a_tapped_creature() -> None:
    """Royal Assassin: "{T}: Destroy target tapped creature." The untapped Hill Giant can't be
    targeted, nor Royal Assassin itself (the target is chosen before it taps, 2007 CR 409.1c/f;
    Gatherer ruling); the tapped Grizzly Bears is destroyed."""
    s = Scenario(pos("precombat_main", {"in_play": ["Royal Assassin"]},
                     {"in_play": ["Hill Giant", {"card": "Grizzly Bears", "tapped": True}]}))
    s.do("activate Royal Assassin")
    assert s.options() == ["target Grizzly Bears"]
    s.do("target Grizzly Bears")
    s.resolve()
    s.assert_zone(1, "graveyard", "Grizzly Bears")
    s.assert_in_play("Hill Giant")


def test_royal_assassin_target_untapped_in_response_is_illegal() -> None:
    """Royal Assassin: "target tapped creature" is checked again on resolution (2007 CR 413.2b;
    Gatherer ruling: if it is no longer tapped the ability doesn't resolve): the Horseshoe Crab
    untaps itself in response and survives."""
    s = Scenario(pos("precombat_main", {"in_play": ["Royal Assassin"]},
                     {"in_play": [{"card": "Horseshoe Crab", "tapped": True}, "Island"]}))
    s.do("activate Royal Assassin", "target Horseshoe Crab", "pass")
    s.do("activate Horseshoe Crab")
    s.resolve()
    s.resolve()
    assert not s.game.stack
    s.assert_in_play("Horseshoe Crab")


# -- Vedalken Mastermind -----------------------------------------------------------------------
def test_vedalken_mastermind_returns_a_permanent_you_control() -> None:
    """Vedalken Mastermind: "{U}, {T}: Return target permanent you control to its owner's hand."
    The opponent's Grizzly Bears can't be targeted; its controller's Hill Giant returns to hand."""
    s = Scenario(pos("precombat_main", {"in_play": ["Vedalken Mastermind", "Island", "Hill Giant"]},
                     {"in_play": ["Grizzly Bears"]}))
    s.do("activate Vedalken Mastermind")
    assert "target Grizzly Bears" not in s.options() and "target Hill Giant" in s.options()
    s.do("target Hill Giant")
    s.resolve()
    assert labels(s, 0, "hand") == ["Hill Giant"]
    s.assert_in_play("Grizzly Bears")


# -- Orcish Artillery --------------------------------------------------------------------------
def test_orcish_artillery_two_to_target_and_three_to_you() -> None:
    """Orcish Artillery: "{T}: Orcish Artillery deals 2 damage to target creature or player and
    3 damage to you." Targeting player 1: player 1 loses 2, its controller 3."""
    s = Scenario(pos("precombat_main", {"in_play": ["Orcish Artillery"]}))
    s.do("activate Orcish Artillery", "target player 1")
    s.resolve()
    s.assert_life(1, 18)
    s.assert_life(0, 17)


def test_orcish_artillery_no_damage_to_you_if_the_target_is_gone() -> None:
    """Orcish Artillery (Gatherer ruling: "You do not take the 3 points of damage if the
    ability doesn't resolve because the target is illegal", 2007 CR 413.2a): its target, a Mogg
    Fanatic, is sacrificed in response; the ability is countered, its controller takes nothing."""
    s = Scenario(pos("precombat_main", {"in_play": ["Orcish Artillery"]}, {"in_play": ["Mogg Fanatic"]}))
    s.do("activate Orcish Artillery", "target Mogg Fanatic", "pass")
    s.do("activate Mogg Fanatic", "target Orcish Artillery")
    s.resolve()
    s.resolve()
    assert not s.game.stack
    s.assert_life(0, 20)
    s.assert_damage("Orcish Artillery", 1)


# -- Femeref Archers ---------------------------------------------------------------------------
def test_femeref_archers_target_attacking_flyer_only() -> None:
    """Femeref Archers: "{T}: Femeref Archers deals 4 damage to target attacking creature with
    flying." Of an attacking Snapping Drake, an attacking Grizzly Bears (no flying) and a Suntail
    Hawk that isn't attacking, only the Drake can be targeted; it dies."""
    s = Scenario(pos("declare_attackers",
                     {"in_play": [{"card": "Snapping Drake", "attacking": True},
                                  {"card": "Grizzly Bears", "attacking": True}, "Suntail Hawk"]},
                     {"in_play": ["Femeref Archers"]}))
    s.pass_priority(1)
    s.do("activate Femeref Archers")
    assert s.options() == ["target Snapping Drake"]
    s.do("target Snapping Drake")
    s.resolve()
    s.assert_in_play("Snapping Drake", False)


def test_femeref_archers_nothing_to_target_outside_combat() -> None:
    """Femeref Archers: with only a non-attacking flyer in play the ability has no legal target
    and can't be played (2007 CR 409.1c)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Femeref Archers"]}, {"in_play": ["Suntail Hawk"]}))
    assert "activate Femeref Archers" not in s.options()


# -- Ballista Squad ----------------------------------------------------------------------------
def test_ballista_squad_x_damage_to_attacking_or_blocking_creature() -> None:
    """Ballista Squad: "{X}{W}, {T}: Ballista Squad deals X damage to target attacking or
    blocking creature." With an attacking Hill Giant blocked by a Grizzly Bears and a Scathe
    Zombies out of combat, the Giant and the Bears are targets, the Zombies aren't; X=3 kills
    the Giant."""
    s = Scenario(pos("declare_blockers", {"in_play": [{"card": "Hill Giant", "id": "g", "attacking": True}]},
                     {"in_play": ["Ballista Squad", "Scathe Zombies", {"card": "Grizzly Bears", "blocking": ["g"]}]
                      + ["Plains"] * 4}))
    s.pass_priority(1)
    s.do("activate Ballista Squad")
    assert s.options() == [f"X={n}" for n in range(4)]
    s.do("X=3")
    assert s.options() == ["target Hill Giant", "target Grizzly Bears"]
    s.do("target Hill Giant")
    assert all(s.perm(p).tapped for p in ("Plains", "Plains#2", "Plains#3", "Plains#4", "Ballista Squad"))
    s.resolve()
    s.assert_in_play("Hill Giant", False)


# -- Nantuko Husk ------------------------------------------------------------------------------
def test_nantuko_husk_sacrifice_a_creature_gets_plus_two() -> None:
    """Nantuko Husk: "Sacrifice a creature: Nantuko Husk gets +2/+2 until end of turn." The
    creature is sacrificed as a cost (a choice among creatures you control, not the opponent's);
    twice makes it 6/6."""
    s = Scenario(pos("precombat_main", {"in_play": ["Nantuko Husk", "Grizzly Bears", "Fugitive Wizard"]},
                     {"in_play": ["Hill Giant"]}))
    s.do("activate Nantuko Husk")
    assert s.options() == ["sacrifice Nantuko Husk", "sacrifice Grizzly Bears", "sacrifice Fugitive Wizard"]
    s.do("sacrifice Grizzly Bears")
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    s.resolve()
    s.do("activate Nantuko Husk", "sacrifice Fugitive Wizard")
    s.resolve()
    s.assert_pt("Nantuko Husk", 6, 6)


# -- Bloodfire Colossus ------------------------------------------------------------------------
def test_bloodfire_colossus_six_to_each_creature_and_each_player() -> None:
    """Bloodfire Colossus: "{R}, Sacrifice Bloodfire Colossus: Bloodfire Colossus deals 6 damage
    to each creature and each player." Both players lose 6; every creature, its own side's too,
    is dealt 6 (Mahamoti Djinn, a 5/6, dies); the Colossus is sacrificed as a cost."""
    s = Scenario(pos("precombat_main", {"in_play": ["Bloodfire Colossus", "Mountain", "Grizzly Bears"]},
                     {"in_play": ["Mahamoti Djinn"]}))
    s.do("activate Bloodfire Colossus")
    s.assert_zone(0, "graveyard", "Bloodfire Colossus")
    s.resolve()
    s.assert_life(0, 14)
    s.assert_life(1, 14)
    assert not any(p.is_creature for p in s.game.permanents)


# -- Crafty Pathmage ---------------------------------------------------------------------------
def test_crafty_pathmage_power_two_or_less_becomes_unblockable() -> None:
    """Crafty Pathmage: "{T}: Target creature with power 2 or less is unblockable this turn."
    The Hill Giant (power 3) can't be targeted; the Grizzly Bears can, and stays unblockable
    after a Giant Growth raises its power (Gatherer ruling)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Crafty Pathmage", "Grizzly Bears", "Hill Giant", "Forest"],
                                        "hand": ["Giant Growth"]},
                     {"in_play": ["Earth Elemental"]}))
    s.do("activate Crafty Pathmage")
    assert "target Hill Giant" not in s.options() and "target Grizzly Bears" in s.options()
    s.do("target Grizzly Bears")
    s.resolve()
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    s.do("attack with Grizzly Bears", "done")
    s.pass_priority(2)
    assert s.game.decision.kind is not DecisionKind.DECLARE_BLOCKERS
    s.advance_to("end_of_combat")
    s.assert_life(1, 15)


# -- Merfolk Looter ----------------------------------------------------------------------------
def test_merfolk_looter_draw_then_discard() -> None:
    """Merfolk Looter: "{T}: Draw a card, then discard a card." The discard is chosen after the
    draw, so the card just drawn may be discarded."""
    s = Scenario(pos("precombat_main", {"in_play": ["Merfolk Looter"], "hand": ["Shock"],
                                        "library": ["Hill Giant", "Forest"]}))
    s.do("activate Merfolk Looter")
    s.resolve()
    assert s.options() == ["discard Shock", "discard Hill Giant"]
    s.do("discard Hill Giant")
    assert labels(s, 0, "hand") == ["Shock"]
    s.assert_zone(0, "graveyard", "Hill Giant")
    assert s.perm("Merfolk Looter").tapped
