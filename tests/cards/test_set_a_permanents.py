"""Scenario tests of keyword-only and vanilla creatures (their entries are in
mtg_env/cards/data/creatures_keywords.yaml and evasion_and_restrictions.yaml): each card's printed
text and every restriction it states. The mana sources and activated abilities of FILE_CARDS are
tested in test_set_a_abilities.py.
Rule numbers: 2007 CR where known, else 2012 CR."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from mtg_env.engine.errors import IllegalActionError
from mtg_env.engine.registry import get_card
from mtg_env.testing import Scenario, attack, block, block_options, position

LIB = ["Island"] * 3
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given
FILE_CARDS = (  # the cards tested here and in test_set_a_abilities.py
    "Anaba Bodyguard", "Angelic Wall", "Cloud Sprite", "Dusk Imp", "Earth Elemental",
    "Fugitive Wizard", "Goblin Sky Raider", "Lumengrid Warden", "Mahamoti Djinn",
    "Mirri, Cat Warrior", "Ornithopter", "Paladin en-Vec", "Pincher Beetles", "Plague Beetle",
    "Rock Badger", "Rootwater Commando", "Scathe Zombies", "Skyhunter Prowler", "Snapping Drake",
    "Spineless Thug", "Steadfast Guard", "Suntail Hawk", "Tangle Spider", "Tundra Wolves",
    "Wall of Air", "Wall of Swords", "Llanowar Elves", "Birds of Paradise", "Mind Stone",
    "Terramorphic Expanse", "Quicksand", "Fountain of Youth", "Jayemdae Tome", "Starlight Invoker",
    "Flamewave Invoker", "Shivan Dragon", "Shivan Hellkite", "Honor Guard", "Wall of Fire",
    "Icatian Priest", "Horseshoe Crab", "Royal Assassin", "Vedalken Mastermind", "Orcish Artillery",
    "Femeref Archers", "Ballista Squad", "Nantuko Husk", "Bloodfire Colossus", "Crafty Pathmage",
    "Merfolk Looter",
)


def test_every_card_of_the_file_has_a_test() -> None:
    """Each card gets at least one scenario test of its printed text (here or in
    test_set_a_abilities.py)."""
    names = FILE_CARDS
    here = Path(__file__)
    source = (here.read_text().split("def test_every_card_of_the_file", 1)[1]
              + (here.parent / "test_set_a_abilities.py").read_text())
    assert not [n for n in names if f'"{n}"' not in source]


# -- vanilla creatures -------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "lands", "pt"), [
    ("Earth Elemental", ["Mountain"] * 5, (4, 5)),
    ("Fugitive Wizard", ["Island"], (1, 1)),
    ("Lumengrid Warden", ["Island", "Island"], (1, 3)),
    ("Scathe Zombies", ["Swamp"] * 3, (2, 2)),
])
def test_vanilla_creature_resolves_with_its_printed_body(name: str, lands: list, pt: tuple) -> None:
    """A Tenth Edition creature with no rules text: played at sorcery speed for its mana cost
    (one land short is not enough), it comes into play summoning sick (2007 CR 212.3d) with its
    printed power and toughness and no abilities."""
    s = Scenario(pos("precombat_main", {"hand": [name], "in_play": lands[1:]}))
    assert f"play {name}" not in s.options()
    s = Scenario(pos("beginning_of_combat", {"hand": [name], "in_play": lands}))
    assert f"play {name}" not in s.options()  # not an instant
    s = Scenario(pos("precombat_main", {"hand": [name], "in_play": lands}))
    s.do(f"play {name}")
    assert all(p.tapped for p in s.game.permanents)
    s.resolve()
    s.assert_pt(name, *pt)
    p = s.perm(name)
    assert p.summoning_sick and not p.keywords and get_card(name).text == ""


# -- flying -----------------------------------------------------------------------------------
FLYERS = [("Dusk Imp", 2, 1), ("Goblin Sky Raider", 1, 2), ("Mahamoti Djinn", 5, 6),
          ("Ornithopter", 0, 2), ("Snapping Drake", 3, 2), ("Suntail Hawk", 1, 1),
          ("Skyhunter Prowler", 1, 3), ("Cloud Sprite", 1, 1), ("Birds of Paradise", 0, 1),
          ("Shivan Dragon", 5, 5), ("Shivan Hellkite", 5, 5)]


@pytest.mark.parametrize(("name", "p", "t"), FLYERS)
def test_flyer_can_be_blocked_only_by_flying_or_reach(name: str, p: int, t: int) -> None:
    """"Flying (This creature can't be blocked except by creatures with flying or reach.)"
    (2007 CR 502.4): attacking, a Grizzly Bears can't block it, a Giant Spider (reach) or a
    Serra Angel (flying) can; unblocked it deals its power to the defending player."""
    s = Scenario(pos("beginning_of_combat", {"in_play": [name]},
                     {"in_play": ["Grizzly Bears", "Giant Spider", "Serra Angel"]}))
    s.assert_pt(name, p, t)
    attack(s, name)
    assert block_options(s) == [f"block {name} with Giant Spider",
                                f"block {name} with Serra Angel", "done"]
    s.do("done")
    s.advance_to("end_of_combat")
    s.assert_life(1, 20 - p)


def test_ornithopter_costs_nothing() -> None:
    """Ornithopter ({0}, artifact creature 0/2 with flying) is played with no mana at all."""
    s = Scenario(pos("precombat_main", {"hand": ["Ornithopter"]}))
    s.do("play Ornithopter")
    s.resolve()
    s.assert_pt("Ornithopter", 0, 2)
    assert s.perm("Ornithopter").types == {"Artifact", "Creature"}


# -- walls: defender, flying --------------------------------------------------------------------
@pytest.mark.parametrize(("name", "p", "t"), [("Angelic Wall", 0, 4), ("Wall of Air", 1, 5),
                                              ("Wall of Swords", 3, 5)])
def test_defender_flying_wall_cant_attack_and_blocks_a_flyer(name: str, p: int, t: int) -> None:
    """"Defender, flying (This creature can't attack, and it can block creatures with flying.)"
    (2012 702.3b defender; 2007 CR 502.4 flying): it is never offered as an attacker, and it can
    block a Serra Angel (flying) and deal its power to it."""
    s = Scenario(pos("beginning_of_combat", {"in_play": [name, "Grizzly Bears"]}))
    s.pass_priority(2)
    assert s.options() == ["attack with Grizzly Bears", "done"]
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Serra Angel"]}, {"in_play": [name]}))
    attack(s, "Serra Angel")
    assert block_options(s) == [f"block Serra Angel with {name}", "done"]
    s.do(f"block Serra Angel with {name}")
    s.advance_to("end_of_combat")
    s.assert_damage("Serra Angel", p)
    s.assert_life(1, 20)
    if t > 4:
        s.assert_damage(name, 4)
        s.assert_pt(name, p, t)
    else:  # Angelic Wall, a 0/4, dies to the Angel's 4
        s.assert_in_play(name, False)


# -- Cloud Sprite: can block only creatures with flying ----------------------------------------
def test_cloud_sprite_can_block_only_creatures_with_flying() -> None:
    """Cloud Sprite: "Cloud Sprite can block only creatures with flying." (2007 CR 502): it can't
    block an attacking Grizzly Bears, and it can block an attacking Suntail Hawk."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Grizzly Bears"]}, {"in_play": ["Cloud Sprite"]}))
    attack(s, "Grizzly Bears")
    assert block_options(s) == []
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Suntail Hawk"]}, {"in_play": ["Cloud Sprite"]}))
    attack(s, "Suntail Hawk")
    assert block_options(s) == ["block Suntail Hawk with Cloud Sprite", "done"]
    s.do("block Suntail Hawk with Cloud Sprite")
    s.advance_to("end_of_combat")
    assert not s.in_play("Suntail Hawk") and not s.in_play("Cloud Sprite")


