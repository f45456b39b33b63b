"""Scenario tests of every card of the engine core (CORE_CARDS: basic lands, vanilla and keyword
creatures, the first spells, an Aura and an Equipment; their entries are in several
mtg_env/cards/data files, `python -m mtg_env.cards where NAME` says which): each card's printed
text, its keyword abilities and every restriction it states. Rule numbers: 2007 CR where known,
else 2012 CR."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from mtg_env import DecisionKind
from mtg_env.engine.registry import get_card
from mtg_env.testing import Scenario, attack, block, block_options, position

LIB: list[str] = []  # empty libraries keep labels simple; no test reaches a draw
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given
CORE_CARDS = (  # the cards this file tests, each at least once
    "Plains", "Island", "Swamp", "Mountain", "Forest", "Grizzly Bears", "Hill Giant", "Craw Wurm",
    "Goblin Piker", "Serra Angel", "Giant Spider", "Raging Goblin", "Wall of Wood",
    "Youthful Knight", "Skyhunter Skirmisher", "Rushwood Dryad", "Bog Wraith", "Severed Legion",
    "Stampeding Wildebeests", "Mogg Fanatic", "Prodigal Pyromancer", "Drudge Skeletons",
    "Giant Growth", "Shock", "Incinerate", "Lava Axe", "Unsummon", "Cancel", "Holy Strength",
    "Loxodon Warhammer", "Upwelling",
)


def finish_combat(s: Scenario) -> None:
    """Pass until the end of combat step (answering no more choices)."""
    s.advance_to("end_of_combat")


def test_every_core_card_has_a_test_here() -> None:
    """Each core card gets at least one scenario test of its text."""
    names = CORE_CARDS
    source = Path(__file__).read_text()
    missing = [n for n in names if f'"{n}"' not in source.split("def test_every_core_card", 1)[1]]
    assert not missing


# -- basic lands ------------------------------------------------------------------------------
@pytest.mark.parametrize(("land", "sym", "slot"), [("Plains", "W", 0), ("Island", "U", 1),
                                                   ("Swamp", "B", 2), ("Mountain", "R", 3),
                                                   ("Forest", "G", 4)])
def test_basic_land(land: str, sym: str, slot: int) -> None:
    """2007 CR 212.6d: a basic land has "{T}: Add [its color] to your mana pool"; it is played
    as a land (no cost, no stack) and taps only once."""
    s = Scenario(pos("precombat_main", {"hand": [land]}))
    s.do(f"play {land}")
    assert not s.game.stack
    s.do(f"tap {land} for {sym}")
    pool = [0] * 6
    pool[slot] = 1
    assert s.game.players[0].mana_pool == pool
    assert f"tap {land} for {sym}" not in s.options()
    assert "Basic" in get_card(land).supertypes and get_card(land).subtypes == (land,)


# -- vanilla creatures ----------------------------------------------------------------------
@pytest.mark.parametrize(("name", "lands_ok", "lands_short", "pt"), [
    ("Grizzly Bears", ["Forest", "Mountain"], ["Forest"], (2, 2)),
    ("Hill Giant", ["Mountain", "Forest", "Forest", "Forest"], ["Forest"] * 4, (3, 3)),
    ("Craw Wurm", ["Forest", "Forest", "Mountain", "Mountain", "Mountain", "Mountain"],
     ["Forest", "Mountain", "Mountain", "Mountain", "Mountain", "Mountain"], (6, 4)),
    ("Goblin Piker", ["Mountain", "Forest"], ["Forest", "Forest"], (2, 1)),
])
def test_vanilla_creature_cost_and_body(name: str, lands_ok: list, lands_short: list, pt: tuple) -> None:
    """Vanilla creatures: playable for exactly their mana cost (colored symbols need that color)
    at sorcery speed; they come into play with their printed power/toughness and summoning
    sick (2007 CR 212.3d)."""
    s = Scenario(pos("precombat_main", {"hand": [name], "in_play": lands_short}))
    assert f"play {name}" not in s.options()
    s = Scenario(pos("precombat_main", {"hand": [name], "in_play": lands_ok}))
    s.do(f"play {name}")
    assert all(p.tapped for p in s.game.permanents)
    s.resolve()
    s.assert_pt(name, *pt)
    assert s.perm(name).summoning_sick


def test_goblin_piker_can_block() -> None:
    """Goblin Piker (Tenth Edition: no rules text) attacks and blocks normally."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Grizzly Bears"]}, {"in_play": ["Goblin Piker"]}))
    attack(s, "Grizzly Bears")
    assert block_options(s) == ["block Grizzly Bears with Goblin Piker", "done"]


