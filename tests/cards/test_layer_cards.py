"""Cards proving the 2007 layer system and abilities as characteristics: a type-changing
effect (Treetop Village, Faerie Conclave), a copy effect (Clone), a granted ability (Arcane
Teachings), a land with two mana abilities (Adarkar Wastes) and a resolved -1/-1 (Afflict).
Each test cites the 2007 rule (2007 CR 418.5 layers; RULES_2007.md section 9) or the printed text."""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind, Game
from mtg_env.engine.continuous_effects import KeywordGrant
from mtg_env.engine.layers import add_effect
from mtg_env.testing import Scenario, position

LIB = ["Wall of Wood"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


# -- Treetop Village / Faerie Conclave: type-changing (layer 4), abilities and color (layer 5),
# -- setting P/T (layer 6b) -------------------------------------------------------------------

def _village(**p0) -> Scenario:
    return Scenario(pos("precombat_main", {
        "hand": ["Giant Growth", "Afflict"],
        "in_play": ["Forest", "Forest", "Forest", "Swamp", "Swamp", "Swamp", "Treetop Village"],
        **p0}))


def test_treetop_village_comes_into_play_tapped_and_taps_for_green() -> None:
    """Printed text: "Treetop Village comes into play tapped. {T}: Add {G} to your mana pool."."""
    s = Scenario(pos("precombat_main", {"hand": ["Treetop Village"]}))
    s.do("play Treetop Village")
    assert s.perm("Treetop Village").tapped
    s = _village()
    s.do("tap Treetop Village for G")
    assert s.game.players[0].pool_text() == "G"


def test_treetop_village_becomes_a_3_3_green_ape_with_trample_still_a_land() -> None:
    """Printed text: "{1}{G}: Treetop Village becomes a 3/3 green Ape creature with trample until
    end of turn. It's still a land." 2007 CR 418.5: Creature and Ape are added in layer 4, green
    and trample in layer 5, 3/3 is set in layer 6b."""
    s = _village()
    assert not s.perm("Treetop Village").is_creature
    s.do("activate Treetop Village")
    s.resolve()
    v = s.perm("Treetop Village")
    assert v.types == {"Land", "Creature"} and v.subtypes == ("Ape",)
    assert v.colors == {"G"} and v.has("trample")
    s.assert_pt("Treetop Village", 3, 3)


def test_treetop_village_then_giant_growth_then_minus_one_layers_6b_in_timestamp_order() -> None:
    """2007 CR 418.5 layer 6b (RULES_2007.md section 9): setting effects and resolved
    modifications apply in one timestamp order: becomes 3/3, then +3/+3 = 6/6, then -1/-1 = 5/5;
    a second "becomes 3/3" after them overwrites both (a 2007 difference from 2012)."""
    s = _village(mana_pool="GGGG")
    s.do("activate Treetop Village")
    s.resolve()
    s.do("play Giant Growth", "target Treetop Village")
    s.resolve()
    s.assert_pt("Treetop Village", 6, 6)
    s.do("play Afflict", "target Treetop Village")
    s.resolve()
    s.assert_pt("Treetop Village", 5, 5)
    s.do("activate Treetop Village")
    s.resolve()
    s.assert_pt("Treetop Village", 3, 3)


def test_treetop_village_attacks_and_is_a_land_again_at_end_of_turn() -> None:
    """It can attack when its controller has controlled it since the turn began (2007 CR 212.3d);
    "until end of turn" effects end in the cleanup step (2012 514.2): it is a land again."""
    s = _village()
    s.do("activate Treetop Village")
    s.resolve()
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    assert s.game.decision.kind is DecisionKind.DECLARE_ATTACKERS
    assert s.options() == ["attack with Treetop Village", "done"]
    s.do("attack with Treetop Village")
    if s.game.decision.kind is DecisionKind.DECLARE_ATTACKERS:
        s.do("done")
    s.advance_to("end_of_turn")
    s.advance_to("upkeep", active=1)
    v = s.perm("Treetop Village")
    assert v.types == {"Land"} and not v.is_creature and v.colors == frozenset()
    assert not v.has("trample") and v.subtypes == ()
    assert s.game.players[1].life == 17  # 3 trample damage


def test_treetop_village_summoning_sick_as_a_creature() -> None:
    """2007 CR 212.3d: a creature whose controller hasn't controlled it since the turn began can't
    attack or use {T} abilities, even its mana ability, once it is a creature."""
    s = Scenario(pos("precombat_main", {
        "in_play": ["Forest", "Forest", {"card": "Treetop Village", "summoning_sick": True}]}))
    assert "tap Treetop Village for G" in s.options()  # a land: summoning sickness doesn't matter
    s.do("activate Treetop Village")
    s.resolve()
    assert "tap Treetop Village for G" not in s.options()
    s.advance_to("beginning_of_combat")
    s.pass_priority(2)
    # No creature can attack, so there is no declaration at all (docs/rules.md).
    assert s.game.decision.kind is not DecisionKind.DECLARE_ATTACKERS
    assert not s.perm("Treetop Village").attacking


def test_faerie_conclave_becomes_a_2_1_blue_faerie_with_flying() -> None:
    """Printed text: "{1}{U}: Faerie Conclave becomes a 2/1 blue Faerie creature with flying until
    end of turn. It's still a land." (layers 4, 5, 6b); it comes into play tapped."""
    s = Scenario(pos("precombat_main", {"in_play": ["Island", "Island", "Faerie Conclave"]}))
    s.do("activate Faerie Conclave")
    s.resolve()
    v = s.perm("Faerie Conclave")
    assert v.types == {"Land", "Creature"} and v.subtypes == ("Faerie",) and v.colors == {"U"}
    assert v.has("flying")
    s.assert_pt("Faerie Conclave", 2, 1)
    s2 = Scenario(pos("precombat_main", {"hand": ["Faerie Conclave"]}))
    s2.do("play Faerie Conclave")
    assert s2.perm("Faerie Conclave").tapped


def test_afflict_gives_minus_one_and_draws() -> None:
    """Printed text: "Target creature gets -1/-1 until end of turn. Draw a card."."""
    s = Scenario(pos("precombat_main", {"hand": ["Afflict"], "in_play": ["Swamp"] * 3},
                     {"in_play": ["Grizzly Bears"]}))
    s.do("play Afflict", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 1, 1)
    assert len(s.game.players[0].hand) == 1


# -- Clone: copy effects (layer 1) --------------------------------------------------------------

def _clone(p1_in_play: list, p0_in_play: list | None = None, **p0) -> Scenario:
    s = Scenario(pos("precombat_main", {"hand": ["Clone"],
                                        "in_play": ["Island"] * 4 + (p0_in_play or []), **p0},
                     {"in_play": p1_in_play}))
    s.do("play Clone")
    s.pass_priority(2)
    return s


def test_clone_copies_a_creature_and_asks_without_targeting() -> None:
    """Printed text: "As Clone comes into play, you may choose a creature in play. If you do, Clone
    comes into play as a copy of that creature." The choice is a choose-cards decision of 0 or 1
    creatures; 2007 CR 418.5 layer 1 sets its copiable values (name, types, color, P/T, abilities)."""
    s = _clone(["Grizzly Bears"])
    d = s.game.decision
    assert d.kind is DecisionKind.CHOOSE_CARDS and d.player == 0
    assert [a.text for a in d.options] == ["copy Grizzly Bears", "done"]
    s.do("copy Grizzly Bears")
    c = s.perm("Clone")
    assert c.name == "Grizzly Bears" and c.cdef.name == "Grizzly Bears"
    assert c.types == {"Creature"} and c.subtypes == ("Bear",) and c.colors == {"G"}
    s.assert_pt("Clone", 2, 2)
    assert c.controller == 0 and c.card.name == "Clone"


def test_clone_copies_copiable_values_only() -> None:
    """2007 CR 503 (copiable values): counters, resolved pumps and Auras aren't copied; after the
    copy the original changing (Giant Growth) doesn't change the copy."""
    s = _clone([{"card": "Grizzly Bears", "id": "b", "counters": {"+1/+1": 1}},
                {"card": "Holy Strength", "attached_to": "b"}],
               ["Forest"], hand=["Clone", "Giant Growth"])
    s.do("copy Grizzly Bears")
    s.assert_pt("Clone", 2, 2)
    s.do("play Giant Growth", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Clone", 2, 2)
    assert s.perm("Grizzly Bears").power >= 6


def test_clone_of_a_creature_with_a_comes_into_play_trigger_triggers() -> None:
    """The copy comes into play with the copied card's abilities (2007 CR 418.5 layer 1), so
    Venerable Monk's "When Venerable Monk comes into play, you gain 2 life." triggers for it."""
    s = _clone(["Venerable Monk"])
    s.do("copy Venerable Monk")
    assert s.game.stack and s.game.stack[-1].kind == "triggered"
    s.resolve()
    s.assert_life(0, 22)


def test_clone_of_a_legend_both_go_to_the_graveyard() -> None:
    """2007 CR 420.5e: two legendary permanents with the same name are all put into their
    owners' graveyards, regardless of controller; the copy has the legend's name and supertype."""
    s = _clone(["Kamahl, Pit Fighter"])
    s.do("copy Kamahl, Pit Fighter")
    assert not s.in_play("Clone") and not s.in_play("Kamahl, Pit Fighter")
    s.assert_zone(0, "graveyard", "Clone")
    s.assert_zone(1, "graveyard", "Kamahl, Pit Fighter")


def test_clone_choosing_nothing_is_a_0_0_and_dies() -> None:
    """Printed text "you may choose": choosing nothing leaves Clone a 0/0 Shapeshifter, put into
    the graveyard as a state-based effect (2007 CR 420.5b); so does Clone with no creature in play."""
    s = _clone(["Grizzly Bears"])
    s.do("done")
    assert not s.in_play("Clone")
    s.assert_zone(0, "graveyard", "Clone")
    s = _clone([])
    assert not s.in_play("Clone")
    s.assert_zone(0, "graveyard", "Clone")


def test_clone_choice_is_not_targeting_shroud_does_not_stop_it() -> None:
    """The choice is not a target (no "target" in the text): a creature with shroud can be copied."""
    s = Scenario(pos("precombat_main", {"hand": ["Clone"], "in_play": ["Island"] * 4},
                     {"in_play": ["Grizzly Bears"]}))
    g = s.game
    add_effect(g, KeywordGrant(pid=s.perm("Grizzly Bears").id, add=("shroud",), until="eot"))
    s.do("play Clone")
    s.pass_priority(2)
    s.do("copy Grizzly Bears")
    assert s.perm("Clone").name == "Grizzly Bears"


def test_clone_copies_activated_abilities_and_a_clone_of_a_clone() -> None:
    """Abilities are copiable values (2007 CR 418.5 layer 1): a Clone of Furnace Whelp has
    "{R}: Furnace Whelp gets +1/+0 until end of turn." and pumps itself; a second Clone copying the
    first copies Furnace Whelp (copy effects are part of the copiable values)."""
    s = _clone(["Furnace Whelp"], ["Mountain"] * 5, hand=["Clone", "Clone"])
    s.do("copy Furnace Whelp")
    c = s.perm("Clone")
    assert c.activated is c.cdef.activated and c.has("flying")
    s.do("activate Clone")
    s.resolve()
    s.assert_pt("Clone", 3, 2)
    s.assert_pt("Furnace Whelp", 2, 2)
    s.do("play Clone#2")
    s.pass_priority(2)
    s.do("copy Clone (Furnace Whelp)")
    assert s.perm("Clone#2").name == "Furnace Whelp"
    s.assert_pt("Clone#2", 2, 2)


# -- Arcane Teachings: a granted activated ability (layer 5) ------------------------------------

def _teachings(**p0) -> Scenario:
    s = Scenario(pos("precombat_main", {"hand": ["Arcane Teachings"],
                                        "in_play": ["Mountain"] * 3 + [{"card": "Grizzly Bears",
                                                                        "id": "bears"}], **p0},
                     {"in_play": ["Hill Giant"]}))
    return s


def test_arcane_teachings_pump_and_granted_ability() -> None:
    """Printed text: "Enchanted creature gets +2/+2 and has "{T}: This creature deals 1 damage to
    target creature or player."" The granted ability is one of the creature's abilities
    (2007 CR 418.5 layer 5): offered for it, and on the stack it holds that ability."""
    s = _teachings()
    assert "activate Grizzly Bears" not in s.options()
    s.do("play Arcane Teachings", "target Grizzly Bears")
    s.resolve()
    s.assert_pt("Grizzly Bears", 4, 4)
    bears = s.perm("Grizzly Bears")
    assert len(bears.activated) == 1 and bears.cdef.activated == ()
    s.do("activate Grizzly Bears", "target player 1")
    item = s.game.stack[-1]
    assert item.ability_def is bears.activated[0] and item.source == bears.id
    s.resolve()
    s.assert_life(1, 19)
    assert bears.tapped


def test_arcane_teachings_granted_tap_ability_respects_summoning_sickness() -> None:
    """2007 CR 212.3d: a {T} ability of a creature its controller hasn't controlled since the
    turn began can't be played, granted or not."""
    s = Scenario(pos("precombat_main", {
        "hand": ["Arcane Teachings"],
        "in_play": ["Mountain"] * 3 + [{"card": "Grizzly Bears", "summoning_sick": True}]}))
    s.do("play Arcane Teachings", "target Grizzly Bears")
    s.resolve()
    assert len(s.perm("Grizzly Bears").activated) == 1
    assert "activate Grizzly Bears" not in s.options()


def test_granted_ability_on_the_stack_resolves_after_the_aura_leaves() -> None:
    """2007 CR 410/412: an ability on the stack exists independently of its source; the creature's
    granted ability still resolves after Arcane Teachings leaves play in response (Boomerang)."""
    s = Scenario(pos("precombat_main", {
        "in_play": [{"card": "Grizzly Bears", "id": "bears"},
                    {"card": "Arcane Teachings", "attached_to": "bears"}]},
        {"hand": ["Boomerang"], "in_play": ["Island", "Island"]}))
    s.do("activate Grizzly Bears", "target player 1")
    s.pass_priority(1)
    s.do("play Boomerang", "target Arcane Teachings")
    s.resolve()
    assert not s.in_play("Arcane Teachings")
    assert s.perm("Grizzly Bears").activated == ()
    s.resolve()
    s.assert_life(1, 19)


# -- Adarkar Wastes: every mana ability a permanent has -----------------------------------------

def test_adarkar_wastes_three_mana_options_and_pain() -> None:
    """Printed text: "{T}: Add {1} to your mana pool. {T}: Add {W} or {U} to your mana pool.
    Adarkar Wastes deals 1 damage to you."."""
    s = Scenario(pos("precombat_main", {"in_play": ["Adarkar Wastes"]}))
    assert s.options() == ["pass", "tap Adarkar Wastes for C", "tap Adarkar Wastes for W",
                           "tap Adarkar Wastes for U"]
    s.do("tap Adarkar Wastes for C")
    s.assert_life(0, 20)
    s = Scenario(pos("precombat_main", {"in_play": ["Adarkar Wastes"]}))
    s.do("tap Adarkar Wastes for U")
    s.assert_life(0, 19)
    assert s.game.players[0].pool_text() == "U"


def test_automatic_payer_uses_the_painless_ability_for_generic_mana() -> None:
    """The automatic payer sees every mana ability (2007 CR 406): Adarkar Wastes pays generic
    mana with its {1} ability, never dealing damage when a painless ability does the job."""
    s = Scenario(pos("precombat_main", {"hand": ["Grizzly Bears"],
                                        "in_play": ["Forest", "Adarkar Wastes"]}))
    s.do("play Grizzly Bears")
    s.assert_life(0, 20)
    assert s.perm("Adarkar Wastes").tapped


def test_automatic_payer_uses_the_colored_ability_when_the_color_is_needed() -> None:
    """Paying {1}{W} with Adarkar Wastes and a Forest needs the Wastes' colored ability (and its 1
    damage); with a Plains instead, the Plains pays {W} and Adarkar Wastes the generic mana,
    painlessly."""
    s = Scenario(pos("precombat_main", {"hand": ["Youthful Knight"],
                                        "in_play": ["Adarkar Wastes", "Forest"]}))
    assert "play Youthful Knight" in s.options()
    s.do("play Youthful Knight")
    s.assert_life(0, 19)
    s = Scenario(pos("precombat_main", {"hand": ["Youthful Knight"],
                                        "in_play": ["Adarkar Wastes", "Plains"]}))
    s.do("play Youthful Knight")
    s.assert_life(0, 20)


# -- JSON and copy() --------------------------------------------------------------------------

def test_json_round_trip_and_copy_with_a_clone_in_play_and_a_granted_ability_on_the_stack() -> None:
    """The game state round-trips exactly: a Clone's copy effect (by card name) and a stack object
    holding a granted ability (stored as a reference to the Aura's static ability) resolve to the
    same shared objects; ``copy()`` shares the immutable ability objects."""
    s = _clone(["Grizzly Bears"], [{"card": "Hill Giant", "id": "giant"},
                                    {"card": "Arcane Teachings", "attached_to": "giant"}])
    s.do("copy Grizzly Bears")
    s.do("activate Hill Giant", "target Grizzly Bears")
    g = s.game
    item = g.stack[-1]
    text = g.to_json()
    g2 = Game.from_json(text)
    assert g2.to_json() == text
    assert g2.stack[-1].ability_def is item.ability_def
    assert g2.find_permanent("Clone").name == "Grizzly Bears"
    g3 = g.copy()
    assert g3.stack[-1].ability_def is item.ability_def and g3.stack[-1] is not item
    for game in (g2, g3):
        game.apply("pass")
        game.apply("pass")
        assert game.find_permanent("Grizzly Bears").damage == 1
        assert game.find_permanent("Clone").damage == 0
    assert g.find_permanent("Grizzly Bears").damage == 0


def test_observer_maps_granted_and_painland_abilities_to_action_slots() -> None:
    """The observer reads a permanent's abilities as it has them now: the granted ability and every
    mana ability of Adarkar Wastes get their own action index (layout unchanged)."""
    from mtg_env.encoding.observer import Observer

    s = Scenario(pos("precombat_main", {"in_play": [
        "Adarkar Wastes", {"card": "Grizzly Bears", "id": "b"},
        {"card": "Arcane Teachings", "attached_to": "b"}]}))
    obs = Observer()
    legal = obs.legal(s.game)
    assert sorted(a.text for a in legal.values()) == sorted(s.options())
    assert len(set(legal)) == len(s.options())
    _, mask = obs.observe(s.game, 0)
    assert int(mask.sum()) == len(s.options())
