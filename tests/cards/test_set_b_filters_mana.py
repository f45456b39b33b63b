"""Scenario tests for the Tenth Edition class B cards of issue 9: "or" filters and other target
vocabulary (Citanul Flute ... Spirit Weaver), mana abilities with side costs (the nine painlands,
Chromatic Star, Composite Golem, Doubling Cube) and prevention (Heart of Light, Holy Day,
Luminesce).

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012
CR.
"""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind
from mtg_env.testing import Scenario

K = DecisionKind


def main(p0: dict, p1: dict | None = None, **top) -> Scenario:
    """Player 0 active with priority in their precombat main phase of turn 3."""
    pos = {"turn": 3, "step": "precombat_main", "players": [p0, p1 or {}]}
    pos.update(top)
    return Scenario(pos, **top.pop("options", {}))


def targets(s: Scenario) -> list[str]:
    return sorted(o for o in s.options() if o.startswith("target "))


def hand(s: Scenario, pl: int) -> list[str]:
    return sorted(c.label for c in s.game.players[pl].hand)


def pool(s: Scenario, pl: int) -> str:
    return s.game.players[pl].pool_text()


def combat(attackers: list, defenders: list, hand1: tuple = ()) -> Scenario:
    """Player 0 attacks: declare blockers step, blocks already declared, player 0 has priority."""
    return Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"in_play": attackers}, {"in_play": defenders, "hand": list(hand1)}]})


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
    s = combat([{"card": "Knight of Dusk", "id": "k", "attacking": True},
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
    s = combat([{"card": "Knight of Dusk", "id": "k", "attacking": True}, "Swamp", "Swamp"],
               [{"card": "Hill Giant", "blocking": ["k"]}, "Mountain"], hand1=("Shock",))
    s.do("activate Knight of Dusk", "target Hill Giant", "pass")
    s.do("play Shock", "target Knight of Dusk")
    s.resolve()
    s.assert_in_play("Knight of Dusk", False)
    s.resolve()
    s.assert_in_play("Hill Giant")