# -- keyword creatures -----------------------------------------------------------------------
def test_serra_angel_flying_and_vigilance() -> None:
    """Serra Angel: flying (can't be blocked except by flying/reach creatures) and vigilance
    (attacking doesn't tap it); it can block a flyer."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Serra Angel"]},
                     {"in_play": ["Craw Wurm", "Giant Spider"]}))
    attack(s, "Serra Angel")
    assert not s.perm("Serra Angel").tapped
    assert block_options(s) == ["block Serra Angel with Giant Spider", "done"]
    s.do("done")
    finish_combat(s)
    s.assert_life(1, 16)
    s2 = Scenario(pos("beginning_of_combat", {"in_play": ["Skyhunter Skirmisher"]},
                      {"in_play": ["Serra Angel"]}))
    attack(s2, "Skyhunter Skirmisher")
    assert block_options(s2) == ["block Skyhunter Skirmisher with Serra Angel", "done"]


def test_giant_spider_reach() -> None:
    """Giant Spider: reach (can block creatures with flying) but no flying: creatures without
    flying can block it."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Serra Angel"]}, {"in_play": ["Giant Spider"]}))
    attack(s, "Serra Angel")
    s.pass_priority(2)
    s.do("block Serra Angel with Giant Spider")
    finish_combat(s)
    s.assert_damage("Serra Angel", 2)
    s.assert_zone(1, "graveyard", "Giant Spider")  # 4 damage to a 2/4
    s2 = Scenario(pos("beginning_of_combat", {"in_play": ["Giant Spider"]}, {"in_play": ["Grizzly Bears"]}))
    attack(s2, "Giant Spider")
    assert block_options(s2) == ["block Giant Spider with Grizzly Bears", "done"]


def test_raging_goblin_haste() -> None:
    """Raging Goblin: haste — it can attack the turn it comes under its controller's control."""
    s = Scenario(pos("precombat_main", {"hand": ["Raging Goblin"], "in_play": ["Mountain"]}))
    s.do("play Raging Goblin")
    s.resolve()
    assert s.perm("Raging Goblin").summoning_sick
    s.pass_priority(2)
    attack(s, "Raging Goblin")
    finish_combat(s)
    s.assert_life(1, 19)


def test_wall_of_wood_defender() -> None:
    """Wall of Wood: defender — it can't attack, but it can block."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Wall of Wood", "Grizzly Bears"]},
                     {"in_play": ["Wall of Wood"]}))
    s.pass_priority(2)
    assert s.options() == ["attack with Grizzly Bears", "done"]
    s.do("attack with Grizzly Bears")
    s.pass_priority(2)
    s.do("block Grizzly Bears with Wall of Wood#2")
    finish_combat(s)
    s.assert_damage("Wall of Wood#2", 2)
    s.assert_life(1, 20)


def test_youthful_knight_first_strike() -> None:
    """Youthful Knight: first strike — it deals combat damage before creatures without first
    strike, so it kills a blocking Goblin Piker and takes no damage."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Youthful Knight"]}, {"in_play": ["Goblin Piker"]}))
    attack(s, "Youthful Knight")
    block(s, ("Youthful Knight", "Goblin Piker"))
    finish_combat(s)
    s.assert_in_play("Youthful Knight")
    s.assert_zone(1, "graveyard", "Goblin Piker")


