"""Playing lands, spells and abilities: timing, targets, costs, X, summoning sickness
(2007 CR 212.6, 409, 413; 2012 CR 305, 601, 602, 608)."""

from __future__ import annotations

from functools import partial

import pytest

from mtg_env import DecisionKind, IllegalActionError
from mtg_env.testing import Scenario, position

LIB = ["Wall of Wood"] * 5
pos = partial(position, library=LIB)  # both players' libraries are LIB unless given


# -- lands (2007 CR 212.6; 2012 305.1-305.2) ------------------------------------------------
def test_one_land_per_turn() -> None:
    """2007 CR 212.6: a player may play only one land each turn."""
    s = Scenario(pos("precombat_main", {"hand": ["Forest", "Mountain"]}))
    assert s.options() == ["pass", "play Forest", "play Mountain"]
    s.do("play Forest")
    assert s.game.players[0].lands_played == 1
    assert "play Mountain" not in s.options()
    s.pass_priority(2)
    s.advance_to("postcombat_main")
    assert "play Mountain" not in s.options()


def test_land_drop_already_used_in_position() -> None:
    """Position `lands_played: 1` means the land drop is used (2007 CR 212.6)."""
    s = Scenario(pos("precombat_main", {"hand": ["Forest"], "lands_played": 1}))
    assert s.options() == ["pass"]


def test_land_only_in_own_main_phase_with_empty_stack() -> None:
    """2007 CR 212.6 (2012 305.1): a land may be played only in its owner's main phase, with
    priority and an empty stack: not in upkeep, combat or the end phase, not on the opponent's
    turn, not in response."""
    for step in ("upkeep", "draw", "beginning_of_combat", "end_of_combat", "end_of_turn"):
        s = Scenario(pos(step, {"hand": ["Forest"]}))
        assert "play Forest" not in s.options(), step
    s = Scenario(pos("postcombat_main", {"hand": ["Forest"]}))
    assert "play Forest" in s.options()
    s = Scenario(pos("precombat_main", {}, {"hand": ["Forest"]}))
    s.pass_priority()
    assert s.game.decision.player == 1 and s.options() == ["pass"]
    s = Scenario(pos("precombat_main", {"hand": ["Forest", "Shock"], "in_play": ["Mountain"]}))
    s.do("play Shock", "target player 1")
    assert "play Forest" not in s.options()
    s.resolve()
    assert "play Forest" in s.options()


# -- timing (2007 CR 212.3a, 408; 2012 307.1, 702.8) -----------------------------------------
def test_creature_spells_have_sorcery_timing() -> None:
    """2007 rulebook "Playing a Spell" / 2012 307.1: creatures (and sorceries, artifacts,
    enchantments) may be played only in their controller's main phase with an empty stack."""
    base = {"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest", "Mountain"]}
    for step in ("upkeep", "draw", "beginning_of_combat", "end_of_turn"):
        assert "play Grizzly Bears" not in Scenario(pos(step, base)).options(), step
    s = Scenario(pos("precombat_main", {**base, "hand": ["Grizzly Bears", "Shock"]}))
    s.do("play Shock", "target player 1")
    assert "play Grizzly Bears" not in s.options()
    s = Scenario(pos("precombat_main", {}, base))
    s.pass_priority()
    assert "play Grizzly Bears" not in s.options()


def test_sorcery_timing_for_lava_axe_and_enchantments() -> None:
    """2007 rulebook "Playing a Spell": sorceries and enchantments need the main phase and an
    empty stack (Lava Axe, Holy Strength, Upwelling)."""
    base = {"hand": ["Lava Axe", "Holy Strength", "Upwelling"],
            "in_play": ["Mountain"] * 3 + ["Plains", "Forest", "Forest", "Grizzly Bears"]}
    s = Scenario(pos("precombat_main", base))
    assert s.options()[:4] == ["pass", "play Lava Axe", "play Holy Strength", "play Upwelling"]
    s = Scenario(pos("beginning_of_combat", base))
    assert [o for o in s.options() if o.startswith("play")] == []


def test_instants_can_be_played_whenever_a_player_has_priority() -> None:
    """2007 rulebook "Playing a Spell": instants can be played any time you have priority, in
    any step, on either player's turn, in response."""
    for step in ("upkeep", "draw", "precombat_main", "beginning_of_combat", "end_of_combat",
                 "end_of_turn"):
        s = Scenario(pos(step, {}, {"hand": ["Shock"], "in_play": ["Mountain"]}))
        s.pass_priority()
        assert "play Shock" in s.options(), step


