"""The policy-value network as the agents use it, and the search it guides: any board size, fair
play from the view alone, reproducible choices, Q-tilted targets."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the trained network needs the [rl] extra (torch, sb3-contrib)")

from agents import HeuristicAgent, MctsAgent, TrainedAgent, make_agent
from agents.guided_search import drive
from agents.policy_net import MtgNet
from agents.policy_value import PolicyValueNet, grow
from mtg_env import Deck, Game
from mtg_env.encoding import Capacities, CapacityError
from mtg_env.engine.view import sample_game
from mtg_env.sim.runner import play_game
from mtg_env.testing import Scenario

SMALL = {"embed": 8, "d_row": 16, "d_ctx": 32, "hidden": 16}


def _big_board() -> Game:
    """60 permanents on one side, 40 on the other: beyond max_permanents=32 (a token deck's
    board in a long game)."""
    return Scenario({"turn": 3, "step": "precombat_main", "players": [
        {"hand": ["Giant Growth", "Grizzly Bears"], "in_play": ["Forest"] * 30 + ["Grizzly Bears"] * 30},
        {"in_play": ["Mountain"] * 20 + ["Hill Giant"] * 20}]}).game


def _net(seed: int = 0, caps: Capacities | None = None) -> PolicyValueNet:
    import torch

    torch.manual_seed(seed)
    net = MtgNet(caps or Capacities(), **SMALL)
    with torch.no_grad():  # the output layers start near zero: make the answers distinct
        for p in net.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return PolicyValueNet(net)


def _midgame(seed: int = 5, decisions: int = 60) -> Game:
    g = Game.new([Deck.builtin("kamahls_temper"), Deck.builtin("molimos_might")], seed=seed,
                 skip_trivial=True)
    agents = [HeuristicAgent(), HeuristicAgent()]
    for seat, a in enumerate(agents):
        a.reset(seat, seat)
    for _ in range(decisions):
        p = g.decision.player
        g.apply(agents[p].act(g.view(p)))
    while len([o for o in g.decision.options if o.verb != "mana"]) < 2:  # a decision to search
        p = g.decision.player
        g.apply(agents[p].act(g.view(p)))
    return g


def test_a_board_beyond_the_capacities_is_evaluated_on_grown_tables() -> None:
    """A CapacityError never reaches the caller: the failing key is grown (doubled) and the same
    weights evaluate the position over the larger tables."""
    pv = _net()
    g = _big_board()
    with pytest.raises(CapacityError):
        pv.tiers[0].observer.observe(g, 0)
    (ev, ev_opp) = pv.evaluate([(g, 0), (g, 1)])
    assert set(ev.priors) == {a.text for a in g.decision.options}
    assert math.isclose(sum(ev.priors.values()), 1.0, rel_tol=1e-6)
    assert 0.0 <= ev.value <= 1.0 and ev_opp.priors == {}
    assert [t.caps.max_permanents for t in pv.tiers] == [32, 64]
    # asking again reuses the grown tier (a failed update used to leave rows behind)
    pv.evaluate([(g, 0)])
    assert len(pv.tiers) == 2


def test_grown_tables_give_the_same_answer_for_a_position_that_fits() -> None:
    """The network's parameters don't depend on the capacities: a position evaluated over larger
    tables gets the same priors and value (up to float rounding)."""
    pv = _net(1)
    g = _midgame()
    (base,) = pv.evaluate([(g, g.decision.player)])
    big = PolicyValueNet.from_state(pv.net.state_dict(), {"max_permanents": 48, "max_hand": 30},
                                    SMALL)
    (grown,) = big.evaluate([(g, g.decision.player)])
    assert base.priors.keys() == grown.priors.keys()
    for t, p in base.priors.items():
        assert grown.priors[t] == pytest.approx(p, abs=1e-5)
    assert grown.value == pytest.approx(base.value, abs=1e-5)


def test_grow_doubles_the_failing_key_or_takes_what_is_needed() -> None:
    caps = Capacities()
    assert grow(caps, CapacityError("max_permanents", 32, 33, "x")).max_permanents == 64
    assert grow(caps, CapacityError("max_stack", 32, 90, "x")).max_stack == 90
    assert dataclasses.replace(grow(caps, CapacityError("max_hand", 20, 21, "x")), max_hand=20) == caps


def test_trained_and_guided_search_play_a_sixty_permanent_board() -> None:
    """Every agent can play every legal game: the shipped network alone and the search it guides
    both choose a legal option on a board of 60 permanents."""
    g = _big_board()
    legal = {a.text for a in g.decision.options}
    for spec in ("trained", "ppo:agents/data/trained.zip", "mcts:net=trained:iters=2:turns=1"):
        agent = make_agent(spec)
        agent.reset(0, 1)
        assert agent.act(g.view(0)).text in legal


def test_the_trained_agent_is_the_shipped_network_by_name() -> None:
    agent = make_agent("trained")
    assert isinstance(agent, TrainedAgent) and agent.name == "trained"
    assert make_agent("trained:deterministic=0").deterministic is False
    with pytest.raises(ValueError, match="parameters"):
        make_agent("trained:depth=3")


def test_the_guided_search_sees_only_its_view() -> None:
    """Leak test: two games that differ only in what the searcher can't see (the opponent's hand,
    both libraries' order) give the same search and the same choice for the same seed."""
    g = _midgame(decisions=40)
    me = g.decision.player
    other = sample_game(g.view(me), seed=99)
    opp = 1 - me
    assert [c.cid for c in other.players[opp].hand] != [c.cid for c in g.players[opp].hand] or \
        [c.cid for c in other.players[me].library] != [c.cid for c in g.players[me].library]
    pv = _net(2)
    results = []
    for game in (g, other):
        agent = MctsAgent(iterations=3, turns=1, net=pv)
        agent.reset(me, 7)
        choice = agent.act(game.view(me))
        results.append((choice.text, agent.last_search.q if agent.last_search else None))
    assert results[0] == results[1]