def test_skyhunter_skirmisher_flying_double_strike() -> None:
    """Skyhunter Skirmisher: flying and double strike — a ground creature can't block it, and
    unblocked it deals first-strike and regular combat damage (1 + 1)."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Skyhunter Skirmisher"]}, {"in_play": ["Hill Giant"]}))
    attack(s, "Skyhunter Skirmisher")
    assert block_options(s) == []
    finish_combat(s)
    s.assert_life(1, 18)


def test_skyhunter_skirmisher_double_strike_against_a_blocker() -> None:
    """Skyhunter Skirmisher's double strike against a blocker: Giant Spider (2/4, reach) with 2
    damage takes 1 first-strike damage and survives; in the regular step the Skirmisher deals 1
    more (lethal) while the Spider's 2 kill the 1/1."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Skyhunter Skirmisher"]},
                     {"in_play": [{"card": "Giant Spider", "damage": 2}]}))
    attack(s, "Skyhunter Skirmisher")
    block(s, ("Skyhunter Skirmisher", "Giant Spider"))
    s.pass_priority(2)
    s.pass_priority(2)  # first-strike damage resolves: 3 damage on the Spider
    s.assert_damage("Giant Spider", 3)
    s.pass_priority(2)
    s.pass_priority(2)  # regular damage: Skirmisher 1 more (lethal), Spider 2 (lethal)
    s.assert_zone(1, "graveyard", "Giant Spider")
    s.assert_zone(0, "graveyard", "Skyhunter Skirmisher")


def test_rushwood_dryad_forestwalk() -> None:
    """Rushwood Dryad: forestwalk — unblockable as long as the defending player controls a
    Forest."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Rushwood Dryad"]},
                     {"in_play": ["Grizzly Bears", "Forest"]}))
    attack(s, "Rushwood Dryad")
    assert block_options(s) == []
    finish_combat(s)
    s.assert_life(1, 18)
    s2 = Scenario(pos("beginning_of_combat", {"in_play": ["Rushwood Dryad"]},
                      {"in_play": ["Grizzly Bears", "Swamp"]}))
    attack(s2, "Rushwood Dryad")
    assert block_options(s2) == ["block Rushwood Dryad with Grizzly Bears", "done"]


def test_bog_wraith_swampwalk() -> None:
    """Bog Wraith: swampwalk — unblockable as long as the defending player controls a Swamp."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Bog Wraith"]},
                     {"in_play": ["Hill Giant", "Swamp"]}))
    attack(s, "Bog Wraith")
    assert block_options(s) == []
    finish_combat(s)
    s.assert_life(1, 17)
    s2 = Scenario(pos("beginning_of_combat", {"in_play": ["Bog Wraith"]},
                      {"in_play": ["Hill Giant", "Forest"]}))
    attack(s2, "Bog Wraith")
    assert block_options(s2) == ["block Bog Wraith with Hill Giant", "done"]


def test_severed_legion_fear() -> None:
    """Severed Legion: fear — it can't be blocked except by artifact creatures and/or black
    creatures."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Severed Legion"]},
                     {"in_play": ["Grizzly Bears", "Serra Angel", "Bog Wraith"]}))
    attack(s, "Severed Legion")
    assert block_options(s) == ["block Severed Legion with Bog Wraith", "done"]


def test_stampeding_wildebeests_trample() -> None:
    """Stampeding Wildebeests: trample — lethal damage to its blocker, the rest to the player."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Stampeding Wildebeests"]},
                     {"in_play": ["Wall of Wood"]}))
    attack(s, "Stampeding Wildebeests")
    block(s, ("Stampeding Wildebeests", "Wall of Wood"))
    s.pass_priority(2)
    assert s.options() == [f"assign {n} damage to Wall of Wood" for n in range(3, 6)]
    s.do("assign 3 damage to Wall of Wood")
    finish_combat(s)
    s.assert_life(1, 18)
    s.assert_zone(1, "graveyard", "Wall of Wood")


