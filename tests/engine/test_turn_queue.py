"""Engine scenario tests for the turn as a queue (mtg_env/engine/turn_structure.py): added phases
(2012 500.8), extra turns (2012 500.7), ending the turn (2012 713.1) and delayed triggered
abilities (2007 glossary "delayed triggered ability", 404.4; 2012 603.7). The cards built on
them are tested in tests/cards/test_set_c_turn.py.
"""

from __future__ import annotations

from functools import partial

from mtg_env import STEPS, DecisionKind, Game
from mtg_env.engine.state import TURN_STEPS
from mtg_env.engine.turn_structure import (
    add_combat_and_main_phase,
    add_delayed_trigger,
    add_extra_turns,
    fire_delayed,
)
from mtg_env.testing import Scenario, scenario

K = DecisionKind
LIB = ["Island"] * 10
main = partial(scenario, library=LIB)  # both players' libraries are LIB unless given


def walk(s: Scenario, turns: int, attack: bool = False) -> list[tuple[int, int, str]]:
    """Pass priority (declaring the first possible attacker if ``attack``, else none, and no
    blockers) and record (turn, active player, step) at the first priority of each step, until
    the precombat main phase of the turn ``turns`` turns later."""
    g = s.game
    seen: list[tuple[int, int, str]] = []
    end = g.turn + turns
    while not g.is_over:
        d = g.decision
        if d.kind is K.PRIORITY:
            if g.passes == 0 and not g.stack:  # nothing is cast: this is a step's first priority
                seen.append((g.turn, g.active, g.step))
            if g.turn == end and g.step == "precombat_main":
                break
            g.apply("pass")
        elif d.kind is K.DECLARE_ATTACKERS:
            atk = [a.text for a in d.options if a.verb == "attack"]
            g.apply(atk[0] if attack and atk else "done")
        elif d.kind is K.DECLARE_BLOCKERS:
            g.apply("done")
        else:
            raise AssertionError(f"unexpected decision {d.kind}: {[a.text for a in d.options]}")
    return seen


def steps_of_turn(seen: list[tuple[int, int, str]], turn: int) -> list[str]:
    return [st for t, _, st in seen if t == turn]


def test_turn_steps_are_declared_once() -> None:
    """2007 CR 300-314: a turn's steps in order; the state's queue of a new turn is every step
    after untap (state.py keeps its own copy of the list, which must match)."""
    assert STEPS[1:] == TURN_STEPS
    g = Game()
    assert g.step == "untap" and g.step_queue == TURN_STEPS


def test_normal_turn_follows_the_queue_and_skips_blockers_and_damage_without_attackers() -> None:
    """2012 508.8: if no creatures are declared as attackers, the declare blockers and combat
    damage steps are skipped. With an attacker, every combat step happens."""
    s = main()
    seen = walk(s, 1)
    assert steps_of_turn(seen, 3) == ["precombat_main", "beginning_of_combat", "declare_attackers",
                                      "end_of_combat", "postcombat_main", "end_of_turn"]
    s = main({"in_play": ["Grizzly Bears"]})
    seen = walk(s, 1, attack=True)
    assert steps_of_turn(seen, 3) == ["precombat_main", "beginning_of_combat", "declare_attackers",
                                      "declare_blockers", "combat_damage", "end_of_combat",
                                      "postcombat_main", "end_of_turn"]
    s.assert_life(1, 18)


def test_added_combat_and_main_phase_follow_this_main_phase() -> None:
    """2012 500.8: added phases come directly after the specified phase; two additions after the
    same main phase give three combat phases, each followed by a main phase (505.1a: every
    main phase after the first is a postcombat main phase)."""
    s = main()
    g = s.game
    assert add_combat_and_main_phase(g)
    assert add_combat_and_main_phase(g)
    seen = walk(s, 1)
    combat = ["beginning_of_combat", "declare_attackers", "end_of_combat", "postcombat_main"]
    assert steps_of_turn(seen, 3) == ["precombat_main", *combat * 3, "end_of_turn"]
    assert steps_of_turn(seen, 4)[:3] == ["upkeep", "draw", "precombat_main"]


def test_added_phases_only_during_a_main_phase() -> None:
    """Relentless Assault's ruling: the additional phases are created only if it resolves during a
    main phase; in another step nothing is added."""
    s = main(step="beginning_of_combat")
    g = s.game
    before = g.step_queue
    assert not add_combat_and_main_phase(g)
    assert g.step_queue == before


def test_added_phases_last_only_this_turn() -> None:
    """The queue is rebuilt for each turn: phases added this turn don't recur next turn."""
    s = main()
    add_combat_and_main_phase(s.game)
    seen = walk(s, 2)
    assert steps_of_turn(seen, 4).count("beginning_of_combat") == 1


