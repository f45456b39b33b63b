"""The search baseline: plays legal moves from its redacted view and beats random play."""

from __future__ import annotations

import pytest

from agents import HeuristicAgent, MctsAgent, RandomAgent, make_agent
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


def _first_main_phase(seed: int = 5) -> Game:
    """A game at the first searched decision after the mulligans."""
    g = Game.new([Deck.builtin("kamahls_temper"), Deck.builtin("molimos_might")], seed=seed,
                 skip_trivial=True)
    while g.decision.kind.value == "mulligan":
        g.apply(g.decision.find("keep"))
    return g


def test_the_search_is_reproducible_from_its_seed() -> None:
    """An iteration budget makes the choice a function of the seed (results do not depend on the
    machine's speed), so tournaments with the search agent are reproducible."""
    decks = [Deck.builtin("kamahls_temper"), Deck.builtin("molimos_might")]
    games = [play_game(decks, [MctsAgent(iterations=2), HeuristicAgent()], seed=3, record=rec)
             for rec in ([], [])]
    assert games[0].turn == games[1].turn and games[0].winner == games[1].winner


def test_bare_mana_abilities_are_not_searched() -> None:
    """Floating mana by hand when passing is possible only risks mana burn (2007 CR 300.3), so
    the search's candidates leave bare mana abilities out (the heuristic's choice stays in)."""
    agent = MctsAgent(iterations=1)
    agent.reset(0, 1)
    g = _first_main_phase()
    for _ in range(200):
        d = g.decision
        if any(o.verb == "mana" for o in d.options) and any(o.verb == "pass" for o in d.options):
            break
        g.apply(d.options[-1])
    d = g.decision
    default = next(o for o in d.options if o.verb == "pass")
    cands = agent._candidates(d.options, default)
    assert cands[0] is default and all(o.verb != "mana" for o in cands)
    assert len(agent._candidates(d.options, default)) <= agent.width


def test_root_search_keeps_the_heuristic_choice_unless_another_scores_better() -> None:
    """Candidates are compared on the same determinizations (common random numbers); when every
    candidate scores the same the heuristic's choice is played, never an arbitrary one."""
    agent = MctsAgent(iterations=3)
    agent.reset(0, 2)
    g = _first_main_phase()
    view = g.view(g.decision.player)
    default = HeuristicAgent().act(view)
    agent._rollout = lambda game, me, seed: 0.5  # every candidate the same
    assert agent._search_root(view, agent._candidates(g.decision.options, default), default) is default


def test_single_observer_tree_search_plays_legal_moves_and_beats_random() -> None:
    decks = [Deck.builtin("kamahls_temper"), Deck.builtin("molimos_might")]
    wins = 0
    for seed in range(2):
        agents = [RandomAgent(), RandomAgent()]
        agents[seed % 2] = MctsAgent(iterations=8, tree=1, turns=1)
        g = play_game(decks, agents, seed=seed)
        wins += g.winner == seed % 2
    assert wins == 2


def test_a_time_budget_runs_at_least_one_iteration() -> None:
    agent = MctsAgent(ms=0.001)
    agent.reset(0, 1)
    g = _first_main_phase()
    for _ in range(200):
        if len(agent._candidates(g.decision.options, g.decision.options[0])) > 1:
            break
        g.apply(g.decision.options[-1])
    agent.act(g.view(g.decision.player))
    assert agent.last_iterations >= 1 and agent.searched == 1


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:tree=2", "tree must be 0"), ("mcts:iters=0", "iterations >= 1"),
    ("mcts:width=0", "width >= 1"), ("mcts:rollout=smart", "rollout must be")])
def test_bad_search_parameters_are_refused(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_search_parameters_by_name() -> None:
    agent = make_agent("mcts:iters=4:turns=3:width=5:tree=1")
    assert (agent.iterations, agent.turns, agent.width, agent.tree) == (4, 3, 5, 1)