def test_the_guided_search_is_reproducible_and_its_target_is_a_distribution() -> None:
    decks = [Deck.builtin("kamahls_temper"), Deck.builtin("molimos_might")]
    pv = _net(3)
    games = [play_game(decks, [MctsAgent(iterations=2, turns=1, net=pv), HeuristicAgent()], seed=3,
                       max_turns=8) for _ in range(2)]
    assert games[0].turn == games[1].turn and games[0].winner == games[1].winner
    g = _midgame(decisions=40)
    agent = MctsAgent(iterations=4, turns=1, net=pv, noise=1.0)
    agent.reset(g.decision.player, 3)
    steps = agent.act_steps(g.view(g.decision.player))
    batches: list[int] = []

    def evaluate(request):
        batches.append(len(request))
        return pv.evaluate(request)

    choice = drive(steps, evaluate)
    result = agent.last_search
    assert result is not None and result.choice is choice
    assert math.isclose(sum(result.policy.values()), 1.0, rel_tol=1e-9)
    assert set(result.policy) <= {a.text for a in g.decision.options}
    assert batches[0] == 1 and max(batches) > 1  # the root, then one batch of leaves per round
    assert result.worlds == 4


def test_a_search_guided_by_a_net_prefers_what_its_rollouts_win() -> None:
    """With the prior flat and the leaves scored by evaluate alone (mix=0), the search's
    improved policy puts the most weight on the option with the best mean leaf score."""
    g = _midgame(decisions=40)
    pv = _net(4)
    agent = MctsAgent(iterations=8, turns=1, net=pv, mix=0.0, width=3)
    agent.reset(g.decision.player, 5)
    agent.act(g.view(g.decision.player))
    r = agent.last_search
    assert r is not None
    best_q = max(r.q, key=r.q.__getitem__)
    prior_free = {t: np.log(p) for t, p in r.policy.items()}
    assert r.q[best_q] >= max(r.q.values()) - 1e-12
    assert prior_free  # a distribution over the considered options


def test_a_bad_net_spec_is_a_clear_error() -> None:
    with pytest.raises(ValueError):
        make_agent("mcts:net=/nonexistent/net.zip")
    with pytest.raises(ValueError, match="root search"):
        MctsAgent(net="trained", tree=1)


def test_the_heuristics_share_of_the_prior() -> None:
    """``hprior=1`` with no weight on the search's values (``cscale=0``) is the heuristic player:
    its choice is played and the improved policy is all on it; ``hprior=0`` leaves the network's
    prior alone."""
    g = _midgame(decisions=40)
    me = g.decision.player
    pv = _net(6)
    heuristic = HeuristicAgent()
    heuristic.reset(me, 0)
    default = heuristic.act(g.view(me)).text
    agent = MctsAgent(iterations=2, turns=1, net=pv, h_prior=1.0, c_scale=0.0)
    agent.reset(me, 1)
    assert agent.act(g.view(me)).text == default
    assert agent.last_search is not None and agent.last_search.policy[default] > 0.999
    (ev,) = pv.evaluate([(sample_game(g.view(me), 0), me)])
    agent = MctsAgent(iterations=2, turns=1, net=pv, h_prior=0.0, c_scale=0.0)
    agent.reset(me, 1)
    agent.act(g.view(me))
    policy = agent.last_search.policy
    total = sum(ev.priors[t] for t in policy)
    for t, p in policy.items():
        assert p == pytest.approx(ev.priors[t] / total, rel=1e-4)
    with pytest.raises(ValueError, match="hprior"):
        MctsAgent(net=pv, h_prior=1.5)