def test_stampeding_wildebeests_upkeep_return() -> None:
    """Stampeding Wildebeests: "At the beginning of your upkeep, return a green creature you
    control to its owner's hand." Only green creatures (not the red Goblin Piker) and only its
    controller's (not an opponent's Grizzly Bears)."""
    s = Scenario({"turn": 4, "active_player": 1, "step": "end_of_turn", "players": [
        {"library": LIB, "in_play": ["Stampeding Wildebeests", "Rushwood Dryad", "Goblin Piker"]},
        {"library": LIB, "in_play": ["Grizzly Bears"]}]})
    s.pass_priority(2)
    s.resolve()
    assert s.options() == ["return Stampeding Wildebeests", "return Rushwood Dryad"]
    s.do("return Rushwood Dryad")
    s.assert_zone(0, "hand", "Rushwood Dryad")
    s.assert_in_play("Grizzly Bears")


# -- creatures with activated abilities ----------------------------------------------------------
def test_mogg_fanatic() -> None:
    """Mogg Fanatic: "Sacrifice Mogg Fanatic: Mogg Fanatic deals 1 damage to target creature or
    player." No {T}, so it can be used while summoning sick; it's gone once used."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Mogg Fanatic", "summoning_sick": True}]},
                     {"in_play": ["Raging Goblin"]}))
    s.do("activate Mogg Fanatic")
    # Targets are chosen before costs are paid (2007 CR 409.1d, 409.1h): it may target itself.
    assert s.options() == ["target player 0", "target player 1", "target Mogg Fanatic",
                           "target Raging Goblin"]
    s.do("target Raging Goblin")
    s.assert_zone(0, "graveyard", "Mogg Fanatic")
    s.resolve()
    s.assert_zone(1, "graveyard", "Raging Goblin")
    assert "activate Mogg Fanatic" not in s.options()


def test_prodigal_pyromancer() -> None:
    """Prodigal Pyromancer: "{T}: Prodigal Pyromancer deals 1 damage to target creature or
    player." Usable once per untap, not while summoning sick."""
    s = Scenario(pos("precombat_main", {"in_play": ["Prodigal Pyromancer"]}))
    s.do("activate Prodigal Pyromancer", "target player 1")
    assert "activate Prodigal Pyromancer" not in s.options()
    s.resolve()
    s.assert_life(1, 19)
    assert "activate Prodigal Pyromancer" not in s.options()
    s2 = Scenario(pos("precombat_main", {"in_play": [{"card": "Prodigal Pyromancer", "summoning_sick": True}]}))
    assert "activate Prodigal Pyromancer" not in s2.options()


def test_prodigal_pyromancer_kills_a_one_toughness_creature() -> None:
    """Prodigal Pyromancer targets creatures too."""
    s = Scenario(pos("precombat_main", {"in_play": ["Prodigal Pyromancer"]}, {"in_play": ["Youthful Knight"]}))
    s.do("activate Prodigal Pyromancer", "target Youthful Knight")
    s.resolve()
    s.assert_zone(1, "graveyard", "Youthful Knight")


def test_drudge_skeletons_regenerate() -> None:
    """Drudge Skeletons: "{B}: Regenerate Drudge Skeletons." The next time it would be destroyed
    this turn, it isn't: it's tapped, all damage is removed, and it's removed from combat. Two
    activations give two shields."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock", "Shock"], "in_play": ["Mountain", "Mountain"]},
                     {"in_play": ["Drudge Skeletons", "Swamp", "Swamp"]}))
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    assert s.perm("Drudge Skeletons").regen_shields == 2
    assert "activate Drudge Skeletons" not in s.options()  # no B left (and not its priority)
    s.do("play Shock", "target Drudge Skeletons")
    s.resolve()
    s.do("play Shock#2", "target Drudge Skeletons")
    s.resolve()
    sk = s.perm("Drudge Skeletons")
    assert sk.tapped and sk.damage == 0 and sk.regen_shields == 0


# -- instants and sorceries ----------------------------------------------------------------------
def test_giant_growth() -> None:
    """Giant Growth: "Target creature gets +3/+3 until end of turn." An instant: usable in
    combat, on an opponent's creature too."""
    s = Scenario(pos("declare_blockers", {"in_play": [{"card": "Grizzly Bears", "id": "b", "attacking": True}]},
                     {"in_play": [{"card": "Hill Giant", "blocking": ["b"]}, "Forest"], "hand": ["Giant Growth"]}))
    s.pass_priority()
    s.do("play Giant Growth")
    assert s.options() == ["target Grizzly Bears", "target Hill Giant"]
    s.do("target Hill Giant")
    s.resolve()
    s.assert_pt("Hill Giant", 6, 6)
    s.advance_to("upkeep", active=1)
    s.assert_pt("Hill Giant", 3, 3)


