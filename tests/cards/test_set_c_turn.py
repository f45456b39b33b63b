"""Scenario tests for the turn-structure cards
(mtg_env/cards/data/turn_structure_and_step_triggers.yaml):
Relentless Assault (additional combat and main phase, 2012 500.8), Time Stretch (extra turns,
2012 500.7), Time Stop (ending the turn, 2012 713.1) and Fog Elemental (a delayed triggered
ability, 2007 glossary / 404.4, 2012 603.7).

Each test quotes the printed 2007 text it checks. Rule numbers are 2007 CR where known, else 2012.
"""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind
from mtg_env.engine.turn_structure import add_delayed_trigger
from mtg_env.testing import Scenario, attack, scenario, to_blockers

K = DecisionKind
LIB = ["Island"] * 10
pos = partial(scenario, library=LIB)  # both players' libraries are LIB unless given


def removed(s: Scenario, pl: int) -> list[str]:
    return [c.cdef.name for c in s.game.players[pl].removed]


# -- Relentless Assault -------------------------------------------------------------------------
RA = {"hand": ["Relentless Assault"], "in_play": ["Mountain"] * 4}


def test_relentless_assault_untaps_attackers_and_gives_another_combat() -> None:
    """Relentless Assault: "Untap all creatures that attacked this turn. After this main phase,
    there is an additional combat phase followed by an additional main phase." Grizzly Bears
    attack, then in the postcombat main phase Relentless Assault untaps them and they attack
    again in the additional combat phase (2012 500.8): player 1 takes 2 + 2."""
    s = pos({"in_play": ["Grizzly Bears", *["Mountain"] * 4], "hand": ["Relentless Assault"]})
    attack(s, "Grizzly Bears")
    s.advance_to("postcombat_main")
    s.assert_life(1, 18)
    assert s.perm("Grizzly Bears").tapped
    s.do("play Relentless Assault")
    s.resolve()
    assert not s.perm("Grizzly Bears").tapped
    assert tuple(s.game.step_queue[:2]) == ("beginning_of_combat", "declare_attackers")
    attack(s, "Grizzly Bears")
    s.advance_to("end_of_combat")
    s.assert_life(1, 16)
    # followed by an additional main phase: player 0 has priority in a main phase again
    s.advance_to("postcombat_main")
    assert s.game.turn == 3 and s.game.active == 0
    assert tuple(s.game.step_queue) == ("end_of_turn", "cleanup")


def test_relentless_assault_untaps_only_creatures_that_attacked() -> None:
    """Relentless Assault untaps "all creatures that attacked this turn": a creature tapped for
    another reason (Hill Giant, tapped in play) stays tapped, and the opponent's tapped creature
    too."""
    s = pos({"in_play": ["Grizzly Bears", {"card": "Hill Giant", "tapped": True},
                         *["Mountain"] * 4],
             "hand": ["Relentless Assault"]},
            {"in_play": [{"card": "Goblin Piker", "tapped": True}]})
    attack(s, "Grizzly Bears")
    s.advance_to("postcombat_main")
    s.do("play Relentless Assault")
    s.resolve()
    assert not s.perm("Grizzly Bears").tapped
    assert s.perm("Hill Giant").tapped
    assert s.perm("Goblin Piker").tapped


def test_relentless_assault_in_the_precombat_main_phase() -> None:
    """"After this main phase": cast in the precombat main phase (no creature attacked yet, none
    untaps), there are two combat phases before the last main phase; Grizzly Bears attack in
    the first, untapped creatures that didn't attack (Hill Giant) attack in the second."""
    s = pos({"in_play": ["Grizzly Bears", "Hill Giant", *["Mountain"] * 4],
             "hand": ["Relentless Assault"]})
    s.do("play Relentless Assault")
    s.resolve()
    attack(s, "Grizzly Bears")
    s.advance_to("postcombat_main")
    s.assert_life(1, 18)
    attack(s, "Hill Giant")
    s.advance_to("postcombat_main")
    s.assert_life(1, 15)
    assert tuple(s.game.step_queue) == ("end_of_turn", "cleanup")


def test_relentless_assault_is_a_sorcery() -> None:
    """Relentless Assault is a sorcery (2007 CR 212.5): not playable in a combat step nor in the
    opponent's turn."""
    s = pos(RA, step="beginning_of_combat")
    assert "play Relentless Assault" not in s.options()
    s = pos(RA, {}, active_player=1)
    s.game.apply("pass")  # player 1, active, passes: player 0 has priority in player 1's main phase
    assert s.game.decision.player == 0
    assert "play Relentless Assault" not in s.options()


# -- Time Stretch -------------------------------------------------------------------------------
TS = {"hand": ["Time Stretch"], "in_play": ["Island"] * 10}


def turn_players(s: Scenario, turns: int) -> list[int]:
    """Pass until ``turns`` more turns have begun; the active player of each new turn."""
    out = []
    end = s.game.turn + turns
    while s.game.turn < end:
        t = s.game.turn
        s.advance_to("precombat_main") if s.game.step != "precombat_main" else None
        if s.game.turn == t:
            s.advance_to("upkeep")
        out.append(s.game.active)
    return out