def test_flash_creature_can_be_played_any_time_an_instant_could() -> None:
    """2012 702.8a (flash; 2007 reminder text "You may play this spell any time you could play
    an instant"): Benalish Knight can be played on the opponent's turn in combat."""
    s = Scenario(pos("declare_attackers", {"in_play": [{"card": "Grizzly Bears", "attacking": True}]},
                     {"hand": ["Benalish Knight", "Grizzly Bears"], "in_play": ["Plains"] * 3}))
    s.pass_priority()
    assert s.options()[:2] == ["pass", "play Benalish Knight"]
    assert "play Grizzly Bears#2" not in s.options()
    s.do("play Benalish Knight")
    s.resolve()
    s.pass_priority(2)
    assert s.game.step == "declare_blockers"
    assert s.options() == ["block Grizzly Bears with Benalish Knight", "done"]


# -- targets (2007 CR 409.1d, 413.2a) -------------------------------------------------------------
def test_targets_are_chosen_as_the_spell_is_played() -> None:
    """2007 CR 409.1d: targets are chosen on play: every legal target is offered (players and
    creatures for Shock; not lands)."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"]},
                     {"in_play": ["Hill Giant", "Forest"]}))
    s.do("play Shock")
    d = s.game.decision
    assert d.kind is DecisionKind.TARGET and d.player == 0
    assert s.options() == ["target player 0", "target player 1", "target Grizzly Bears",
                           "target Hill Giant"]
    assert [x.label for x in s.game.stack] == ["Shock"]  # on the stack while choosing
    s.do("target Hill Giant")
    assert s.game.stack[0].targets == [("o", s.perm("Hill Giant").id)]
    assert s.game.players[0].mana_pool == [0] * 6 and s.perm("Mountain").tapped  # paid


def test_spell_without_a_legal_target_cannot_be_played() -> None:
    """2007 rulebook "Target": if you can't meet the targeting requirements you can't play the
    spell (Giant Growth, Unsummon with no creature; Cancel with an empty stack)."""
    s = Scenario(pos("precombat_main", {"hand": ["Giant Growth", "Unsummon", "Cancel"],
                                        "in_play": ["Forest", "Island", "Island", "Island"]}))
    assert [o for o in s.options() if o.startswith("play")] == []


def test_lava_axe_targets_only_players() -> None:
    """Lava Axe: "target player" (2007 CR 409.1d): creatures are not legal targets."""
    s = Scenario(pos("precombat_main", {"hand": ["Lava Axe"], "in_play": ["Mountain"] * 5 + ["Hill Giant"]}))
    s.do("play Lava Axe")
    assert s.options() == ["target player 0", "target player 1"]


def test_spell_with_all_targets_illegal_is_countered_on_resolution() -> None:
    """2007 CR 413.2a: a spell whose targets are all illegal on resolution is countered and does
    nothing; it goes to its owner's graveyard (Unsummon on a creature already gone)."""
    s = Scenario(pos("precombat_main", {"hand": ["Unsummon"], "in_play": ["Island"]},
                     {"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"]}))
    s.do("play Unsummon", "target Grizzly Bears")
    s.pass_priority()
    s.do("play Shock", "target Grizzly Bears")
    s.resolve()
    s.resolve()
    s.assert_zone(1, "graveyard", "Grizzly Bears")
    s.assert_zone(1, "hand", "Grizzly Bears", present=False)
    s.assert_zone(0, "graveyard", "Unsummon")


def test_target_of_a_new_object_is_illegal_after_zone_change() -> None:
    """2007 CR 217.1c: a permanent that leaves play and comes back is a new object, so a spell
    targeting the old one is countered (Giant Growth on a creature bounced and replayed)."""
    s = Scenario(pos("precombat_main", {"hand": ["Giant Growth"], "in_play": ["Forest", "Grizzly Bears"]},
                     {"hand": ["Unsummon"], "in_play": ["Island"]}))
    bears = s.perm("Grizzly Bears").id
    s.do("play Giant Growth", "target Grizzly Bears")
    s.pass_priority()
    s.do("play Unsummon", "target Grizzly Bears")
    s.resolve()
    s.assert_zone(0, "hand", "Grizzly Bears")
    s.resolve()
    assert any("Giant Growth is countered" in line for line in s.game.log)
    assert bears not in s.game.perms


def test_cancel_counters_a_spell_and_cannot_target_itself() -> None:
    """Cancel (2012 701.5a): a countered spell is removed from the stack to its owner's
    graveyard and has no effect; a spell can't target itself (2012 115.5)."""
    s = Scenario(pos("precombat_main", {"hand": ["Lava Axe"], "in_play": ["Mountain"] * 5},
                     {"hand": ["Cancel"], "in_play": ["Island"] * 3}))
    s.do("play Lava Axe", "target player 1")
    s.pass_priority()
    s.do("play Cancel")
    assert s.options() == ["target Lava Axe"]
    s.do("target Lava Axe")
    s.resolve()
    assert not s.game.stack
    s.assert_zone(0, "graveyard", "Lava Axe")
    s.assert_zone(1, "graveyard", "Cancel")
    s.assert_life(1, 20)


