"""Cards of animation and type-changing (2007 CR 418.5 layers 4, 5, 6a, 6b),
granted activated and mana abilities (layer 5) and a triggered mana ability (2007 CR 406.1b):
Forbidding Watchtower, Ghitu Encampment, Spawning Pool, Chimeric Staff, March of the Machines,
Joiner Adept, Overgrowth. Each test quotes the printed text it checks and cites the rule."""

from __future__ import annotations

from functools import partial

from mtg_env import Game
from mtg_env.engine.layers import fresh
from mtg_env.engine.zones import leave_play
from mtg_env.testing import Scenario, attack, block, position

LIB = ["Wall of Wood"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


# -- Forbidding Watchtower / Ghitu Encampment ----------------------------------------------------

def test_forbidding_watchtower_comes_into_play_tapped_and_taps_for_white() -> None:
    """Printed text: "Forbidding Watchtower comes into play tapped. {T}: Add {W} to your mana
    pool." (2007 CR 406: a mana ability)."""
    s = Scenario(pos("precombat_main", {"hand": ["Forbidding Watchtower"]}))
    s.do("play Forbidding Watchtower")
    assert s.perm("Forbidding Watchtower").tapped
    s = Scenario(pos("precombat_main", {"in_play": ["Forbidding Watchtower"]}))
    s.do("tap Forbidding Watchtower for W")
    assert s.game.players[0].pool_text() == "W"


def test_forbidding_watchtower_becomes_a_1_5_white_soldier_still_a_land() -> None:
    """Printed text: "{1}{W}: Forbidding Watchtower becomes a 1/5 white Soldier creature until end
    of turn. It's still a land." 2007 CR 418.5: layer 4 adds Creature and Soldier, layer 5 sets
    white, layer 6b sets 1/5; the effect ends in the cleanup step (2012 514.2)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Plains", "Plains", "Forbidding Watchtower"]}))
    assert not s.perm("Forbidding Watchtower").is_creature
    s.do("activate Forbidding Watchtower")
    s.resolve()
    w = s.perm("Forbidding Watchtower")
    assert w.types == {"Land", "Creature"} and w.subtypes == ("Soldier",)
    assert w.colors == {"W"}
    s.assert_pt("Forbidding Watchtower", 1, 5)
    s.advance_to("upkeep", active=1)
    w = s.perm("Forbidding Watchtower")
    assert w.types == {"Land"} and w.colors == frozenset() and w.subtypes == ()


def test_ghitu_encampment_comes_into_play_tapped_and_taps_for_red() -> None:
    """Printed text: "Ghitu Encampment comes into play tapped. {T}: Add {R} to your mana pool."."""
    s = Scenario(pos("precombat_main", {"hand": ["Ghitu Encampment"]}))
    s.do("play Ghitu Encampment")
    assert s.perm("Ghitu Encampment").tapped
    s = Scenario(pos("precombat_main", {"in_play": ["Ghitu Encampment"]}))
    s.do("tap Ghitu Encampment for R")
    assert s.game.players[0].pool_text() == "R"


def test_ghitu_encampment_becomes_a_2_1_red_warrior_with_first_strike() -> None:
    """Printed text: "{1}{R}: Ghitu Encampment becomes a 2/1 red Warrior creature with first strike
    until end of turn. It's still a land." 2007 CR 418.5 layers 4, 5 and 6b; first strike: it
    deals its combat damage first (2007 CR 502.2) and kills a 2/2 blocker before it strikes back."""
    s = Scenario(pos("precombat_main", {"in_play": ["Mountain", "Mountain", "Ghitu Encampment"]},
                     {"in_play": ["Grizzly Bears"]}))
    s.do("activate Ghitu Encampment")
    s.resolve()
    g = s.perm("Ghitu Encampment")
    assert g.types == {"Land", "Creature"} and g.subtypes == ("Warrior",)
    assert g.colors == {"R"} and g.has("first_strike")
    s.assert_pt("Ghitu Encampment", 2, 1)
    s.advance_to("beginning_of_combat")
    attack(s, "Ghitu Encampment")
    block(s, ("Ghitu Encampment", "Grizzly Bears"))
    s.advance_to("end_of_combat")
    s.assert_zone(1, "graveyard", "Grizzly Bears")
    s.assert_in_play("Ghitu Encampment")


# -- Spawning Pool: an animation granting an activated ability ----------------------------------

def _pool(**p0) -> Scenario:
    return Scenario(pos("precombat_main", {
        "in_play": ["Swamp", "Swamp", "Swamp", "Mountain", "Spawning Pool"], **p0}))


def test_spawning_pool_comes_into_play_tapped_and_taps_for_black() -> None:
    """Printed text: "Spawning Pool comes into play tapped. {T}: Add {B} to your mana pool."."""
    s = Scenario(pos("precombat_main", {"hand": ["Spawning Pool"]}))
    s.do("play Spawning Pool")
    assert s.perm("Spawning Pool").tapped
    s = _pool()
    s.do("tap Spawning Pool for B")
    assert s.game.players[0].pool_text() == "B"


def test_spawning_pool_becomes_a_1_1_black_skeleton_with_regenerate() -> None:
    """Printed text: "{1}{B}: Spawning Pool becomes a 1/1 black Skeleton creature with "{B}:
    Regenerate this creature" until end of turn. It's still a land." 2007 CR 418.5: Creature and
    Skeleton in layer 4; black and the quoted activated ability in layer 5 (abilities are
    characteristics); 1/1 in layer 6b. Before it is animated it has no regeneration ability."""
    s = _pool()
    assert len(s.perm("Spawning Pool").activated) == 2
    s.do("activate Spawning Pool")
    s.resolve()
    sp = s.perm("Spawning Pool")
    assert sp.types == {"Land", "Creature"} and sp.subtypes == ("Skeleton",)
    assert sp.colors == {"B"}
    s.assert_pt("Spawning Pool", 1, 1)
    assert [a.text for a in sp.activated][-1] == "{B}: Regenerate this creature."
    s.advance_to("upkeep", active=1)
    sp = s.perm("Spawning Pool")
    assert sp.types == {"Land"} and len(sp.activated) == 2  # the granted ability ended too


def test_spawning_pool_regenerates_from_lethal_damage() -> None:
    """Printed text: "{B}: Regenerate this creature" (2007 CR 419.6b: the next time it would be
    destroyed this turn, instead tap it, remove all damage from it and remove it from combat).
    A 1/1 dealt 2 damage by Shock survives as a tapped land creature."""
    s = _pool(hand=["Shock"])
    s.do("activate Spawning Pool")
    s.resolve()
    s.do("activate Spawning Pool ability 3")
    s.resolve()
    s.do("play Shock", "target Spawning Pool")
    s.resolve()
    s.assert_in_play("Spawning Pool")
    sp = s.perm("Spawning Pool")
    assert sp.tapped and sp.damage == 0


def test_spawning_pool_without_regeneration_dies_to_shock() -> None:
    """The same 1/1 without a regeneration shield is destroyed by lethal damage (2007 CR 420.5c):
    the check that the regeneration test can fail."""
    s = _pool(hand=["Shock"])
    s.do("activate Spawning Pool")
    s.resolve()
    s.do("play Shock", "target Spawning Pool")
    s.resolve()
    s.assert_zone(0, "graveyard", "Spawning Pool")


def test_spawning_pool_state_round_trips_through_json() -> None:
    """The granted ability is stored by reference, so the game state stays JSON-serialisable and
    a reloaded game still has the ability (engine state rule of the project)."""
    s = _pool()
    s.do("activate Spawning Pool")
    s.resolve()
    g2 = Game.from_json(s.game.to_json())
    fresh(g2)
    p = next(p for p in g2.perms.values() if p.name == "Spawning Pool")
    assert p.activated[-1].text == "{B}: Regenerate this creature."


# -- Chimeric Staff: an animation with a variable P/T --------------------------------------------

def _staff() -> Scenario:
    return Scenario(pos("precombat_main", {
        "in_play": ["Island", "Island", "Island", "Chimeric Staff"]}))


def test_chimeric_staff_becomes_an_x_x_construct_artifact_creature() -> None:
    """Printed text: "{X}: Chimeric Staff becomes an X/X Construct artifact creature until end of
    turn." X is fixed as the ability is played (2007 CR 409.1b) and its P/T set in layer 6b; the
    types in layer 4 (2007 CR 418.5); it is still an artifact. It ends at cleanup (2012 514.2)."""
    s = _staff()
    assert not s.perm("Chimeric Staff").is_creature
    s.do("activate Chimeric Staff", "X=3")
    s.resolve()
    c = s.perm("Chimeric Staff")
    assert c.types == {"Artifact", "Creature"} and c.subtypes == ("Construct",)
    s.assert_pt("Chimeric Staff", 3, 3)
    s.advance_to("upkeep", active=1)
    assert not s.perm("Chimeric Staff").is_creature


def test_chimeric_staff_x_zero_is_a_0_0_and_is_put_into_the_graveyard() -> None:
    """With X=0 it becomes a 0/0 creature: a state-based effect puts it into its owner's graveyard
    (2007 CR 420.5c)."""
    s = _staff()
    s.do("activate Chimeric Staff", "X=0")
    s.resolve()
    s.assert_zone(0, "graveyard", "Chimeric Staff")


def test_chimeric_staff_later_activation_overwrites_the_earlier_p_t() -> None:
    """Two activations: the later setting effect wins in layer 6b (timestamp order, 2007 CR
    418.5): X=1 then X=2 makes a 2/2."""
    s = _staff()
    s.do("activate Chimeric Staff", "X=1")
    s.resolve()
    s.do("activate Chimeric Staff", "X=2")
    s.resolve()
    s.assert_pt("Chimeric Staff", 2, 2)


# -- Joiner Adept: a granted mana ability, seen by the automatic payer ---------------------------

def _adept(**p0) -> Scenario:
    return Scenario(pos("precombat_main", {"in_play": ["Swamp", "Swamp", "Joiner Adept"], **p0},
                        {"in_play": ["Forest"]}))


def test_joiner_adept_lands_you_control_tap_for_any_color() -> None:
    """Printed text: "Lands you control have "{T}: Add one mana of any color to your mana pool.""
    (2007 CR 418.5 layer 5: a granted ability). A Swamp taps for G; each color is offered once."""
    s = _adept()
    opts = s.options()
    assert [o for o in opts if o.startswith("tap Swamp for")] == [
        "tap Swamp for B", "tap Swamp for W", "tap Swamp for U", "tap Swamp for R",
        "tap Swamp for G"]
    s.do("tap Swamp for G")
    assert s.game.players[0].pool_text() == "G"


def test_joiner_adept_does_not_grant_to_opponents_lands() -> None:
    """"Lands you control": the opponent's Forest keeps only its own {G} ability."""
    s = _adept()
    assert len(s.perm("Forest").activated) == 1
    assert len(s.perm("Swamp").activated) == 2


def test_joiner_adept_automatic_payer_uses_granted_mana_abilities() -> None:
    """The automatic payer (2007 CR 409.1g) sees granted mana abilities: Grizzly Bears ({1}{G})
    is castable with two Swamps, and is cast with them."""
    s = _adept(hand=["Grizzly Bears"])
    assert "play Grizzly Bears" in s.options()
    s.do("play Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears")
    assert s.perm("Swamp").tapped and s.perm("Swamp#2").tapped
    s = Scenario(pos("precombat_main", {"in_play": ["Swamp", "Swamp"], "hand": ["Grizzly Bears"]}))
    assert "play Grizzly Bears" not in s.options()  # without Joiner Adept it can't be paid


def test_joiner_adept_painland_colored_mana_without_damage() -> None:
    """Adarkar Wastes: "{T}: Add {W} or {U} to your mana pool. Adarkar Wastes deals 1 damage to
    you." With Joiner Adept the same W comes from the granted ability, which deals no damage."""
    s = _adept(in_play=["Adarkar Wastes", "Joiner Adept"])
    s.do("tap Adarkar Wastes for W")
    assert s.game.players[0].pool_text() == "W"
    s.assert_life(0, 20)


def test_joiner_adept_ability_ends_when_it_leaves_play() -> None:
    """A static ability's effect lasts while its source is in play (2007 CR 418.3a): after
    Joiner Adept is destroyed the Swamp only taps for B."""
    s = _adept(hand=["Shock"], in_play=["Swamp", "Mountain", "Joiner Adept"])
    s.do("tap Mountain for R", "play Shock", "target Joiner Adept")
    s.resolve()
    s.assert_zone(0, "graveyard", "Joiner Adept")
    assert [o for o in s.options() if o.startswith("tap Swamp for")] == ["tap Swamp for B"]


# -- March of the Machines: a global type change with P/T = converted mana cost -----------------

def _march(in_play: list, hand: list | None = None, **p0) -> Scenario:
    return Scenario(pos("precombat_main", {
        "in_play": ["Island", "Island", "Island", "Island", *in_play],
        "hand": hand if hand is not None else ["March of the Machines"], **p0}))


def test_march_of_the_machines_noncreature_artifacts_become_creatures_with_p_t_cmc() -> None:
    """Printed text: "Each noncreature artifact is an artifact creature with power and toughness
    each equal to its converted mana cost." 2007 CR 418.5: Creature is added in layer 4, P/T set
    in layer 6b. Icy Manipulator (4) is a 4/4, Millstone (2) a 2/2; a creature (Ornithopter,
    0/2) and a nonartifact creature are unaffected; it affects both players' artifacts."""
    s = Scenario(pos("precombat_main", {
        "in_play": ["Island", "Island", "Island", "Island", "Icy Manipulator", "Ornithopter",
                    "Grizzly Bears"], "hand": ["March of the Machines"]},
        {"in_play": ["Millstone"]}))
    assert not s.perm("Icy Manipulator").is_creature
    s.do("play March of the Machines")
    s.resolve()
    icy = s.perm("Icy Manipulator")
    assert icy.types == {"Artifact", "Creature"}
    s.assert_pt("Icy Manipulator", 4, 4)
    s.assert_pt("Millstone", 2, 2)
    assert s.perm("Millstone").is_creature
    s.assert_pt("Ornithopter", 0, 2)
    s.assert_pt("Grizzly Bears", 2, 2)
    assert not s.perm("March of the Machines").is_creature  # an enchantment, not an artifact


def test_march_of_the_machines_zero_cost_artifact_is_put_into_the_graveyard() -> None:
    """A noncreature artifact with converted mana cost 0 (Spellbook) becomes a 0/0 creature and
    is put into its owner's graveyard as a state-based effect (2007 CR 420.5b)."""
    s = _march(["Spellbook", "Leonin Scimitar"])
    s.do("play March of the Machines")
    s.resolve()
    s.assert_zone(0, "graveyard", "Spellbook")
    s.assert_pt("Leonin Scimitar", 1, 1)


def test_march_of_the_machines_equipment_that_is_a_creature_becomes_unattached() -> None:
    """Reminder text: "(Equipment that's a creature can't equip a creature.)" 2012 301.5c; 2007
    CR 420.5k: Equipment attached illegally becomes unattached (it stays in play as a 1/1)."""
    s = _march([{"card": "Grizzly Bears", "id": "bears"},
                {"card": "Leonin Scimitar", "attached_to": "bears"}])
    s.assert_pt("Grizzly Bears", 3, 3)
    s.do("play March of the Machines")
    s.resolve()
    assert s.perm("Leonin Scimitar").attached_to is None
    s.assert_pt("Grizzly Bears", 2, 2)
    s.assert_pt("Leonin Scimitar", 1, 1)


def test_march_of_the_machines_animated_staff_keeps_its_x_x() -> None:
    """Dependency (2007 glossary "depend on"): Chimeric Staff animated before March of the
    Machines is no longer a noncreature artifact, so March doesn't apply to it: it stays 2/2,
    not 4/4. Animated after March, its "becomes X/X" is later in layer 6b: 1/1."""
    s = _march(["Island", "Island", "Chimeric Staff"])
    s.do("activate Chimeric Staff", "X=2")
    s.resolve()
    s.do("play March of the Machines")
    s.resolve()
    s.assert_pt("Chimeric Staff", 2, 2)
    s = _march(["Chimeric Staff", "Island"])
    s.do("play March of the Machines")
    s.resolve()
    s.assert_pt("Chimeric Staff", 4, 4)
    s.do("activate Chimeric Staff", "X=1")
    s.resolve()
    s.assert_pt("Chimeric Staff", 1, 1)


def test_march_of_the_machines_effect_ends_when_it_leaves_play() -> None:
    """A static ability's effect lasts only while its source is in play (2007 CR 418.3a):
    after March of the Machines leaves play Icy Manipulator is a noncreature artifact again."""
    s = _march(["Icy Manipulator", "March of the Machines"], hand=[])
    assert s.perm("Icy Manipulator").is_creature
    leave_play(s.game, s.perm("March of the Machines"), "graveyard")
    fresh(s.game)
    assert not s.perm("Icy Manipulator").is_creature


def test_march_of_the_machines_animated_artifact_can_attack() -> None:
    """An artifact controlled since the turn began can attack once it is a creature (2007 CR
    212.3d: summoning sickness looks at control, not at being a creature): Icy Manipulator
    deals 4."""
    s = _march(["Icy Manipulator", "March of the Machines"], hand=[])
    s.advance_to("beginning_of_combat")
    attack(s, "Icy Manipulator")
    s.advance_to("end_of_combat")
    s.assert_life(1, 16)


# -- Overgrowth: a triggered mana ability, counted by the automatic payer ------------------------

def _overgrowth(hand: list, **p0) -> Scenario:
    return Scenario(pos("precombat_main", {
        "in_play": [{"card": "Swamp", "id": "sw"}, {"card": "Overgrowth", "attached_to": "sw"},
                    "Forest"], "hand": hand, **p0}, {"in_play": ["Forest"]}))


def test_overgrowth_tapping_the_enchanted_land_adds_gg_without_the_stack() -> None:
    """Printed text: "Whenever enchanted land is tapped for mana, its controller adds {G}{G} to his
    or her mana pool." A triggered mana ability (2007 glossary "Mana ability"; 2012 605.1b):
    it resolves at once, without the stack (2007 CR 411)."""
    s = _overgrowth([])
    s.do("tap Swamp for B")
    assert s.game.players[0].pool_text() == "BGG"
    assert not s.game.stack and not s.game.pending


def test_overgrowth_only_the_enchanted_land() -> None:
    """"Enchanted land": tapping another land (the Forest) adds only its own mana."""
    s = _overgrowth([])
    s.do("tap Forest for G")
    assert s.game.players[0].pool_text() == "G"


def test_overgrowth_automatic_payer_counts_the_triggered_mana() -> None:
    """The automatic payer (2007 CR 409.1g) counts the {G}{G}: with a Swamp enchanted by
    Overgrowth and a Forest, Giant Spider ({3}{G}) can be paid: B + GG + G."""
    s = _overgrowth(["Giant Spider"])
    assert "play Giant Spider" in s.options()
    s.do("play Giant Spider")
    s.resolve()
    s.assert_in_play("Giant Spider")
    assert sum(s.game.players[0].mana_pool) == 0
    s = Scenario(pos("precombat_main", {"in_play": ["Swamp", "Forest"],
                                        "hand": ["Giant Spider"]}))
    assert "play Giant Spider" not in s.options()  # without Overgrowth: 2 mana only


def test_overgrowth_extra_mana_floats_when_not_needed() -> None:
    """Tapping the enchanted land always adds all its mana: paying {1}{G} for Grizzly Bears by
    tapping the Swamp leaves one G floating in the pool (2007 CR 406: mana stays until the
    phase ends)."""
    s = _overgrowth(["Grizzly Bears"])
    s.do("play Grizzly Bears")
    s.resolve()
    s.assert_in_play("Grizzly Bears")
    P = s.game.players[0]
    assert s.perm("Swamp").tapped
    assert sum(P.mana_pool) + sum(1 for p in s.game.perms.values()
                                  if p.name == "Forest" and p.controller == 0 and p.tapped) == 1


def test_overgrowth_on_an_opponents_land_gives_its_controller_the_mana() -> None:
    """"its controller adds {G}{G}": Overgrowth enchanting the opponent's land gives the mana
    to the land's controller, not to Overgrowth's."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Overgrowth", "attached_to": "f"}]},
                     {"in_play": [{"card": "Forest", "id": "f"}]}))
    s.pass_priority(1)  # the opponent taps it during his or her priority
    s.do("tap Forest for G")
    assert s.game.players[1].pool_text() == "GGG"
    assert sum(s.game.players[0].mana_pool) == 0