def test_time_stretch_gives_its_caster_two_extra_turns() -> None:
    """Time Stretch: "Target player takes two extra turns after this one." Player 0 targets
    themself on turn 3: turns 4 and 5 are player 0's, turn 6 player 1's (2012 500.7)."""
    s = pos(TS)
    s.do("play Time Stretch", "target player 0")
    s.resolve()
    assert turn_players(s, 3) == [0, 0, 1]


def test_time_stretch_on_the_opponent() -> None:
    """"Target player": player 0 gives player 1 the two extra turns; player 1 then also takes the
    regular turn after player 0's: turns 4, 5, 6 are player 1's, turn 7 player 0's."""
    s = pos(TS)
    s.do("play Time Stretch", "target player 1")
    s.resolve()
    assert turn_players(s, 4) == [1, 1, 1, 0]


def test_two_time_stretches_give_four_extra_turns() -> None:
    """Two Time Stretches resolving in one turn: four extra turns (2012 500.7)."""
    s = pos({"hand": ["Time Stretch", "Time Stretch"], "in_play": ["Island"] * 20})
    s.do("play Time Stretch", "target player 0")
    s.resolve()
    s.do("play Time Stretch#2", "target player 0")
    s.resolve()
    assert turn_players(s, 5) == [0, 0, 0, 0, 1]


def test_time_stretch_is_a_sorcery() -> None:
    """Time Stretch is a sorcery (2007 CR 212.5): not playable in a combat step."""
    s = pos(TS, step="beginning_of_combat")
    assert "play Time Stretch" not in s.options()


# -- Time Stop ----------------------------------------------------------------------------------
TSTOP = {"hand": ["Time Stop"], "in_play": ["Island"] * 6}


def test_time_stop_removes_the_stack_and_ends_the_turn() -> None:
    """Time Stop: "End the turn. (Remove all spells and abilities on the stack from the game,
    including this card. ...)" Player 1 answers player 0's Shock with Time Stop: both cards are
    removed from the game, Shock deals no damage, and the turn ends: the next priority is in
    player 1's turn 4 (2012 713.1)."""
    s = pos({"hand": ["Shock"], "in_play": ["Mountain"]}, TSTOP)
    s.do("play Shock", "target player 1")
    s.game.apply("pass")
    s.do("play Time Stop")
    s.resolve()
    assert s.game.stack == []
    assert removed(s, 0) == ["Shock"] and removed(s, 1) == ["Time Stop"]
    assert not s.game.players[1].graveyard and not s.game.players[0].graveyard
    s.assert_life(1, 20)
    assert (s.game.turn, s.game.active) == (4, 1)
    assert s.game.step in ("upkeep", "draw", "precombat_main")


def test_time_stop_in_combat_removes_attackers_and_ends_eot_effects() -> None:
    """Time Stop: "... Damage wears off, and "this turn" and "until end of turn" effects end."
    Cast after Hill Giant, pumped by Giant Growth, is declared as an attacker: it is removed
    from combat (no combat damage), the pump ends and its damage (from Shock) wears off, as the
    game skips straight to the cleanup step (2012 713.1a-c)."""
    s = pos({"in_play": ["Hill Giant", "Forest", "Mountain"], "hand": ["Giant Growth", "Shock"]},
            TSTOP)
    s.do("play Giant Growth", "target Hill Giant")
    s.resolve()
    s.do("play Shock", "target Hill Giant")
    s.resolve()
    s.assert_pt("Hill Giant", 6, 6)
    s.assert_damage("Hill Giant", 2)
    attack(s, "Hill Giant")
    assert s.perm("Hill Giant").attacking
    s.game.apply("pass")
    s.do("play Time Stop")
    s.resolve()
    s.assert_life(1, 20)
    s.assert_in_play("Hill Giant")
    giant = s.perm("Hill Giant")
    assert not giant.attacking
    assert (giant.power, giant.toughness, giant.damage) == (3, 3, 0)
    assert (s.game.turn, s.game.active) == (4, 1)


def test_time_stop_active_player_discards_to_hand_size() -> None:
    """Time Stop: "The player whose turn it is discards down to his or her maximum hand size."
    Player 0 holds nine cards when player 1 ends the turn: player 0 discards two (2007 CR 314)."""
    s = pos({"hand": ["Island"] * 9}, TSTOP)
    s.game.apply("pass")
    s.do("play Time Stop")
    s.game.apply("pass")
    s.game.apply("pass")
    d = s.game.decision
    assert d.player == 0 and s.game.step == "cleanup"
    while s.game.decision.player == 0 and s.game.step == "cleanup":
        s.game.apply(s.game.decision.options[0].text)
    assert len(s.game.players[0].hand) == 7


