"""The search baseline: plays legal moves from its redacted view and beats random play."""

from __future__ import annotations

import pytest

from agents import MctsAgent, RandomAgent, make_agent
from mtg_env import Deck, Game
from mtg_env.engine.view import sample_game
from mtg_env.sim.runner import play_game


def test_mcts_beats_random_with_a_small_budget() -> None:
    decks = [Deck.builtin("kamahls_temper"), Deck.builtin("molimos_might")]
    wins = 0
    for seed in range(4):
        seat = seed % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[seat] = MctsAgent(iterations=12, depth=30)
        g = play_game(decks, agents, seed=seed)
        assert g.is_over
        wins += g.winner == seat
    assert wins >= 3


def test_sampled_games_keep_what_the_viewer_knows() -> None:
    g = Game.new([Deck.builtin("starter_green"), Deck.builtin("starter_red")], seed=4)
    me = g.decision.player
    view = g.view(me)
    s = sample_game(view, seed=1)
    assert [c.cid for c in s.players[me].hand] == [c.cid for c in g.players[me].hand]
    assert [a.text for a in s.decision.options] == [a.text for a in g.decision.options]
    g.apply(g.decision.options[0])
    with pytest.raises(ValueError, match="moved on"):
        sample_game(view, seed=2)


def test_make_agent_knows_mcts() -> None:
    assert isinstance(make_agent("mcts"), MctsAgent)
