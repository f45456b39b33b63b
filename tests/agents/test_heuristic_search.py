"""The heuristic values a spell that searches its controller's library.

Rampant Growth: "Search your library for a basic land card and put that card into play tapped.
Then shuffle your library." Its effect names no target, and the heuristic once valued it (and
every search) at nothing, so it never played one.
"""

from __future__ import annotations

from mtg_env.testing import scenario

from .heuristic_answers import heuristic_answer


def test_rampant_growth_is_played_while_a_spell_waits_for_mana() -> None:
    """Three Forests and Craw Wurm ({4}{G}{G}) in hand: the land it finds brings the Wurm a
    turn closer."""
    s = scenario({"hand": ["Rampant Growth", "Craw Wurm"], "in_play": ["Forest"] * 3},
                 library=["Forest"] * 5)
    assert heuristic_answer(s) == "play Rampant Growth"


def test_a_search_that_can_find_nothing_is_worth_nothing() -> None:
    """No basic land card in the library: Rampant Growth would find nothing, so it waits."""
    s = scenario({"hand": ["Rampant Growth", "Craw Wurm"], "in_play": ["Forest"] * 3},
                 library=["Craw Wurm"] * 5)
    assert heuristic_answer(s) == "pass"
