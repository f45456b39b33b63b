"""Draws in the game log. A hand is a hidden zone (2007 CR 217.1, 2012 400.2): the public log says
how many cards a player draws ("player 1 draws a card"), and only the drawing player's own log
(``Game.log_for``) names them ("player 0 draws Shock"). The hidden lines travel with copies and
the game's JSON, and no other line of the opponent's log names a drawn card."""

from __future__ import annotations

import json
import random

from mtg_env import Game
from mtg_env.testing import Scenario, position

LIB = ["Shock", "Mountain", "Kamahl, Pit Fighter", "Forest"]


def _private_lines(g: Game, player: int) -> list[str]:
    return [line for line, public in zip(g.log_for(player), g.log, strict=True) if line != public]


def test_the_opening_hands_are_counted_in_public_and_named_for_their_owner() -> None:
    g = Game.new(["starter_green", "starter_red"], seed=1, starting_player=0)
    assert g.log[:2] == ["player 0 draws 7 cards", "player 1 draws 7 cards"]
    for pl in (0, 1):
        mine = g.log_for(pl)[pl]
        assert mine == f"player {pl} draws 7 cards: " + "; ".join(c.label for c in g.players[pl].hand)
        assert g.log_for(1 - pl)[pl] == g.log[pl]
    assert g.log_for(None) == g.log


def test_the_draw_step_draw() -> None:
    """2007 CR 304.1: the active player draws in their draw step."""
    s = Scenario({"turn": 3, "step": "upkeep", "players": [{"library": LIB}, {"library": LIB}]})
    s.pass_priority(2)
    g = s.game
    assert "player 0 draws a card" in g.log
    assert _private_lines(g, 0) == ["player 0 draws Shock"]
    assert _private_lines(g, 1) == []
    assert not any("Shock" in line for line in g.log_for(1))


def test_several_cards_drawn_at_once_make_one_line_and_names_with_commas_stay_apart() -> None:
    """Counsel of the Soratami: "Draw two cards." (the second is a legend with a comma)."""
    s = Scenario(position("precombat_main", {"hand": ["Counsel of the Soratami"],
                                             "in_play": ["Island"] * 3,
                                             "library": ["Mountain", "Kamahl, Pit Fighter", "Forest"]}))
    s.do("play Counsel of the Soratami")
    s.resolve()
    g = s.game
    assert "player 0 draws 2 cards" in g.log
    assert _private_lines(g, 0) == ["player 0 draws 2 cards: Mountain; Kamahl, Pit Fighter"]
    assert "Kamahl" not in " ".join(g.log_for(1))


def test_a_draw_from_a_short_library_logs_the_card_then_the_empty_library() -> None:
    """Tidings ("Draw four cards.") with one card left: one card drawn, then the empty library
    (2007 CR 420.5g makes that a loss at the next check)."""
    s = Scenario(position("precombat_main", {"hand": ["Tidings"], "in_play": ["Island"] * 5,
                                             "library": ["Forest"]}, {"library": LIB}))
    s.do("play Tidings")
    s.pass_priority(2)
    g = s.game
    i = g.log.index("player 0 draws a card")
    assert g.log[i + 1] == "player 0 draws from an empty library"
    assert g.log_for(0)[i] == "player 0 draws Forest"
    s.assert_winner(1)


def test_a_mulligan_draw_is_logged_the_same_way() -> None:
    g = Game.new(["starter_green", "starter_red"], seed=4, starting_player=0)
    g.apply("mulligan")
    assert g.log[-2:] == ["player 0 mulligans to 6", "player 0 draws 6 cards"]
    assert g.log_for(0)[-1].startswith("player 0 draws 6 cards: ")
    assert g.log_for(1)[-1] == "player 0 draws 6 cards"


def test_no_log_line_of_a_player_names_a_card_the_opponent_drew() -> None:
    """Whole random games: every hidden line is the drawing player's; the opponent's log never
    names a card drawn (the public line stands in for it there), and copies and the JSON keep
    the hidden lines."""
    for seed in range(4):
        rng = random.Random(seed)
        g = Game.new(["starter_green", "starter_red"], seed=seed, max_turns=30)
        while not g.is_over:
            g.apply(rng.choice(g.decision.options))
        assert len(g.private_log) > 10
        for i, pl, text in g.private_log:
            assert g.log[i].startswith(f"player {pl} draws ") and g.log[i] != text
            drawn = text.split(": ", 1)[1].split("; ") if ": " in text else [text.split(" draws ", 1)[1]]
            assert not any(name in g.log[i] for name in drawn)
            assert g.log_for(1 - pl)[i] == g.log[i]
            assert g.log_for(pl)[i] == text
        assert g.copy().log_for(0) == g.log_for(0)
        again = Game.from_json(g.to_json())
        assert [again.log_for(p) for p in (0, 1)] == [g.log_for(p) for p in (0, 1)]


def test_a_game_saved_before_hidden_lines_loads() -> None:
    """A game state without ``private_log`` (saved by an older version) loads with none."""
    d = json.loads(Game.new(["starter_green", "starter_red"], seed=1).to_json())
    for key in ("private_log", "goldfish", "goldfish_dead_turn"):
        del d[key]
    g = Game.from_json(json.dumps(d))
    assert g.private_log == () and g.log_for(0) == g.log and g.goldfish is None