def test_shock() -> None:
    """Shock: "Shock deals 2 damage to target creature or player." An instant."""
    s = Scenario(pos("upkeep", {}, {"hand": ["Shock"], "in_play": ["Mountain"]}))
    s.pass_priority()
    s.do("play Shock", "target player 0")
    s.resolve()
    s.assert_life(0, 18)
    s.assert_zone(1, "graveyard", "Shock")


def test_incinerate() -> None:
    """Incinerate: 3 damage to target creature or player; a creature dealt damage this way
    can't be regenerated this turn."""
    s = Scenario(pos("precombat_main", {"hand": ["Incinerate", "Incinerate"], "in_play": ["Mountain"] * 4},
                     {"in_play": ["Drudge Skeletons", "Swamp"]}))
    s.do("play Incinerate", "target player 1")
    s.resolve()
    s.assert_life(1, 17)
    s.pass_priority()
    s.do("activate Drudge Skeletons")
    s.resolve()
    s.do("play Incinerate#2", "target Drudge Skeletons")
    s.resolve()
    s.assert_zone(1, "graveyard", "Drudge Skeletons")


def test_lava_axe() -> None:
    """Lava Axe: "Lava Axe deals 5 damage to target player." A sorcery: main phase only."""
    s = Scenario(pos("precombat_main", {"hand": ["Lava Axe"], "in_play": ["Mountain"] * 5 + ["Grizzly Bears"]}))
    s.do("play Lava Axe")
    assert s.options() == ["target player 0", "target player 1"]
    s.do("target player 1")
    s.resolve()
    s.assert_life(1, 15)
    s2 = Scenario(pos("end_of_turn", {"hand": ["Lava Axe"], "in_play": ["Mountain"] * 5}))
    assert "play Lava Axe" not in s2.options()


def test_unsummon_returns_to_owners_hand() -> None:
    """Unsummon: "Return target creature to its owner's hand." — the owner's, even when another
    player controls it."""
    s = Scenario(pos("precombat_main", {"hand": ["Unsummon"], "in_play": ["Island"]},
                     {"in_play": [{"card": "Hill Giant", "controller": 0}, "Grizzly Bears"]}))
    s.do("play Unsummon")
    assert s.options() == ["target Hill Giant", "target Grizzly Bears"]
    s.do("target Hill Giant")
    s.resolve()
    s.assert_zone(1, "hand", "Hill Giant")
    s.assert_zone(0, "hand", "Hill Giant", present=False)


def test_cancel_counters_only_spells() -> None:
    """Cancel: "Counter target spell." Abilities on the stack are not spells: with only Prodigal
    Pyromancer's ability on the stack Cancel can't be played."""
    s = Scenario(pos("precombat_main", {"in_play": ["Prodigal Pyromancer"]},
                     {"hand": ["Cancel"], "in_play": ["Island"] * 3}))
    s.do("activate Prodigal Pyromancer", "target player 1")
    s.pass_priority()
    assert "play Cancel" not in s.options()
    s2 = Scenario(pos("precombat_main", {"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest"]},
                      {"hand": ["Cancel"], "in_play": ["Island"] * 3}))
    s2.do("play Grizzly Bears")
    s2.pass_priority()
    s2.do("play Cancel", "target Grizzly Bears")
    s2.resolve()
    assert not s2.game.stack
    s2.assert_zone(0, "graveyard", "Grizzly Bears")
    s2.assert_in_play("Grizzly Bears", False)


