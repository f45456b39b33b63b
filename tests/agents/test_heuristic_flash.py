"""The heuristic casts creatures with flash, on the opponent's turn.

Tangle Spider: "Flash; Reach" (2007 CR 502.59: flash lets its controller play it any time
they could play an instant). The heuristic once counted a flash creature as an instant without
a spell effect, worth less than its cost, so Tangle Spider and Benalish Knight never left its
hand.
"""

from __future__ import annotations

from mtg_env.testing import attack, combat, scenario

from .heuristic_answers import heuristic_answer

_LANDS = {"in_play": ["Forest"] * 6, "hand": ["Tangle Spider"]}


def test_a_flash_creature_comes_in_at_the_opponents_end_of_turn() -> None:
    s = scenario(_LANDS, {"in_play": ["Mountain"]}, "end_of_turn", active_player=1)
    s.pass_priority()  # the active player passes first
    assert s.game.decision.player == 0
    assert heuristic_answer(s) == "play Tangle Spider"


def test_a_flash_creature_comes_in_as_a_blocker_after_attacks() -> None:
    """In the opponent's declare attackers step, once Craw Wurm attacks."""
    s = combat(_LANDS, {"in_play": ["Craw Wurm", "Mountain"]}, active_player=1)
    attack(s, "Craw Wurm")
    s.pass_priority()
    assert s.game.step == "declare_attackers" and s.game.decision.player == 0
    assert heuristic_answer(s) == "play Tangle Spider"


def test_a_flash_creature_waits_through_its_controllers_own_turn() -> None:
    """In my own main phase the mana stays open for the opponent's turn."""
    s = scenario(_LANDS, {"in_play": ["Mountain"]})
    assert heuristic_answer(s) == "pass"


def test_benalish_knight_too() -> None:
    """Benalish Knight: "Flash; First strike"."""
    s = scenario({"in_play": ["Plains"] * 3, "hand": ["Benalish Knight"]}, {"in_play": ["Mountain"]},
                 "end_of_turn", active_player=1)
    s.pass_priority()
    assert heuristic_answer(s) == "play Benalish Knight"