# -- costs (2007 CR 409.1f-h) --------------------------------------------------------------------
def test_tap_cost_needs_an_untapped_unsick_creature() -> None:
    """2007 CR 212.3d / 2012 302.6: a creature's {T} ability can't be played unless it has been
    under its controller's control since their most recent turn began; a tapped permanent can't
    pay {T} (seed glossary "Pay")."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Prodigal Pyromancer", "summoning_sick": True},
                                                    {"card": "Prodigal Pyromancer", "tapped": True}]}))
    assert s.options() == ["pass"]


def test_sacrifice_cost_is_paid_when_played() -> None:
    """2007 CR 409.1h: costs are paid as the ability is played: Mogg Fanatic is in the graveyard
    while its ability waits on the stack, and the ability still resolves (rulebook)."""
    s = Scenario(pos("precombat_main", {"in_play": [{"card": "Mogg Fanatic", "summoning_sick": True}]}))
    s.do("activate Mogg Fanatic", "target player 1")  # no {T}: summoning sickness doesn't matter
    s.assert_zone(0, "graveyard", "Mogg Fanatic")
    assert len(s.game.stack) == 1
    s.resolve()
    s.assert_life(1, 19)


def test_sacrifice_a_creature_cost_and_mana_and_tap() -> None:
    """2007 CR 409.1f-h: a cost with mana, {T} and "Sacrifice a creature" (Phyrexian Vault): the
    player chooses what to sacrifice; it can't be played without a creature to sacrifice."""
    s = Scenario(pos("precombat_main", {"in_play": ["Phyrexian Vault", "Swamp", "Swamp"]}))
    assert "activate Phyrexian Vault" not in s.options()
    s = Scenario(pos("precombat_main", {"in_play": ["Phyrexian Vault", "Swamp", "Swamp",
                                                    "Grizzly Bears", "Hill Giant"]}))
    s.do("activate Phyrexian Vault")
    assert s.game.decision.kind is DecisionKind.CHOOSE_CARDS
    assert s.options() == ["sacrifice Grizzly Bears", "sacrifice Hill Giant"]
    s.do("sacrifice Grizzly Bears")
    s.assert_zone(0, "graveyard", "Grizzly Bears")
    assert s.perm("Phyrexian Vault").tapped and s.perm("Swamp").tapped and s.perm("Swamp#2").tapped
    s.resolve()
    assert [c.name for c in s.game.players[0].hand] == ["Wall of Wood"]


def test_x_spell_chooses_x_and_pays_it() -> None:
    """2007 CR 409.1c, 409.1f (2012 107.3, 601.2b): X is chosen as the spell is played, only
    values that can be paid are offered, and the total cost includes X (Blaze {X}{R})."""
    s = Scenario(pos("precombat_main", {"hand": ["Blaze"], "in_play": ["Mountain"] * 4}))
    s.do("play Blaze")
    d = s.game.decision
    assert d.kind is DecisionKind.X_VALUE
    assert s.options() == ["X=0", "X=1", "X=2", "X=3"]
    s.do("X=3", "target player 1")
    assert all(p.tapped for p in s.game.permanents)
    s.resolve()
    s.assert_life(1, 17)


def test_x_zero_is_legal() -> None:
    """2012 107.3: X may be 0 (Blaze for 0 deals no damage)."""
    s = Scenario(pos("precombat_main", {"hand": ["Blaze"], "in_play": ["Mountain", "Mountain"]}))
    s.do("play Blaze", "X=0", "target player 1")
    assert sum(p.tapped for p in s.game.permanents) == 1
    s.resolve()
    s.assert_life(1, 20)


def test_equip_only_as_a_sorcery_and_only_own_creatures() -> None:
    """Equip (2012 702.6a; Loxodon Warhammer "Equip only as a sorcery"): sorcery timing and
    "target creature you control"."""
    s = Scenario(pos("beginning_of_combat", {"in_play": ["Loxodon Warhammer", "Grizzly Bears"] + ["Plains"] * 3}))
    assert "activate Loxodon Warhammer" not in s.options()
    s = Scenario(pos("precombat_main", {"in_play": ["Loxodon Warhammer", "Grizzly Bears"] + ["Plains"] * 3},
                     {"in_play": ["Hill Giant"]}))
    s.do("activate Loxodon Warhammer")
    assert s.options() == ["target Grizzly Bears"]


