"""Scenario tests for the Tenth Edition cards with "or" filters and other target
vocabulary (Citanul Flute ... Spirit Weaver), mana abilities with side costs (the nine painlands,
Chromatic Star, Composite Golem, Doubling Cube) and prevention (Heart of Light, Holy Day,
Luminesce).

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012
CR.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind
from mtg_env.testing import Scenario, main, scenario

K = DecisionKind


def targets(s: Scenario) -> list[str]:
    return sorted(o for o in s.options() if o.startswith("target "))


def hand(s: Scenario, pl: int) -> list[str]:
    return sorted(c.label for c in s.game.players[pl].hand)


def pool(s: Scenario, pl: int) -> str:
    return s.game.players[pl].pool_text()


def blocks_declared(attackers: list, defenders: list, hand1: tuple = ()) -> Scenario:
    """Player 0 attacks: declare blockers step, blocks already declared, player 0 has priority."""
    return scenario(attackers, {"in_play": defenders, "hand": list(hand1)}, "declare_blockers")


# == filters and targets ==========================================================================

# -- Citanul Flute --------------------------------------------------------------------------------
def test_citanul_flute_finds_a_creature_card_with_cmc_at_most_x() -> None:
    """Citanul Flute: "{X}, {T}: Search your library for a creature card with converted mana cost
    X or less, reveal it, and put it into your hand. Then shuffle your library." With X=2, Grizzly
    Bears (2) may be found; Hill Giant (4) and Giant Growth (not a creature) may not (2012 701.15:
    a search for a card with a stated quality)."""
    s = main({"in_play": ["Citanul Flute", "Forest", "Forest"],
              "library": ["Hill Giant", "Grizzly Bears", "Giant Growth", "Goblin Piker"]})
    s.do("activate Citanul Flute", "X=2")
    s.resolve()
    assert sorted(o for o in s.options() if o.startswith("find")) == [
        "find Goblin Piker", "find Grizzly Bears"]
    s.do("find Grizzly Bears")
    assert hand(s, 0) == ["Grizzly Bears"]
    assert s.perm("Citanul Flute").tapped
    assert sorted(c.label for c in s.game.players[0].library) == [
        "Giant Growth", "Goblin Piker", "Hill Giant"]


def test_citanul_flute_with_x_zero_finds_nothing_of_cmc_one_or_more() -> None:
    """Citanul Flute with X=0 ("X can be zero"): no creature of converted mana cost 1 or more
    qualifies, so nothing is found (the search may fail) and the hand stays empty."""
    s = main({"in_play": ["Citanul Flute"], "library": ["Grizzly Bears", "Hill Giant"]})
    s.do("activate Citanul Flute", "X=0")
    s.resolve()
    assert not any(o.startswith("find") for o in s.options())
    assert hand(s, 0) == []


def test_citanul_flute_x_is_bounded_by_the_mana_available() -> None:
    """Citanul Flute's {X} is paid like any cost (2007 CR 409.1f): with two lands X is at most 2;
    the Flute's own {T} is part of the cost, so it can't be activated while tapped."""
    s = main({"in_play": ["Citanul Flute", "Forest", "Forest"], "library": ["Grizzly Bears"]})
    s.do("activate Citanul Flute")
    assert sorted(o for o in s.options() if o.startswith("X=")) == ["X=0", "X=1", "X=2"]
    s = main({"in_play": [{"card": "Citanul Flute", "tapped": True}, "Forest"]})
    assert "activate Citanul Flute" not in s.options()


# -- Creeping Mold --------------------------------------------------------------------------------
def test_creeping_mold_targets_artifact_enchantment_or_land_not_a_creature() -> None:
    """Creeping Mold: "Destroy target artifact, enchantment, or land." An artifact, an enchantment
    and a land may be targeted; a creature may not (2007 CR 413: an "or" target)."""
    s = main({"hand": ["Creeping Mold"], "in_play": ["Forest", "Forest", "Forest", "Forest"]},
             {"in_play": ["Dragon's Claw", "Upwelling", "Island", "Grizzly Bears"]})
    s.do("play Creeping Mold")
    opts = targets(s)
    assert "target Dragon's Claw" in opts and "target Upwelling" in opts
    assert "target Island" in opts and "target Forest" in opts
    assert "target Grizzly Bears" not in opts
    s.do("target Upwelling")
    s.resolve()
    s.assert_in_play("Upwelling", False)
    s.assert_zone(1, "graveyard", "Upwelling")


def test_creeping_mold_destroys_a_land() -> None:
    """Creeping Mold destroys target land (here player 1's Island)."""
    s = main({"hand": ["Creeping Mold"], "in_play": ["Forest", "Forest", "Forest", "Forest"]},
             {"in_play": ["Island"]})
    s.do("play Creeping Mold", "target Island")
    s.resolve()
    s.assert_zone(1, "graveyard", "Island")


# -- Cryoclasm ------------------------------------------------------------------------------------
def test_cryoclasm_destroys_a_plains_and_deals_3_to_its_controller() -> None:
    """Cryoclasm: "Destroy target Plains or Island. Cryoclasm deals 3 damage to that land's
    controller." The land is gone when the damage is dealt: its controller is found by last known
    information (2012 608.2g)."""
    s = main({"hand": ["Cryoclasm"], "in_play": ["Mountain", "Mountain", "Mountain"]},
             {"in_play": ["Plains", "Forest", "Island"]})
    s.do("play Cryoclasm")
    assert targets(s) == ["target Island", "target Plains"]  # not Forest, not a Mountain
    s.do("target Plains")
    s.resolve()
    s.assert_zone(1, "graveyard", "Plains")
    s.assert_life(1, 17)
    s.assert_life(0, 20)


def test_cryoclasm_damages_the_controller_not_the_owner() -> None:
    """Cryoclasm deals its damage to "that land's controller": player 0 controls an Island player
    1 owns, so player 0 takes the 3 damage and the Island goes to its owner's graveyard."""
    s = main({"hand": ["Cryoclasm"], "in_play": ["Mountain", "Mountain", "Mountain"]},
             {"in_play": [{"card": "Island", "controller": 0}]})
    s.do("play Cryoclasm", "target Island")
    s.resolve()
    s.assert_zone(1, "graveyard", "Island")
    s.assert_life(0, 17)
    s.assert_life(1, 20)


def test_cryoclasm_without_a_plains_or_island_cant_be_played() -> None:
    """Cryoclasm needs a Plains or Island to target (2007 CR 413.1): with only Forests and
    Mountains in play it isn't playable."""
    s = main({"hand": ["Cryoclasm"], "in_play": ["Mountain", "Mountain", "Mountain"]},
             {"in_play": ["Forest", "Swamp"]})
    assert "play Cryoclasm" not in s.options()


# -- Deathmark ------------------------------------------------------------------------------------
def test_deathmark_destroys_a_green_or_white_creature_only() -> None:
    """Deathmark: "Destroy target green or white creature." Grizzly Bears (green) and Wild Griffin
    (white) may be targeted; Hill Giant (red), Dross Crocodile (black) and Phantom Warrior (blue)
    may not."""
    s = main({"hand": ["Deathmark"], "in_play": ["Swamp"]},
             {"in_play": ["Grizzly Bears", "Wild Griffin", "Hill Giant", "Dross Crocodile",
                          "Phantom Warrior"]})
    s.do("play Deathmark")
    assert targets(s) == ["target Grizzly Bears", "target Wild Griffin"]
    s.do("target Wild Griffin")
    s.resolve()
    s.assert_in_play("Wild Griffin", False)
    s.assert_in_play("Grizzly Bears")


def test_deathmark_without_a_green_or_white_creature_cant_be_played() -> None:
    """Deathmark has no legal target among red and black creatures (2007 CR 413.1)."""
    s = main({"hand": ["Deathmark"], "in_play": ["Swamp"]},
             {"in_play": ["Hill Giant", "Dross Crocodile"]})
    assert "play Deathmark" not in s.options()


# -- Demolish -------------------------------------------------------------------------------------
def test_demolish_destroys_an_artifact_or_land_not_an_enchantment() -> None:
    """Demolish: "Destroy target artifact or land." An artifact and lands may be targeted; an
    enchantment and a creature may not."""
    s = main({"hand": ["Demolish"], "in_play": ["Mountain"] * 4},
             {"in_play": ["Kraken's Eye", "Upwelling", "Grizzly Bears", "Island"]})
    s.do("play Demolish")
    opts = targets(s)
    assert "target Kraken's Eye" in opts and "target Island" in opts
    assert "target Upwelling" not in opts and "target Grizzly Bears" not in opts
    s.do("target Kraken's Eye")
    s.resolve()
    s.assert_zone(1, "graveyard", "Kraken's Eye")


def test_demolish_can_target_an_artifact_creature() -> None:
    """Demolish targets "artifact": an artifact creature (Bottle Gnomes) is an artifact."""
    s = main({"hand": ["Demolish"], "in_play": ["Mountain"] * 4},
             {"in_play": ["Bottle Gnomes"]})
    s.do("play Demolish", "target Bottle Gnomes")
    s.resolve()
    s.assert_in_play("Bottle Gnomes", False)


# -- Flashfreeze ----------------------------------------------------------------------------------
def test_flashfreeze_counters_a_red_spell() -> None:
    """Flashfreeze: "Counter target red or green spell." Player 1 counters player 0's Shock."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"]},
             {"hand": ["Flashfreeze"], "in_play": ["Island", "Island"]})
    s.do("play Shock", "target player 1", "pass")
    s.do("play Flashfreeze", "target Shock")
    s.resolve()
    assert not s.game.stack
    s.assert_life(1, 20)
    s.assert_zone(0, "graveyard", "Shock")


def test_flashfreeze_counters_a_green_spell() -> None:
    """Flashfreeze counters a green spell too: Giant Growth."""
    s = main({"hand": ["Giant Growth"], "in_play": ["Forest", "Grizzly Bears"]},
             {"hand": ["Flashfreeze"], "in_play": ["Island", "Island"]})
    s.do("play Giant Growth", "target Grizzly Bears", "pass")
    s.do("play Flashfreeze", "target Giant Growth")
    s.resolve()
    assert not s.game.stack
    s.assert_pt("Grizzly Bears", 2, 2)


def test_flashfreeze_cant_target_a_black_spell() -> None:
    """Flashfreeze can't target a black spell (Afflict): with only that on the stack it isn't
    playable (2007 CR 413.1)."""
    s = main({"hand": ["Afflict"], "in_play": ["Swamp", "Swamp", "Swamp"]},
             {"hand": ["Flashfreeze"], "in_play": ["Island", "Island", "Grizzly Bears"]})
    s.do("play Afflict", "target Grizzly Bears", "pass")
    assert s.game.decision.player == 1
    assert "play Flashfreeze" not in s.options()


# -- the Weavers ----------------------------------------------------------------------------------
WEAVERS = [
    # (weaver, its land, legal targets, an illegal one)
    ("Hate Weaver", "Swamp", ["Phantom Warrior", "Hill Giant"], "Grizzly Bears"),
    ("Might Weaver", "Forest", ["Hill Giant", "Wild Griffin"], "Phantom Warrior"),
    ("Rage Weaver", "Mountain", ["Dross Crocodile", "Grizzly Bears"], "Wild Griffin"),
    ("Sky Weaver", "Island", ["Wild Griffin", "Dross Crocodile"], "Hill Giant"),
    ("Spirit Weaver", "Plains", ["Grizzly Bears", "Phantom Warrior"], "Dross Crocodile"),
]


@pytest.mark.parametrize(("weaver", "land", "legal", "illegal"), WEAVERS)
def test_weaver_targets_only_creatures_of_its_two_colors(weaver: str, land: str, legal: list,
                                                         illegal: str) -> None:
    """Each Weaver: "{2}: Target [color] or [color] creature ..." (Hate Weaver: blue or red; Might
    Weaver: red or white; Rage Weaver: black or green; Sky Weaver: white or black; Spirit Weaver:
    green or blue). Exactly the creatures of either color may be targeted, on either side; the
    Weaver itself only if it has one of the colors (it has not)."""
    creatures = ["Phantom Warrior", "Hill Giant", "Grizzly Bears", "Wild Griffin",
                 "Dross Crocodile"]
    s = main({"in_play": [weaver, land, land, *creatures[:2]]}, {"in_play": creatures[2:]})
    s.do(f"activate {weaver}")
    assert targets(s) == sorted(f"target {c}" for c in legal)
    assert f"target {illegal}" not in targets(s)


def test_hate_weaver_gives_plus_one_zero() -> None:
    """Hate Weaver: "{2}: Target blue or red creature gets +1/+0 until end of turn." Twice on Hill
    Giant: 5/3; the bonus ends at end of turn (2007 CR 418.5 layer 6c)."""
    s = main({"in_play": ["Hate Weaver", "Swamp", "Swamp", "Swamp", "Swamp", "Hill Giant"]})
    for _ in range(2):
        s.do("activate Hate Weaver", "target Hill Giant")
        s.resolve()
    s.assert_pt("Hill Giant", 5, 3)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Hill Giant", 3, 3)


def test_spirit_weaver_gives_plus_zero_one() -> None:
    """Spirit Weaver: "{2}: Target green or blue creature gets +0/+1 until end of turn." Grizzly
    Bears becomes 2/3 and survives Shock's 2 damage."""
    s = main({"hand": ["Shock"], "in_play": ["Spirit Weaver", "Plains", "Plains", "Mountain",
                                             "Grizzly Bears"]})
    s.do("activate Spirit Weaver", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 2, 3)
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears")


def test_might_weaver_gives_trample() -> None:
    """Might Weaver: "{2}: Target red or white creature gains trample until end of turn." Hill
    Giant (3/3) with trample, blocked by a 1/1 Soldier, assigns 1 to it and 2 to player 1."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": ["Might Weaver", "Forest", "Forest", {"card": "Hill Giant", "id": "g",
                                                          "attacking": True}]},
        {"in_play": [{"card": "Soldier Token", "blocking": ["g"]}]}]})
    s.do("activate Might Weaver", "target Hill Giant")
    s.resolve()
    assert "trample" in s.perm("Hill Giant").keywords
    s.pass_priority(2)
    s.do("assign 1 damage to Soldier Token")  # lethal to the blocker, the rest tramples over
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)


def test_rage_weaver_gives_haste() -> None:
    """Rage Weaver: "{2}: Target black or green creature gains haste until end of turn." A
    summoning-sick Grizzly Bears can attack (2007 CR 212.3d, 502.5)."""
    s = main({"in_play": ["Rage Weaver", "Mountain", "Mountain",
                          {"card": "Grizzly Bears", "summoning_sick": True}]})
    s.do("activate Rage Weaver", "target Grizzly Bears")
    s.resolve()
    s.pass_priority(2)
    s.pass_priority(2)
    assert s.game.step == "declare_attackers"
    assert "attack with Grizzly Bears" in s.options()


def test_sky_weaver_gives_flying() -> None:
    """Sky Weaver: "{2}: Target white or black creature gains flying until end of turn." Dross
    Crocodile gains flying."""
    s = main({"in_play": ["Sky Weaver", "Island", "Island", "Dross Crocodile"]})
    s.do("activate Sky Weaver", "target Dross Crocodile")
    s.resolve()
    assert "flying" in s.perm("Dross Crocodile").keywords
    s.advance_to("upkeep", active=1)
    assert "flying" not in s.perm("Dross Crocodile").keywords


# -- Hurkyl's Recall ------------------------------------------------------------------------------
def test_hurkyls_recall_returns_the_artifacts_the_target_player_owns() -> None:
    """Hurkyl's Recall: "Return all artifacts target player owns to his or her hand." Ruling: it
    returns artifacts the player owns whoever controls them, and ignores artifacts owned by others
    even if that player controls them. Player 1 owns Dragon's Claw and Angel's Feather (the Feather
    controlled by player 0); player 0 owns Wurm's Tooth, controlled by player 1."""
    s = main({"hand": ["Hurkyl's Recall"], "in_play": ["Island", "Island", "Bottle Gnomes",
                                                       {"card": "Wurm's Tooth", "controller": 1}]},
             {"in_play": ["Dragon's Claw", {"card": "Angel's Feather", "controller": 0},
                          "Grizzly Bears"]})
    s.do("play Hurkyl's Recall", "target player 1")
    s.resolve()
    assert hand(s, 1) == ["Angel's Feather", "Dragon's Claw"]
    s.assert_in_play("Wurm's Tooth")
    s.assert_in_play("Bottle Gnomes")
    s.assert_in_play("Grizzly Bears")


def test_hurkyls_recall_on_yourself() -> None:
    """Hurkyl's Recall targeting its own controller returns player 0's artifacts (an artifact
    creature too) to player 0's hand."""
    s = main({"hand": ["Hurkyl's Recall"], "in_play": ["Island", "Island", "Bottle Gnomes"]},
             {"in_play": ["Dragon's Claw"]})
    s.do("play Hurkyl's Recall", "target player 0")
    s.resolve()
    assert hand(s, 0) == ["Bottle Gnomes"]
    s.assert_in_play("Dragon's Claw")


# -- Knight of Dusk -------------------------------------------------------------------------------
def test_knight_of_dusk_destroys_a_creature_blocking_it() -> None:
    """Knight of Dusk: "{B}{B}: Destroy target creature blocking Knight of Dusk." Only the
    Knight's own blocker may be targeted: not the creature blocking another attacker, nor an
    unblocking one."""
    s = blocks_declared([{"card": "Knight of Dusk", "id": "k", "attacking": True},
                         {"card": "Grizzly Bears", "id": "b", "attacking": True}, "Swamp", "Swamp"],
                        [{"card": "Hill Giant", "blocking": ["k"]},
                         {"card": "Dross Crocodile", "blocking": ["b"]}, "Wild Griffin"])
    s.do("activate Knight of Dusk")
    assert targets(s) == ["target Hill Giant"]
    s.do("target Hill Giant")
    s.resolve()
    s.assert_in_play("Hill Giant", False)
    s.assert_in_play("Dross Crocodile")


def test_knight_of_dusk_without_a_blocker_has_no_target() -> None:
    """Knight of Dusk's ability needs a creature blocking it (2007 CR 413.1): outside combat it
    can't be activated."""
    s = main({"in_play": ["Knight of Dusk", "Swamp", "Swamp"]}, {"in_play": ["Hill Giant"]})
    assert "activate Knight of Dusk" not in s.options()


def test_knight_of_dusk_target_that_stops_blocking_is_illegal() -> None:
    """The target must still be blocking the Knight on resolution (2007 CR 413.2a). In response,
    player 1 Shocks the Knight (2/2): with the Knight gone nothing blocks it any more, so the
    ability's only target is illegal, it is countered and Hill Giant survives."""
    s = blocks_declared([{"card": "Knight of Dusk", "id": "k", "attacking": True}, "Swamp", "Swamp"],
                        [{"card": "Hill Giant", "blocking": ["k"]}, "Mountain"], hand1=("Shock",))
    s.do("activate Knight of Dusk", "target Hill Giant", "pass")
    s.do("play Shock", "target Knight of Dusk")
    s.resolve()
    s.assert_in_play("Knight of Dusk", False)
    s.resolve()
    s.assert_in_play("Hill Giant")


# == mana abilities ===============================================================================

PAINLANDS = [
    # (painland, its colors, a basic land making one of them, a spell costing {1} + that color)
    ("Battlefield Forge", "RW", "Mountain", "Goblin Piker"),
    ("Brushland", "GW", "Forest", "Grizzly Bears"),
    ("Caves of Koilos", "WB", "Plains", "Youthful Knight"),
    ("Karplusan Forest", "RG", "Mountain", "Goblin Piker"),
    ("Llanowar Wastes", "BG", "Forest", "Grizzly Bears"),
    ("Shivan Reef", "UR", "Island", "Sage Owl"),
    ("Sulfurous Springs", "BR", "Mountain", "Goblin Piker"),
    ("Underground River", "UB", "Island", "Sage Owl"),
    ("Yavimaya Coast", "GU", "Forest", "Grizzly Bears"),
]


@pytest.mark.parametrize(("land", "colors", "basic", "spell"), PAINLANDS)
def test_painland_makes_colorless_painlessly_and_its_colors_for_1_damage(
        land: str, colors: str, basic: str, spell: str) -> None:
    """Each painland: "{T}: Add {1} to your mana pool. {T}: Add {X} or {Y} to your mana pool.
    [This land] deals 1 damage to you." Both are mana abilities (2007 CR 406.1); the damage is
    part of the second one and is dealt by the land (a colorless source)."""
    s = main({"in_play": [land]}, options={"manual_mana": True})
    assert s.options() == ["pass", f"tap {land} for C", *(f"tap {land} for {c}" for c in colors)]
    s.do(f"tap {land} for C")
    s.assert_life(0, 20)
    assert pool(s, 0) == "C"
    for c in colors:
        s = main({"in_play": [land]}, options={"manual_mana": True})
        s.do(f"tap {land} for {c}")
        s.assert_life(0, 19)
        assert pool(s, 0) == c


@pytest.mark.parametrize(("land", "colors", "basic", "spell"), PAINLANDS)
def test_automatic_payer_never_pays_life_when_a_basic_can_pay_the_color(
        land: str, colors: str, basic: str, spell: str) -> None:
    """The automatic payer chooses among mana abilities so that a side cost is paid only
    when no free source can pay instead (2007 CR 409.1g-h: the player chooses which mana
    abilities to play). The spell costs {1} and one of the land's colors: the basic pays the
    color, the painland's {1} ability the generic mana, and no damage is dealt."""
    s = main({"hand": [spell], "in_play": [land, basic]})
    s.do(f"play {spell}")
    assert s.perm(land).tapped and s.perm(basic).tapped
    s.assert_life(0, 20)


@pytest.mark.parametrize(("land", "colors", "basic", "spell"), PAINLANDS)
def test_automatic_payer_uses_the_painful_ability_when_only_it_makes_the_color(
        land: str, colors: str, basic: str, spell: str) -> None:
    """When only the painland makes the needed color (the other land is a basic of a third
    color), the payer uses its colored ability and its controller takes the 1 damage."""
    other = next(b for c, b in zip("WUBRG", ("Plains", "Island", "Swamp", "Mountain", "Forest"))
                 if c not in colors)
    s = main({"hand": [spell], "in_play": [land, other]})
    s.do(f"play {spell}")
    s.assert_life(0, 19)


def test_painland_pays_generic_mana_painlessly_even_alone() -> None:
    """A cost of only generic mana is paid with the painland's {1} ability: Bottle Gnomes ({3})
    with three painlands deals no damage."""
    s = main({"hand": ["Bottle Gnomes"],
              "in_play": ["Brushland", "Shivan Reef", "Caves of Koilos"]})
    s.do("play Bottle Gnomes")
    s.assert_life(0, 20)
    s.resolve()
    s.assert_in_play("Bottle Gnomes")


def test_painlands_pay_a_color_only_one_of_them_must_make() -> None:
    """Grizzly Bears ({1}{G}) with Brushland, Yavimaya Coast and a Plains: one painland pays {G}
    (1 damage) and the other painland or the Plains the {1} without damage; the payer never takes
    2."""
    s = main({"hand": ["Grizzly Bears"],
              "in_play": ["Brushland", "Yavimaya Coast", "Plains"]})
    s.do("play Grizzly Bears")
    s.assert_life(0, 19)
    assert sum(p.tapped for p in s.game.permanents) == 2


# -- Chromatic Star -------------------------------------------------------------------------------
def test_chromatic_star_makes_any_color_and_draws_when_sacrificed() -> None:
    """Chromatic Star: "{1}, {T}, Sacrifice Chromatic Star: Add one mana of any color to your mana
    pool. When Chromatic Star is put into a graveyard from play, draw a card." The {1} is paid by
    the Forest; the Star makes {U}; its trigger draws a card (2007 CR 410.5: a triggered ability
    of a mana ability's source goes on the stack)."""
    s = main({"in_play": ["Chromatic Star", "Forest"], "library": ["Hill Giant"]})
    assert [o for o in s.options() if "Chromatic Star" in o] == [
        f"tap Chromatic Star for {c}" for c in "WUBRG"]
    s.do("tap Chromatic Star for U")
    assert pool(s, 0) == "U"
    assert s.perm("Forest").tapped
    s.assert_zone(0, "graveyard", "Chromatic Star")
    s.resolve()
    assert hand(s, 0) == ["Hill Giant"]


def test_chromatic_star_needs_its_mana_cost() -> None:
    """Chromatic Star's ability costs {1} more than {T} and the sacrifice: with no other mana it
    can't be activated (2007 CR 409.1h)."""
    s = main({"in_play": ["Chromatic Star"]})
    assert not any("Chromatic Star" in o for o in s.options())


def test_chromatic_star_draws_when_destroyed_too() -> None:
    """"When Chromatic Star is put into a graveyard from play" covers any way: Demolish destroys
    it and its controller draws."""
    s = main({"hand": ["Demolish"], "in_play": ["Mountain"] * 4},
             {"in_play": ["Chromatic Star"], "library": ["Hill Giant"]})
    s.do("play Demolish", "target Chromatic Star")
    s.resolve()
    s.resolve()
    assert hand(s, 1) == ["Hill Giant"]


# -- Composite Golem ------------------------------------------------------------------------------
def test_composite_golem_adds_all_five_colors_at_once() -> None:
    """Composite Golem: "Sacrifice Composite Golem: Add {W}{U}{B}{R}{G} to your mana pool." One
    activation adds all five mana (a mana ability, 2007 CR 406.1): Youthful Knight ({1}{W}) is
    paid from the pool and three mana stay floating."""
    s = main({"hand": ["Youthful Knight"], "in_play": ["Composite Golem"]})
    assert [o for o in s.options() if "Composite Golem" in o] == [
        "activate Composite Golem for WUBRG"]
    s.do("activate Composite Golem for WUBRG")
    assert pool(s, 0) == "WUBRG"
    s.assert_zone(0, "graveyard", "Composite Golem")
    s.do("play Youthful Knight")
    assert sum(s.game.players[0].mana_pool) == 3


def test_composite_golem_needs_no_tap_so_summoning_sickness_does_not_matter() -> None:
    """Composite Golem's cost is only the sacrifice (no {T}), so a summoning-sick Golem can be
    sacrificed for mana (2007 CR 212.3d restricts {T} abilities only)."""
    s = main({"in_play": [{"card": "Composite Golem", "summoning_sick": True}]})
    s.do("activate Composite Golem for WUBRG")
    assert pool(s, 0) == "WUBRG"


# -- Doubling Cube --------------------------------------------------------------------------------
def test_doubling_cube_doubles_each_type_of_mana_and_pays_its_cost_from_lands() -> None:
    """Doubling Cube: "{3}, {T}: Double the amount of each type of mana in your mana pool." With
    {R}{R}{G} floating and three untapped lands, the lands pay the {3} and the pool becomes
    {R}{R}{R}{R}{G}{G} (the type of mana is its color; the ability is a mana ability)."""
    s = main({"mana_pool": "RRG", "in_play": ["Doubling Cube", "Swamp", "Swamp", "Swamp"]})
    assert "activate Doubling Cube (mana ability)" in s.options()
    s.do("activate Doubling Cube (mana ability)")
    assert pool(s, 0) == "RRRRGG"
    assert all(p.tapped for p in s.game.permanents)


def test_doubling_cube_paid_from_the_pool_doubles_what_is_left() -> None:
    """Without untapped lands, Doubling Cube's {3} comes out of the pool (colorless first): from
    {B}{B}{C}{C}{C} it leaves {B}{B}, doubled to {B}{B}{B}{B}."""
    s = main({"mana_pool": "BBCCC", "in_play": ["Doubling Cube"]})
    s.do("activate Doubling Cube (mana ability)")
    assert pool(s, 0) == "BBBB"


def test_doubling_cube_needs_three_mana() -> None:
    """Doubling Cube's {3} must be payable: with two mana available it isn't offered."""
    s = main({"mana_pool": "R", "in_play": ["Doubling Cube", "Mountain"]})
    assert "activate Doubling Cube (mana ability)" not in s.options()


# == prevention ===================================================================================

# -- Heart of Light -------------------------------------------------------------------------------
def test_heart_of_light_prevents_damage_dealt_to_the_enchanted_creature() -> None:
    """Heart of Light: "Prevent all damage that would be dealt to and dealt by enchanted
    creature." Shock at the enchanted Grizzly Bears deals nothing (2007 CR 419.8); an
    unenchanted creature is not protected."""
    s = main({"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain"]},
             {"in_play": [{"card": "Grizzly Bears", "id": "b"},
                          {"card": "Heart of Light", "attached_to": "b"}, "Goblin Piker"]})
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.assert_damage("Grizzly Bears", 0)
    s.do("play Shock#2", "target Goblin Piker")
    s.resolve()
    s.assert_in_play("Goblin Piker", False)


