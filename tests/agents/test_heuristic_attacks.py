"""The heuristic's attacks foresee the double block its own blocker would make.

2007 CR 502.2 (first strike): creatures with first strike deal their combat damage in a step
before the others, so two 2/1 first strikers kill a 5/4 before it deals any damage. The attack
planner once tried only the two blockers with the most power (a 3/3 and one 2/1 here, a trade),
and sent Spined Wurm into the free kill.
"""

from __future__ import annotations

from mtg_env.testing import combat, to_attackers

from .heuristic_answers import heuristic_answer


def _declare(defenders: list[str]) -> str:
    s = combat({"in_play": ["Spined Wurm"]}, {"in_play": defenders})
    to_attackers(s)
    return heuristic_answer(s)


def test_no_attack_into_two_first_strikers() -> None:
    assert _declare(["Youthful Knight", "Youthful Knight", "Hill Giant"]) == "done"


def test_the_attack_goes_in_where_every_double_block_trades() -> None:
    """Without the second first striker, any two blockers lose a creature to kill the Wurm
    (Youthful Knight and Hill Giant: both die), and the Wurm attacks."""
    assert _declare(["Youthful Knight", "Hill Giant"]) == "attack with Spined Wurm"
