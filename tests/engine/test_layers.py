"""Continuous effects in the 2007 layers (2007 CR 418.5; RULES_2007 §9): abilities granted in
layer 5, power/toughness in sublayers 6a (characteristic-setting), 6b (resolved effects),
6c (counters), 6d (static modifiers); effects ending; Equipment moving."""

from __future__ import annotations

from mtg_env.testing import Scenario

LIB = ["Wall of Wood"] * 5


def pos(step: str, p0: dict, p1: dict | None = None, **top) -> dict:
    return {"turn": 3, "step": step,
            "players": [{"library": LIB, **p0}, {"library": LIB, **(p1 or {})}], **top}


def test_pump_counters_and_static_bonus_add_up() -> None:
    """2007 CR 418.5 layer 6: Giant Growth (6b) + a +1/+1 counter (6c) + Holy Strength (6d) on
    Grizzly Bears: 2/2 -> 5/5 -> 6/6 -> 7/8."""
    s = Scenario(pos("precombat_main", {"hand": ["Giant Growth"], "in_play": [
        "Forest", {"card": "Grizzly Bears", "id": "b", "counters": {"+1/+1": 1}},
        {"card": "Holy Strength", "attached_to": "b"}]}))
    s.assert_pt("Grizzly Bears", 4, 5)
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 7, 8)


def test_two_pumps_stack() -> None:
    """2007 CR 418.5 6b: two resolved Giant Growths both apply (timestamp order, additive)."""
    s = Scenario(pos("precombat_main", {"hand": ["Giant Growth", "Giant Growth"],
                                        "in_play": ["Forest", "Forest", "Grizzly Bears"]}))
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.do("play Giant Growth#2", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 8, 8)


def test_characteristic_setting_ability_applies_first() -> None:
    """2007 CR 418.5 6a: a characteristic-setting ability (Molimo's P/T = lands you control) is
    applied before pumps and static bonuses, and follows the land count."""
    s = Scenario(pos("precombat_main", {"hand": ["Giant Growth", "Forest"], "in_play": [
        "Forest", "Forest", {"card": "Molimo, Maro-Sorcerer", "id": "m"},
        {"card": "Holy Strength", "attached_to": "m"}]}))
    s.assert_pt("Molimo, Maro-Sorcerer", 3, 4)
    s.do("play Giant Growth", "target Molimo, Maro-Sorcerer")
    s.resolve()
    s.assert_pt("Molimo, Maro-Sorcerer", 6, 7)
    s.do("play Forest")
    s.assert_pt("Molimo, Maro-Sorcerer", 7, 8)


def test_granted_keywords_and_static_pt_from_equipment() -> None:
    """2007 CR 418.5 layers 5 and 6d: Loxodon Warhammer gives +3/+0, lifelink and trample while
    attached; nothing once unattached."""
    s = Scenario(pos("precombat_main", {"in_play": [
        {"card": "Grizzly Bears", "id": "b"}, {"card": "Loxodon Warhammer", "attached_to": "b"},
        "Hill Giant", "Plains", "Plains", "Plains"]}))
    b = s.perm("Grizzly Bears")
    assert (b.power, b.toughness) == (5, 2)
    assert {"lifelink", "trample"} <= b.keywords
    s.do("activate Loxodon Warhammer", "target Hill Giant")
    s.resolve()
    s.assert_pt("Grizzly Bears", 2, 2)
    assert not ({"lifelink", "trample"} & s.perm("Grizzly Bears").keywords)
    s.assert_pt("Hill Giant", 6, 3)
    assert s.perm("Loxodon Warhammer").attached_to == s.perm("Hill Giant").id


def test_equip_gives_a_new_timestamp() -> None:
    """2007 glossary "Attach": attaching Equipment gives it a new timestamp."""
    s = Scenario(pos("precombat_main", {"in_play": ["Loxodon Warhammer", "Grizzly Bears",
                                                    "Plains", "Plains", "Plains"]}))
    before = s.perm("Loxodon Warhammer").timestamp
    s.do("activate Loxodon Warhammer", "target Grizzly Bears")
    s.resolve()
    assert s.perm("Loxodon Warhammer").timestamp > before
    assert s.perm("Loxodon Warhammer").timestamp > s.perm("Grizzly Bears").timestamp


def test_until_end_of_turn_effect_lasts_through_the_turn() -> None:
    """2012 514.2: "until end of turn" effects end in cleanup, not at the end of a phase."""
    s = Scenario(pos("precombat_main", {"hand": ["Giant Growth"], "in_play": ["Forest", "Grizzly Bears"]}))
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.advance_to("end_of_turn")
    s.assert_pt("Grizzly Bears", 5, 5)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Grizzly Bears", 2, 2)


def test_pump_on_a_creature_that_left_play_does_not_follow_the_card() -> None:
    """2007 CR 217.1c: an effect on a permanent doesn't apply to the new object the card becomes
    if it comes back into play."""
    s = Scenario(pos("precombat_main", {"hand": ["Giant Growth", "Unsummon"],
                                        "in_play": ["Forest", "Forest", "Forest", "Island", "Grizzly Bears"]}))
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.do("play Unsummon", "target Grizzly Bears")
    s.resolve()
    s.do("play Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 2, 2)
    assert s.perm("Grizzly Bears").summoning_sick


def test_reattaching_to_the_same_creature_does_nothing() -> None:
    """2007 glossary "Attach": an effect that attaches Equipment to the permanent it's already
    attached to does nothing (no new timestamp)."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Grizzly Bears", "id": "b"},
                                                    {"card": "Loxodon Warhammer", "attached_to": "b"},
                                                    "Plains", "Plains", "Plains"]}))
    before = s.perm("Loxodon Warhammer").timestamp
    s.do("activate Loxodon Warhammer", "target Grizzly Bears")
    s.resolve()
    w = s.perm("Loxodon Warhammer")
    assert w.attached_to == s.perm("Grizzly Bears").id and w.timestamp == before
    s.assert_pt("Grizzly Bears", 5, 2)