def test_heart_of_light_prevents_combat_damage_both_ways() -> None:
    """Heart of Light on an attacking Hill Giant blocked by Grizzly Bears: neither deals damage to
    the other ("to and dealt by enchanted creature"); both survive."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": [{"card": "Hill Giant", "id": "g", "attacking": True},
                     {"card": "Heart of Light", "attached_to": "g"}]},
        {"in_play": [{"card": "Grizzly Bears", "blocking": ["g"]}]}]})
    s.advance_to("end_of_combat")
    s.assert_in_play("Grizzly Bears")
    s.assert_damage("Grizzly Bears", 0)
    s.assert_damage("Hill Giant", 0)


def test_heart_of_light_prevents_the_enchanted_creatures_damage_to_a_player() -> None:
    """An unblocked creature with Heart of Light deals no combat damage to the defending player;
    another attacker's damage is not prevented."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": [{"card": "Hill Giant", "id": "g", "attacking": True},
                     {"card": "Heart of Light", "attached_to": "g"},
                     {"card": "Grizzly Bears", "attacking": True}]}, {}]})
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)


def test_heart_of_light_enchanting_an_opponents_creature_stops_its_attack_damage() -> None:
    """Heart of Light can be played on an opponent's creature ("Enchant creature"): player 0
    enchants player 1's Hill Giant, whose attack then deals player 0 no damage."""
    s = main({"hand": ["Heart of Light"], "in_play": ["Plains", "Plains", "Plains"],
              "library": ["Forest"] * 3}, {"in_play": ["Hill Giant"], "library": ["Forest"] * 3})
    s.do("play Heart of Light", "target Hill Giant")
    s.resolve()
    assert s.perm("Heart of Light").attached_to == s.perm("Hill Giant").id
    s.advance_to("beginning_of_combat", active=1)
    s.pass_priority(2)
    s.do("attack with Hill Giant")
    if s.game.decision.kind is K.DECLARE_ATTACKERS:
        s.do("done")
    s.advance_to("end_of_combat", active=1)
    s.assert_life(0, 20)