# -- first strike ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "attacker"), [("Anaba Bodyguard", "Grizzly Bears"),
                                                ("Tundra Wolves", "Goblin Piker"),
                                                ("Mirri, Cat Warrior", "Grizzly Bears")])
def test_first_striker_kills_its_attacker_before_it_deals_damage(name: str, attacker: str) -> None:
    """"First strike (This creature deals combat damage before creatures without first
    strike.)" (2007 CR 502.2, 310.2): blocking an attacker it can kill, it deals its damage in
    the first combat damage step; the attacker is dead before the regular step and deals none."""
    s = Scenario(pos("beginning_of_combat", {"in_play": [attacker]}, {"in_play": [name]}))
    attack(s, attacker)
    block(s, (attacker, name))
    s.advance_to("end_of_combat")
    assert not s.in_play(attacker)
    s.assert_damage(name, 0)
    s.assert_life(1, 20)


def test_without_first_strike_both_deal_damage_simultaneously() -> None:
    """Control for the first-strike tests: a Grizzly Bears blocked by a Scathe Zombies (no first
    strike) trades with it (2007 CR 310.4: all regular combat damage is dealt at once)."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Grizzly Bears"]}, {"in_play": ["Scathe Zombies"]}))
    attack(s, "Grizzly Bears")
    block(s, ("Grizzly Bears", "Scathe Zombies"))
    s.advance_to("end_of_combat")
    assert not s.in_play("Grizzly Bears") and not s.in_play("Scathe Zombies")


# -- vigilance --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Steadfast Guard", "Skyhunter Prowler", "Mirri, Cat Warrior"])
def test_vigilance_attacking_doesnt_tap(name: str) -> None:
    """"Vigilance (Attacking doesn't cause this creature to tap.)" (2012 702.19b): after
    attacking it is untapped, while a Grizzly Bears attacking beside it is tapped."""
    s = Scenario(pos("beginning_of_combat", {"in_play": [name, "Grizzly Bears"]}))
    attack(s, name, "Grizzly Bears")
    assert not s.perm(name).tapped and s.perm("Grizzly Bears").tapped
    assert s.perm(name).attacking


# -- landwalk ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "land", "other"), [
    ("Plague Beetle", "Swamp", "Forest"), ("Rock Badger", "Mountain", "Swamp"),
    ("Rootwater Commando", "Island", "Mountain"), ("Mirri, Cat Warrior", "Forest", "Plains")])
def test_landwalk_unblockable_only_if_defender_controls_that_land(name: str, land: str, other: str) -> None:
    """"[Land]walk (This creature is unblockable as long as defending player controls a
    [land].)" (2007 CR 502.11): with that basic land type among the defender's lands no block
    is possible; with only another land type the Hill Giant can block it."""
    s = Scenario(pos("beginning_of_combat", {"in_play": [name]}, {"in_play": ["Hill Giant", land]}))
    attack(s, name)
    assert block_options(s) == []
    s.advance_to("end_of_combat")
    s.assert_life(1, 20 - s.perm(name).power)
    s = Scenario(pos("beginning_of_combat", {"in_play": [name, land]}, {"in_play": ["Hill Giant", other]}))
    attack(s, name)
    assert block_options(s) == [f"block {name} with Hill Giant", "done"]


# -- Paladin en-Vec: protection from black and from red ----------------------------------------
def test_paladin_en_vec_cant_be_targeted_by_red_spells() -> None:
    """Paladin en-Vec: "protection from black, protection from red (... It can't be ...
    targeted ... by anything black or red.)" (2012 702.15b): Shock (red) can't target it,
    Giant Growth (green) can."""
    s = Scenario(pos("precombat_main", {"in_play": ["Mountain", "Forest"], "hand": ["Shock", "Giant Growth"]},
                     {"in_play": ["Paladin en-Vec"]}))
    s.do("play Shock")
    assert "target Paladin en-Vec" not in s.options()
    assert s.options() == ["target player 0", "target player 1"]
    s = Scenario(pos("precombat_main", {"in_play": ["Forest"], "hand": ["Giant Growth"]},
                     {"in_play": ["Paladin en-Vec"]}))
    s.do("play Giant Growth", "target Paladin en-Vec")
    s.resolve()
    s.assert_pt("Paladin en-Vec", 5, 5)


def test_paladin_en_vec_cant_be_blocked_by_black_or_red_creatures() -> None:
    """Paladin en-Vec: protection from black and from red: "It can't be blocked ... by anything
    black or red." (2012 702.15b): attacking, only the green Grizzly Bears may block it, not the
    black Scathe Zombies or the red Goblin Piker."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Paladin en-Vec"]},
                     {"in_play": ["Scathe Zombies", "Goblin Piker", "Grizzly Bears"]}))
    attack(s, "Paladin en-Vec")
    assert block_options(s) == ["block Paladin en-Vec with Grizzly Bears", "done"]


