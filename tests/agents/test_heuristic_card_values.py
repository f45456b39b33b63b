"""Spells and abilities the heuristic once valued at nothing or less, so it never played them.

An audit of heuristic self-play on sealed decks (which cards were castable how often, and how
often cast) found them: a card in a graveyard as a target had no candidates unless the spell
took X of them, a player sacrificing a creature was worth half a point, and a cantrip cost
more than the card it draws back.
"""

from __future__ import annotations

from mtg_env.testing import scenario

from .heuristic_answers import heuristic_answer

_LIBRARY = ["Swamp"] * 10


def test_cruel_edict_makes_the_opponent_sacrifice() -> None:
    """Cruel Edict: "Target opponent sacrifices a creature." Their only creature is Craw Wurm."""
    s = scenario({"hand": ["Cruel Edict"], "in_play": ["Swamp"] * 2}, {"in_play": ["Craw Wurm"]},
                 "postcombat_main", library=_LIBRARY)
    assert heuristic_answer(s) == "play Cruel Edict"


def test_cruel_edict_waits_while_the_opponent_has_no_creature() -> None:
    s = scenario({"hand": ["Cruel Edict"], "in_play": ["Swamp"] * 2}, {"in_play": ["Forest"]},
                 "postcombat_main", library=_LIBRARY)
    assert heuristic_answer(s) == "pass"


def test_recover_returns_a_creature_card_from_the_graveyard() -> None:
    """Recover: "Return target creature card from your graveyard to your hand. Draw a card.\""""
    s = scenario({"hand": ["Recover"], "in_play": ["Swamp"] * 3, "graveyard": ["Craw Wurm"]},
                 None, "postcombat_main", library=_LIBRARY)
    assert heuristic_answer(s) == "play Recover"


def test_recover_waits_for_a_creature_card_in_the_graveyard() -> None:
    s = scenario({"hand": ["Recover"], "in_play": ["Swamp"] * 3, "graveyard": ["Shock"]},
                 None, "postcombat_main", library=_LIBRARY)
    assert heuristic_answer(s) == "pass"


def test_doomed_necromancer_brings_back_the_best_creature() -> None:
    """Doomed Necromancer: "{B}, {T}, Sacrifice Doomed Necromancer: Return target creature card
    from your graveyard to play." Craw Wurm (6/4) is worth far more than the 2/2 Necromancer."""
    s = scenario({"in_play": ["Doomed Necromancer", "Swamp"], "graveyard": ["Craw Wurm"]},
                 {"in_play": ["Forest"]}, "end_of_turn", active_player=1, library=_LIBRARY)
    s.pass_priority()
    assert heuristic_answer(s).startswith("activate Doomed Necromancer")


def test_peek_at_the_opponents_end_of_turn() -> None:
    """Peek: "Look at target player's hand. Draw a card." It replaces itself, and mana left at
    the opponent's end of turn is lost anyway."""
    s = scenario({"hand": ["Peek"], "in_play": ["Island"]}, {"in_play": ["Forest"]},
                 "end_of_turn", active_player=1, library=_LIBRARY)
    s.pass_priority()
    assert heuristic_answer(s) == "play Peek"


def test_peek_is_not_worth_main_phase_mana() -> None:
    s = scenario({"hand": ["Peek"], "in_play": ["Island"]}, None, "postcombat_main", library=_LIBRARY)
    assert heuristic_answer(s) == "pass"