# -- Holy Day -------------------------------------------------------------------------------------
def test_holy_day_prevents_all_combat_damage_this_turn() -> None:
    """Holy Day: "Prevent all combat damage that would be dealt this turn." Played after blocks:
    the unblocked attacker deals player 1 nothing and the blocked one and its blocker deal each
    other nothing."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"hand": ["Holy Day"], "in_play": ["Plains",
                                           {"card": "Hill Giant", "id": "g", "attacking": True},
                                           {"card": "Grizzly Bears", "attacking": True}]},
        {"in_play": [{"card": "Goblin Piker", "blocking": ["g"]}]}]})
    s.do("play Holy Day")
    s.resolve()
    s.advance_to("end_of_combat")
    s.assert_life(1, 20)
    s.assert_in_play("Goblin Piker")
    s.assert_damage("Hill Giant", 0)


def test_holy_day_does_not_prevent_noncombat_damage() -> None:
    """Holy Day prevents combat damage only: a Shock the same turn deals its 2 damage."""
    s = main({"hand": ["Holy Day", "Shock"], "in_play": ["Plains", "Mountain"]})
    s.do("play Holy Day")
    s.resolve()
    s.do("play Shock", "target player 1")
    s.resolve()
    s.assert_life(1, 18)


def test_holy_day_ends_at_end_of_turn() -> None:
    """Holy Day's effect lasts "this turn" (2012 514.2): next turn, combat damage is dealt."""
    s = main({"hand": ["Holy Day"], "in_play": ["Plains"], "library": ["Forest"] * 3},
             {"in_play": ["Hill Giant"], "library": ["Forest"] * 3})
    s.do("play Holy Day")
    s.resolve()
    s.advance_to("beginning_of_combat", active=1)
    s.pass_priority(2)
    s.do("attack with Hill Giant")
    if s.game.decision.kind is K.DECLARE_ATTACKERS:
        s.do("done")
    s.advance_to("end_of_combat", active=1)
    s.assert_life(0, 17)