def test_paladin_en_vec_prevents_damage_from_red_sources() -> None:
    """Paladin en-Vec: protection from red: "It can't be ... dealt damage ... by anything ...
    red." (2012 702.15b, prevention): Bloodfire Colossus's 6 damage to each creature kills the
    Grizzly Bears but deals none to the Paladin."""
    s = Scenario(pos("precombat_main", {"in_play": ["Bloodfire Colossus", "Mountain"]},
                     {"in_play": ["Paladin en-Vec", "Grizzly Bears"]}))
    s.do("activate Bloodfire Colossus")
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_damage("Paladin en-Vec", 0)


def test_paladin_en_vec_first_strike() -> None:
    """Paladin en-Vec: "First strike": blocked by a Grizzly Bears it kills the Bears in the
    first-strike damage step and takes no damage (2007 CR 310.2)."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Paladin en-Vec"]}, {"in_play": ["Grizzly Bears"]}))
    attack(s, "Paladin en-Vec")
    block(s, ("Paladin en-Vec", "Grizzly Bears"))
    s.advance_to("end_of_combat")
    s.assert_in_play("Grizzly Bears", False)
    s.assert_damage("Paladin en-Vec", 0)


# -- Pincher Beetles: shroud -------------------------------------------------------------------
def test_pincher_beetles_shroud_no_player_can_target_it() -> None:
    """Pincher Beetles: "Shroud (This creature can't be the target of spells or abilities.)"
    (2012 702.18a): neither its controller's Giant Growth nor an opponent's Prodigal Pyromancer
    can target it."""
    s = Scenario(pos("precombat_main", {"in_play": ["Pincher Beetles", "Grizzly Bears", "Forest"],
                                        "hand": ["Giant Growth"]}))
    s.do("play Giant Growth")
    assert s.options() == ["target Grizzly Bears"]
    s = Scenario(pos("precombat_main", {"in_play": ["Prodigal Pyromancer"]}, {"in_play": ["Pincher Beetles"]}))
    s.do("activate Prodigal Pyromancer")
    assert "target Pincher Beetles" not in s.options()
    s.assert_pt("Pincher Beetles", 3, 1)


# -- Spineless Thug: can't block --------------------------------------------------------------
def test_spineless_thug_cant_block_but_attacks() -> None:
    """Spineless Thug: "Spineless Thug can't block." (2007 CR 502): an attacking Grizzly Bears
    gets no block option from it, and it can still attack."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Grizzly Bears"]}, {"in_play": ["Spineless Thug"]}))
    attack(s, "Grizzly Bears")
    assert block_options(s) == []
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Spineless Thug"]}))
    attack(s, "Spineless Thug")
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)