def test_time_stop_skips_end_of_turn_triggers() -> None:
    """Time Stop's ruling: unless it is played in the end phase, "at end of turn" abilities
    don't trigger that turn (the end of turn step is skipped, 2012 713.1c): a delayed "at end of
    turn" ability waits for the next end of turn step."""
    s = pos({}, TSTOP)
    add_delayed_trigger(s.game, "end_of_turn", 0, None, "Test", "", "you gain 2 life",
                               [{"op": "gain_life", "amount": 2}])
    s.game.apply("pass")
    s.do("play Time Stop")
    s.resolve()
    s.assert_life(0, 20)
    assert len(s.game.delayed) == 1
    s.advance_to("end_of_turn", active=1)
    s.resolve()
    s.assert_life(0, 22)


def test_time_stop_is_an_instant() -> None:
    """Time Stop is an instant: playable in the opponent's turn (above) and in a combat step."""
    s = pos(TSTOP, step="beginning_of_combat")
    s.do("play Time Stop")
    s.resolve()
    assert (s.game.turn, s.game.active) == (4, 1)


# -- Fog Elemental ------------------------------------------------------------------------------
def test_fog_elemental_sacrificed_at_end_of_combat_after_attacking() -> None:
    """Fog Elemental: "When Fog Elemental attacks or blocks, sacrifice it at end of combat." It
    attacks and deals its 4 damage, then the delayed ability triggers at end of combat and it is
    sacrificed (2012 603.7)."""
    s = pos({"in_play": ["Fog Elemental"]})
    attack(s, "Fog Elemental")
    assert [i.label for i in s.game.stack] == ["Fog Elemental"]
    s.resolve()  # the attack trigger creates the delayed ability
    assert len(s.game.delayed) == 1
    s.advance_to("combat_damage")
    s.resolve()  # combat damage uses the stack (2007 CR 310.1)
    s.assert_life(1, 16)
    s.assert_in_play("Fog Elemental")
    s.advance_to("end_of_combat")
    assert [i.label for i in s.game.stack] == ["Fog Elemental"]
    s.resolve()
    s.assert_in_play("Fog Elemental", False)
    s.assert_zone(0, "graveyard", "Fog Elemental")
    assert not s.game.delayed


def test_fog_elemental_sacrificed_at_end_of_combat_after_blocking() -> None:
    """"When Fog Elemental attacks or blocks": blocking Hill Giant (3 damage, Fog Elemental 4/4
    survives it) also makes it be sacrificed at end of combat."""
    s = pos({"in_play": ["Hill Giant"]}, {"in_play": ["Fog Elemental"]})
    attack(s, "Hill Giant")
    to_blockers(s)
    d = s.game.decision
    assert d.kind is K.DECLARE_BLOCKERS
    block = [a.text for a in d.options if "Fog Elemental" in a.text]
    s.do(block[0])
    if s.game.decision.kind is K.DECLARE_BLOCKERS:
        s.do("done")
    assert [i.label for i in s.game.stack] == ["Fog Elemental"]
    s.resolve()  # the block trigger
    assert len(s.game.delayed) == 1
    s.advance_to("combat_damage")
    s.resolve()
    s.assert_in_play("Hill Giant", False)  # 4 damage to the Giant
    s.advance_to("end_of_combat")
    s.assert_in_play("Fog Elemental")
    s.resolve()
    s.assert_in_play("Fog Elemental", False)
    s.assert_zone(1, "graveyard", "Fog Elemental")


def test_fog_elemental_stays_if_it_does_not_attack_or_block() -> None:
    """Only "when Fog Elemental attacks or blocks": not attacking, it stays in play; another
    creature attacking doesn't create the delayed ability."""
    s = pos({"in_play": ["Fog Elemental", "Grizzly Bears"]})
    attack(s, "Grizzly Bears")
    s.advance_to("postcombat_main")
    s.assert_in_play("Fog Elemental")
    assert not s.game.delayed


def test_fog_elemental_has_flying() -> None:
    """Fog Elemental: "Flying (This creature can't be blocked except by creatures with flying or
    reach.)" Grizzly Bears can't block it (2007 CR 502.4)."""
    s = pos({"in_play": ["Fog Elemental"]}, {"in_play": ["Grizzly Bears"]})
    attack(s, "Fog Elemental")
    s.resolve()
    to_blockers(s)
    # no blocker decision (nothing can block), or one with only "done"
    d = s.game.decision
    assert d.kind is not K.DECLARE_BLOCKERS or [a.verb for a in d.options] == ["done"]
    assert not s.perm("Grizzly Bears").blocking


def test_fog_elemental_delayed_sacrifice_waits_past_time_stop() -> None:
    """2012 603.7b: a delayed ability triggers the next time its event occurs. Time Stop ends the
    turn before end of combat: Fog Elemental survives this turn and is sacrificed at the next
    end of combat (player 1's turn)."""
    s = pos({"in_play": ["Fog Elemental"]}, TSTOP)
    attack(s, "Fog Elemental")
    s.resolve()
    s.game.apply("pass")
    s.do("play Time Stop")
    s.resolve()
    s.assert_life(1, 20)
    s.assert_in_play("Fog Elemental")
    s.advance_to("end_of_combat", active=1)
    s.resolve()
    s.assert_in_play("Fog Elemental", False)