# -- Luminesce ------------------------------------------------------------------------------------
def test_luminesce_prevents_damage_from_red_sources() -> None:
    """Luminesce: "Prevent all damage that black sources and red sources would deal this turn."
    Shock (a red source) deals nothing."""
    s = main({"hand": ["Shock"], "in_play": ["Mountain"]},
             {"hand": ["Luminesce"], "in_play": ["Plains"]})
    s.do("play Shock", "target player 1", "pass")
    s.do("play Luminesce")
    s.resolve()
    s.resolve()
    s.assert_life(1, 20)


def test_luminesce_prevents_black_creatures_combat_damage_not_green() -> None:
    """Luminesce stops a black creature's combat damage (Dross Crocodile, 5) but not a green
    one's (Grizzly Bears, 2): only sources of the stated colors."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": [{"card": "Dross Crocodile", "attacking": True},
                     {"card": "Grizzly Bears", "attacking": True}]},
        {"hand": ["Luminesce"], "in_play": ["Plains"]}]})
    s.do("pass")
    s.do("play Luminesce")
    s.resolve()
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)


def test_luminesce_does_not_prevent_damage_from_a_white_source() -> None:
    """A white source is neither black nor red: after Luminesce, Wild Griffin still deals its
    combat damage."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"hand": ["Luminesce"], "in_play": ["Plains",
                                            {"card": "Wild Griffin", "attacking": True}]}, {}]})
    s.do("play Luminesce")
    s.resolve()
    s.advance_to("end_of_combat")
    s.assert_life(1, 18)