# -- Tangle Spider: flash, reach ---------------------------------------------------------------
def test_tangle_spider_flash_played_at_instant_speed() -> None:
    """Tangle Spider: "Flash (You may play this spell any time you could play an instant.)"
    (2012 702.8a): it can be played in the beginning of combat step (Giant Spider can't), and
    in the opponent's turn."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Forest"] * 6, "hand": ["Tangle Spider", "Giant Spider"]}))
    assert "play Tangle Spider" in s.options() and "play Giant Spider" not in s.options()
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Suntail Hawk"]},
                     {"in_play": ["Forest"] * 6, "hand": ["Tangle Spider"]}))
    s.pass_priority(1)
    s.do("play Tangle Spider")
    s.resolve()
    s.assert_pt("Tangle Spider", 3, 4)
    assert s.perm("Tangle Spider").controller == 1


def test_tangle_spider_reach_blocks_a_flyer() -> None:
    """Tangle Spider: "Reach (This creature can block creatures with flying.)" (2012 702.16):
    it can block an attacking Snapping Drake and kills it."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Snapping Drake"]}, {"in_play": ["Tangle Spider"]}))
    attack(s, "Snapping Drake")
    assert block_options(s) == ["block Snapping Drake with Tangle Spider", "done"]
    s.do("block Snapping Drake with Tangle Spider")
    s.advance_to("end_of_combat")
    s.assert_in_play("Snapping Drake", False)
    s.assert_damage("Tangle Spider", 3)


def test_illegal_action_is_refused() -> None:
    """Sanity check for the harness: a card that can't block is refused as a blocker by the
    engine itself, not only absent from the options."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Grizzly Bears"]},
                     {"in_play": ["Spineless Thug", "Scathe Zombies"]}))
    attack(s, "Grizzly Bears")
    s.pass_priority(2)
    with pytest.raises(IllegalActionError):
        s.do("block Grizzly Bears with Spineless Thug")
