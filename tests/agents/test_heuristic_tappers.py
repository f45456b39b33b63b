"""The heuristic keeps a tapper for the opponent's combat unless it opens an attack of its own.

Icy Manipulator: "{1}, {T}: Tap target artifact, creature, or land." Used in its controller's
own beginning of combat it stays tapped through the opponent's turn (2007 CR 502.2: it untaps
only in its controller's untap step), so the heuristic once tapped a blocker it had no attacker
for and then could not stop the attacker that killed it.
"""

from __future__ import annotations

from mtg_env.testing import combat

from .heuristic_answers import heuristic_answer


def test_no_tap_in_my_combat_without_an_attacker() -> None:
    s = combat({"in_play": ["Icy Manipulator", "Island", "Island"]}, {"in_play": ["Craw Wurm"]})
    assert s.game.decision.player == 0
    assert heuristic_answer(s) == "pass"


def test_the_tapper_stops_the_opponents_attacker() -> None:
    """In the opponent's beginning of combat, their Craw Wurm gets tapped before it can attack."""
    s = combat({"in_play": ["Icy Manipulator", "Island", "Island"]}, {"in_play": ["Craw Wurm"]},
               active_player=1)
    s.pass_priority()
    assert s.game.decision.player == 0
    assert heuristic_answer(s).startswith("activate Icy Manipulator")


def test_a_tap_that_opens_my_attack() -> None:
    """My Hill Giant attacks past a tapped Grizzly Bears; their 2 power is no threat to my 20 life."""
    s = combat({"in_play": ["Icy Manipulator", "Hill Giant", "Island", "Island"]},
               {"in_play": ["Grizzly Bears"]})
    assert heuristic_answer(s).startswith("activate Icy Manipulator")