# == timing ========================================================================================
@pytest.mark.parametrize(("card", "lands", "target"), [
    ("Creeping Mold", ["Forest"] * 4, "Dragon's Claw"), ("Cryoclasm", ["Mountain"] * 3, "Plains"),
    ("Deathmark", ["Swamp"], "Grizzly Bears"), ("Demolish", ["Mountain"] * 4, "Dragon's Claw")])
def test_the_sorceries_are_played_only_in_their_controllers_main_phase(card: str, lands: list,
                                                                       target: str) -> None:
    """Creeping Mold, Cryoclasm, Deathmark and Demolish are sorceries (2007 CR 212.3a): not
    playable on the opponent's turn even with a legal target; playable in their controller's own
    main phase."""
    s = Scenario({"turn": 3, "active_player": 1, "step": "precombat_main", "players": [
        {"hand": [card], "in_play": lands}, {"in_play": [target]}]})
    s.do("pass")
    assert s.game.decision.player == 0
    assert f"play {card}" not in s.options()
    s = main({"hand": [card], "in_play": lands}, {"in_play": [target]})
    assert f"play {card}" in s.options()


def test_luminesce_ends_at_end_of_turn() -> None:
    """Luminesce lasts "this turn" (2012 514.2): next turn a red source deals damage again."""
    s = main({"hand": ["Luminesce"], "in_play": ["Plains"], "library": ["Forest"] * 3},
             {"hand": ["Shock"], "in_play": ["Mountain"], "library": ["Forest"] * 3})
    s.do("play Luminesce")
    s.resolve()
    s.advance_to("precombat_main", active=1)
    s.do("play Shock", "target player 0")
    s.resolve()
    s.assert_life(0, 18)