def test_activated_ability_can_be_played_in_response_any_time() -> None:
    """2007 rulebook "Activated abilities": an activated ability (without a timing restriction)
    can be played whenever its controller has priority, like an instant."""
    s = Scenario(pos("precombat_main", {"hand": ["Shock"], "in_play": ["Mountain"]},
                     {"in_play": ["Prodigal Pyromancer"]}))
    s.do("play Shock", "target Prodigal Pyromancer")
    s.pass_priority()
    s.do("activate Prodigal Pyromancer", "target player 0")
    s.resolve()
    s.assert_life(0, 19)
    s.resolve()
    s.assert_in_play("Prodigal Pyromancer", False)


def test_illegal_play_raises() -> None:
    """Public API: an action that isn't among the options raises IllegalActionError."""
    s = Scenario(pos("upkeep", {"hand": ["Grizzly Bears"], "in_play": ["Forest", "Forest"]}))
    with pytest.raises(IllegalActionError):
        s.do("play Grizzly Bears")


def test_cancel_on_cancel() -> None:
    """Counter target spell (2012 701.5a): a Cancel countering the other player's Cancel lets
    the original spell resolve."""
    s = Scenario(pos("precombat_main", {"hand": ["Lava Axe", "Cancel"], "in_play": ["Mountain"] * 5 + ["Island"] * 3},
                     {"hand": ["Cancel"], "in_play": ["Island"] * 3}))
    s.do("play Lava Axe", "target player 1")
    s.pass_priority()
    s.do("play Cancel#2", "target Lava Axe")
    s.pass_priority()
    s.do("play Cancel")
    assert s.options() == ["target Lava Axe", "target Cancel#2"]
    s.do("target Cancel#2")
    s.resolve()
    assert [x.label for x in s.game.stack] == ["Lava Axe"]
    s.resolve()
    s.assert_life(1, 15)
    s.assert_zone(1, "graveyard", "Cancel#2")
    s.assert_zone(0, "graveyard", "Cancel")


# -- pay-life and discard costs: no core card has one, so a test-only card is registered
def _register_test_card(monkeypatch, name: str, cost) -> None:
    from mtg_env.engine import registry
    from mtg_env.engine.abilities import ActivatedAbility, TargetSpec
    from mtg_env.engine.mana_cost import ManaCost
    from mtg_env.engine.model import CardDef

    registry.all_cards()  # load the registry before adding to it
    cdef = CardDef(name=name, cost=ManaCost.parse("{B}"), colors=frozenset("B"),
                   types=frozenset({"Creature"}), power=1, toughness=1,
                   activated=(ActivatedAbility(0, cost, (TargetSpec("creature_or_player"),),
                                               ({"op": "deal_damage", "amount": 1, "target": 0},)),))
    monkeypatch.setitem(registry._CARDS, name, cdef)


def test_pay_life_cost(monkeypatch) -> None:
    """Seed glossary "Pay" (2007 CR 409.1h): paying life subtracts it from the life total; a
    player can't pay more life than they have (paying all of it is allowed)."""
    from mtg_env.engine.abilities import Cost

    _register_test_card(monkeypatch, "Test Life Pinger", Cost(pay_life=2))
    s = Scenario(pos("precombat_main", {"in_play": ["Test Life Pinger"], "life": 2}))
    s.do("activate Test Life Pinger", "target player 1")
    s.assert_life(0, 0)
    assert s.game.is_over and s.game.winner == 1  # at 0 life: loses at the next check
    s = Scenario(pos("precombat_main", {"in_play": ["Test Life Pinger"], "life": 1}))
    assert s.options() == ["pass"]


def test_discard_cost(monkeypatch) -> None:
    """2007 CR 409.1h: a discard cost is paid as the ability is played; the player chooses the
    card; with an empty hand the ability can't be played."""
    from mtg_env.engine.abilities import Cost

    _register_test_card(monkeypatch, "Test Discard Pinger", Cost(discard=1))
    s = Scenario(pos("precombat_main", {"in_play": ["Test Discard Pinger"]}))
    assert s.options() == ["pass"]
    s = Scenario(pos("precombat_main", {"in_play": ["Test Discard Pinger"], "hand": ["Shock", "Forest"]}))
    s.do("activate Test Discard Pinger", "target player 1")
    assert s.game.decision.kind is DecisionKind.CHOOSE_CARDS
    assert s.options() == ["discard Shock", "discard Forest"]
    s.do("discard Forest")
    s.assert_zone(0, "graveyard", "Forest")
    s.resolve()
    s.assert_life(1, 19)
