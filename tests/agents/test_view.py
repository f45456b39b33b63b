"""The redacted view: a player sees everything public and nothing hidden."""

from __future__ import annotations

import random

from mtg_env import Deck, Game
from mtg_env.engine.view import view_for
from mtg_env.sim.decks import default_deck_names


def _midgame(seed: int = 5, decisions: int = 120) -> Game:
    names = default_deck_names()
    g = Game.new([Deck.builtin(names[0]), Deck.builtin(names[1])], seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if g.is_over:
            break
        g.apply(rng.choice(g.decision.options))
    return g


def test_hidden_zones_do_not_change_the_view() -> None:
    """Two states that differ only in the opponent's hand and both libraries' order look the same."""
    for seed in range(6):
        g = _midgame(seed)
        if g.is_over:
            continue
        viewer = g.decision.player
        opp = 1 - viewer
        h = g.copy()
        P, Q = h.players[opp], h.players[viewer]
        if P.hand and P.library:
            P.hand[0], P.library[-1] = P.library[-1], P.hand[0]  # a different opponent hand
        P.library.reverse()
        Q.library.reverse()
        assert view_for(g, viewer).to_dict() == view_for(h, viewer).to_dict()
        # ... while the opponent's own view of the changed hand differs.
        if g.players[opp].hand and g.players[opp].library and \
                g.players[opp].hand[0].name != g.players[opp].library[-1].name:
            assert view_for(g, opp).to_dict()["players"][opp] != view_for(h, opp).to_dict()["players"][opp]


def test_view_hides_the_opponents_hand_and_decision() -> None:
    g = _midgame(2, 40)
    viewer = g.decision.player
    me, them = view_for(g, viewer), view_for(g, 1 - viewer)
    assert me.decision is g.decision and them.decision is None
    assert them.deciding == viewer and them.deciding_kind == g.decision.kind
    assert me.opponent.hand is None and me.opponent.hand_size == len(g.players[1 - viewer].hand)
    assert [c.cid for c in me.me.hand] == [c.cid for c in g.players[viewer].hand]
    assert sorted(c.cid for c in me.library) == sorted(c.cid for c in g.players[viewer].library)
    assert [c.label for c in me.library] == sorted(c.label for c in g.players[viewer].library)
    assert me.opponent.library_size == len(g.players[1 - viewer].library)


def test_view_is_a_snapshot_of_public_state() -> None:
    g = _midgame(3, 150)
    if g.is_over:
        return
    v = view_for(g, 0)
    assert {p.id for p in v.permanents} == {p.id for p in g.permanents}
    for p in v.permanents:
        q = g.perm(p.id)
        assert (p.power, p.toughness, p.tapped, p.controller, p.keywords) == \
            (q.power, q.toughness, q.tapped, q.controller, q.keywords)
        assert v.perm(p.id) is p
    before = v.to_dict()
    g.apply(g.decision.options[-1])
    assert v.to_dict() == before  # the game moved on; the view did not
