"""Continuous effects in the 2007 layers (2007 CR 418.5; RULES_2007 §9): abilities granted in
layer 5, power/toughness in sublayers 6a (characteristic-setting), 6b (resolved effects),
6c (counters), 6d (static modifiers); effects ending; Equipment moving."""

from __future__ import annotations

from functools import partial

from mtg_env.testing import Scenario, position

LIB = ["Wall of Wood"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


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


# -- abilities as characteristics; layers 1, 4 and 5 -------------------------------------------

import pytest  # noqa: E402

from mtg_env import Game  # noqa: E402
from mtg_env.engine import registry  # noqa: E402
from mtg_env.engine.abilities import ActivatedAbility, Cost, StaticAbility  # noqa: E402
from mtg_env.engine.layers import fresh  # noqa: E402
from mtg_env.engine.mana import activate_mana  # noqa: E402
from mtg_env.engine.mana_cost import ManaCost  # noqa: E402
from mtg_env.engine.model import CardDef  # noqa: E402
from mtg_env.engine.serialize import game_to_dict  # noqa: E402


def test_a_permanent_without_effects_on_its_abilities_shares_its_cards_tuples() -> None:
    """Abilities are computed like power (2007 CR 418.5): printed, then copied or granted; with no
    effect on them the permanent holds its card's own tuples (no allocation per refresh)."""
    s = Scenario(pos("precombat_main", {"hand": ["Giant Growth"],
                                        "in_play": ["Forest", "Kamahl, Pit Fighter",
                                                    "Venerable Monk"]}))
    s.do("play Giant Growth", "target Kamahl, Pit Fighter")
    s.resolve()
    fresh(s.game)
    for p in s.game.permanents:
        assert p.activated is p.card.cdef.activated
        assert p.triggered is p.card.cdef.triggered and p.static is p.card.cdef.static


def test_stack_object_holds_its_ability_not_a_card_name() -> None:
    """2007 CR 410/412: a stack object carries its ability; ``item_def`` reads it from the object
    (the card name in its data is not looked up)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Kamahl, Pit Fighter"]}))
    s.do("activate Kamahl, Pit Fighter", "target player 1")
    item = s.game.stack[-1]
    kamahl = s.perm("Kamahl, Pit Fighter")
    assert item.ability_def is kamahl.activated[0] and item.source == kamahl.id
    item.data.card = "No Such Card"
    s.resolve()
    s.assert_life(1, 17)


def test_json_stores_ability_references() -> None:
    """JSON stores a granted ability on the stack as a reference to the static ability granting it:
    ``[card, "static", i, "activated", j]``; a printed one as ``[card, "activated", i]``."""
    s = Scenario(pos("precombat_main", {"in_play": [
        "Kamahl, Pit Fighter", {"card": "Grizzly Bears", "id": "b"},
        {"card": "Arcane Teachings", "attached_to": "b"}]}))
    s.do("activate Grizzly Bears", "target player 1")
    s.do("activate Kamahl, Pit Fighter", "target player 1")
    d = game_to_dict(s.game)
    assert [x["ability_def"] for x in d["stack"]] == [
        {"$ability": ["Arcane Teachings", "static", 1, "activated", 0]},
        {"$ability": ["Kamahl, Pit Fighter", "activated", 0]}]
    g2 = Game.from_json(s.game.to_json())
    assert [x.ability_def for x in g2.stack] == [x.ability_def for x in s.game.stack]


def test_waiting_trigger_round_trips_with_its_ability() -> None:
    """A triggered ability waiting to be put on the stack (2007 CR 410.5) holds its ability too;
    JSON stores its reference."""
    s = Scenario(pos("precombat_main", {"hand": ["Venerable Monk", "Kavu Climber"],
                                        "in_play": ["Plains"] * 3}))
    s.do("play Venerable Monk")
    s.resolve()
    g2 = Game.from_json(s.game.to_json())
    assert g2.to_json() == s.game.to_json()
    s.resolve()
    s.assert_life(0, 22)


def test_animated_land_gets_static_bonus_in_layer_6d_after_layer_4() -> None:
    """2007 CR 418.5: a type-changing effect (layer 4) makes Treetop Village a creature before
    Ascendant Evincar's "Nonblack creatures get -1/-1." (layer 6d) is applied: 3/3 -> 2/2."""
    s = Scenario(pos("precombat_main", {"in_play": ["Forest", "Forest", "Treetop Village"]},
                     {"in_play": ["Ascendant Evincar"]}))
    s.do("activate Treetop Village")
    s.resolve()
    s.assert_pt("Treetop Village", 2, 2)


@pytest.fixture
def test_cards():
    """Two card definitions that no Tenth Edition card provides, registered for one test: a land
    with a mana ability that costs mana, and a "green creatures have flying" static grant."""
    converter = CardDef(
        "Test Mana Converter", ManaCost(), frozenset(), frozenset({"Land"}),
        activated=(ActivatedAbility(0, Cost(mana=ManaCost.parse("{1}")), mana=("G",),
                                    text="{1}: Add {G} to your mana pool."),))
    banner = CardDef(
        "Test Green Banner", ManaCost(), frozenset(), frozenset({"Enchantment"}),
        static=(StaticAbility("grant", "all_creatures", {"color": "G", "keywords": ["flying"]}),))
    for c in (converter, banner):
        registry.register(c)
    yield
    for c in (converter, banner):
        registry._CARDS.pop(c.name, None)


def test_mana_ability_with_a_mana_cost_is_offered_only_when_affordable(test_cards) -> None:
    """A mana ability is offered only when its whole cost can be paid: "{1}: Add {G}"
    with no other mana is not offered, with a Plains it is, and taking it pays {1} first."""
    s = Scenario(pos("precombat_main", {"in_play": ["Test Mana Converter"]}))
    assert s.options() == ["pass"]
    s = Scenario(pos("precombat_main", {"in_play": ["Test Mana Converter", "Plains"]}))
    assert "activate Test Mana Converter for G" in s.options()
    s.do("activate Test Mana Converter for G")
    assert s.perm("Plains").tapped and s.game.players[0].pool_text() == "G"


def test_activating_an_unaffordable_mana_ability_changes_nothing(test_cards) -> None:
    """The affordability check comes before any cost is paid: an engine-level activation that
    can't be paid raises and leaves the state unchanged."""
    from mtg_env import MtgError
    s = Scenario(pos("precombat_main", {"in_play": ["Test Mana Converter"]}))
    before = s.game.to_json()
    with pytest.raises(MtgError, match="cannot pay"):
        activate_mana(s.game, s.perm("Test Mana Converter").id, 0, "G")
    assert s.game.to_json() == before


def test_color_filtered_grant_depends_on_a_color_setting_effect(test_cards) -> None:
    """Dependency (2007 glossary "depend on"; 418.5): in layer 5 a grant to green creatures depends
    on an effect making a creature green, so it applies after it whatever the timestamps: the
    green Treetop Village has flying from the older Test Green Banner."""
    s = Scenario(pos("precombat_main", {"in_play": ["Test Green Banner", "Forest", "Forest",
                                                    "Treetop Village"]}))
    s.do("activate Treetop Village")
    s.resolve()
    assert s.perm("Treetop Village").has("flying")