# -- permanents with static abilities -------------------------------------------------------------
def test_holy_strength() -> None:
    """Holy Strength: Enchant creature (target a creature as you play it; it comes into play
    attached to that creature); enchanted creature gets +1/+2. Lands can't be enchanted."""
    s = Scenario(pos("precombat_main", {"hand": ["Holy Strength"], "in_play": ["Plains", "Grizzly Bears"]},
                     {"in_play": ["Hill Giant"]}))
    s.do("play Holy Strength")
    assert s.game.decision.kind is DecisionKind.TARGET
    assert s.options() == ["target Grizzly Bears", "target Hill Giant"]
    s.do("target Hill Giant")
    s.resolve()
    s.assert_pt("Hill Giant", 4, 5)
    hs = s.perm("Holy Strength")
    assert hs.attached_to == s.perm("Hill Giant").id and hs.controller == 0


def test_holy_strength_countered_if_its_target_leaves() -> None:
    """Holy Strength (2012 303.4e-f): an Aura spell whose target is illegal on resolution is
    countered and goes to the graveyard."""
    s = Scenario(pos("precombat_main", {"hand": ["Holy Strength"], "in_play": ["Plains", "Grizzly Bears"]},
                     {"hand": ["Shock"], "in_play": ["Mountain"]}))
    s.do("play Holy Strength", "target Grizzly Bears")
    s.pass_priority()
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.resolve()
    s.assert_zone(0, "graveyard", "Holy Strength")
    s.assert_in_play("Holy Strength", False)


def test_loxodon_warhammer_equip_bonus_lifelink_trample() -> None:
    """Loxodon Warhammer: equipped creature gets +3/+0 and has lifelink and trample; Equip {3}
    (attach to target creature you control, only as a sorcery)."""
    s = Scenario(pos("precombat_main", {"hand": ["Loxodon Warhammer"],
                                        "in_play": ["Plains"] * 6 + ["Grizzly Bears"]},
                     {"in_play": ["Wall of Wood"]}))
    s.do("play Loxodon Warhammer")
    s.resolve()
    assert s.perm("Loxodon Warhammer").attached_to is None
    s.do("activate Loxodon Warhammer", "target Grizzly Bears")
    assert sum(p.tapped for p in s.game.permanents if p.name == "Plains") == 6
    s.resolve()
    s.assert_pt("Grizzly Bears", 5, 2)
    s.pass_priority(2)
    attack(s, "Grizzly Bears")
    block(s, ("Grizzly Bears", "Wall of Wood"))
    s.pass_priority(2)
    s.do("assign 3 damage to Wall of Wood")
    s.pass_priority(2)  # combat damage resolves: 2 tramples over
    s.assert_life(1, 18)
    s.resolve()  # lifelink trigger for all 5 damage
    s.assert_life(0, 25)


def test_loxodon_warhammer_equip_costs_three() -> None:
    """Equip {3}: not playable with two untapped lands."""
    s = Scenario(pos("precombat_main", {"in_play": ["Loxodon Warhammer", "Grizzly Bears", "Plains", "Plains"]}))
    assert "activate Loxodon Warhammer" not in s.options()


def test_upwelling() -> None:
    """Upwelling: "Mana pools don't empty at the end of phases or turns." — every player's pool
    (this effect stops mana burn)."""
    s = Scenario(pos("precombat_main", {"in_play": ["Upwelling", "Forest"]},
                     {"in_play": ["Mountain"]}))
    s.do("tap Forest for G", "pass", "tap Mountain for R", "pass", "pass")
    assert s.game.step == "beginning_of_combat"
    assert s.game.players[0].pool_text() == "G" and s.game.players[1].pool_text() == "R"
    s.advance_to("upkeep", active=1)
    assert s.game.players[0].pool_text() == "G" and s.game.players[1].pool_text() == "R"
    s.assert_life(0, 20)
    s.assert_life(1, 20)


def test_upwelling_cast() -> None:
    """Upwelling ({3}{G} enchantment): played at sorcery speed, comes into play."""
    s = Scenario(pos("precombat_main", {"hand": ["Upwelling"], "in_play": ["Forest"] * 4}))
    s.do("play Upwelling")
    s.resolve()
    s.assert_in_play("Upwelling")