def test_extra_turns_come_after_this_turn_then_the_regular_order_resumes() -> None:
    """2012 500.7: extra turns are added directly after the current turn. Player 0's turn 3 gives
    player 1 two extra turns: player 1 takes turns 4 and 5 (extra) and 6 (the regular turn
    after player 0's), then player 0 takes turn 7."""
    s = main()
    add_extra_turns(s.game, 1, 2)
    seen = walk(s, 4)
    actives = {t: a for t, a, _ in seen}
    assert [actives[t] for t in (3, 4, 5, 6, 7)] == [0, 1, 1, 1, 0]


def test_extra_turns_for_the_active_player() -> None:
    """2012 500.7: player 0 takes two extra turns after turn 3, then player 1's regular turn."""
    s = main()
    add_extra_turns(s.game, 0, 2)
    seen = walk(s, 3)
    actives = {t: a for t, a, _ in seen}
    assert [actives[t] for t in (3, 4, 5, 6)] == [0, 0, 0, 1]
    # an extra turn is a whole turn: untap, upkeep, draw (player 0 drew on turns 4 and 5)
    assert steps_of_turn(seen, 4)[:2] == ["upkeep", "draw"]
    assert len(s.game.players[0].library) == len(LIB) - 2


def test_most_recently_created_extra_turn_is_taken_first() -> None:
    """2012 500.7: "The most recently created turn will be taken first." Player 0 gets one extra
    turn, then player 1 gets one: player 1's comes first (turn 4), then player 0's (turn 5),
    then player 1's regular turn (6)."""
    s = main()
    add_extra_turns(s.game, 0, 1)
    add_extra_turns(s.game, 1, 1)
    seen = walk(s, 3)
    actives = {t: a for t, a, _ in seen}
    assert [actives[t] for t in (4, 5, 6)] == [1, 0, 1]


def test_queue_state_copies_and_round_trips_through_json() -> None:
    """The step queue, extra turns and delayed triggers are declared game state: a copy is
    independent, and from_json(to_json()) reproduces them."""
    s = main()
    g = s.game
    add_combat_and_main_phase(g)
    add_extra_turns(g, 1, 2)
    add_delayed_trigger(g, "end_of_combat", 0, None, "Test", "", "you gain 3 life",
                          [{"op": "gain_life", "amount": 3}])
    h = g.copy()  # the queues are immutable tuples, shared by copies and replaced on change
    add_extra_turns(h, 0, 1)
    add_combat_and_main_phase(h)
    fire_delayed(h, "end_of_combat")
    assert h.step_queue[6:] == g.step_queue and len(h.step_queue) == len(g.step_queue) + 6
    assert tuple(g.extra_turns) == (1, 1) and tuple(h.extra_turns) == (0, 1, 1)
    assert len(g.delayed) == 1 and not h.delayed and len(h.pending) == len(g.pending) + 1
    text = g.to_json()
    r = Game.from_json(text)
    assert r.to_json() == text
    assert tuple(r.step_queue) == g.step_queue and tuple(r.extra_turns) == (1, 1)
    assert len(r.delayed) == 1
    # and the loaded game plays the delayed trigger (its effects compile when they run)
    s.game = r
    s.advance_to("postcombat_main")
    s.assert_life(0, 23)


def test_delayed_trigger_fires_once_at_the_next_end_of_combat() -> None:
    """2012 603.7b: a delayed triggered ability triggers only once, the next time its event
    occurs. One waiting for end of combat triggers at the beginning of this turn's end of combat
    step (it goes on the stack, 2007 CR 410.5) and not in later turns."""
    s = main()
    g = s.game
    add_delayed_trigger(g, "end_of_combat", 0, None, "Test", "", "you gain 3 life",
                          [{"op": "gain_life", "amount": 3}])
    s.advance_to("end_of_combat")
    assert [i.label for i in g.stack] == ["Test"]
    assert not g.delayed
    s.resolve()
    s.assert_life(0, 23)
    s.advance_to("end_of_combat", active=1)
    s.advance_to("postcombat_main", active=1)
    s.assert_life(0, 23)


def test_delayed_trigger_at_end_of_turn() -> None:
    """A delayed triggered ability may wait for the end of turn step (2007 CR 312: "at end of
    turn" abilities trigger at its beginning)."""
    s = main()
    g = s.game
    add_delayed_trigger(g, "end_of_turn", 1, None, "Test", "", "you gain 2 life",
                          [{"op": "gain_life", "amount": 2}])
    s.advance_to("postcombat_main")
    s.assert_life(1, 20)
    s.advance_to("end_of_turn")
    s.resolve()
    s.assert_life(1, 22)
