"""Starting the game and mulligans (2007 CR 101; RULES_2007 §14): seeded coin flip, opening
hands of seven, sequential mulligans with one fewer card each time, the play/draw rule."""

from __future__ import annotations

import pytest

from mtg_env import DecisionKind, Game, IllegalActionError, MtgError

DECK_A = ["Forest"] * 20 + ["Grizzly Bears"] * 4 + ["Giant Growth"] * 4 + ["Craw Wurm"] * 4 + \
    ["Hill Giant"] * 4 + ["Rushwood Dryad"] * 4
DECK_B = ["Mountain"] * 20 + ["Shock"] * 4 + ["Goblin Piker"] * 4 + ["Mogg Fanatic"] * 4 + \
    ["Lava Axe"] * 4 + ["Raging Goblin"] * 4


def hand_sizes(g: Game) -> tuple[int, int]:
    return len(g.players[0].hand), len(g.players[1].hand)


def test_opening_hands_and_life() -> None:
    """2007 CR 101.3-101.4: each player starts at 20 life and draws seven cards."""
    g = Game.new([DECK_A, DECK_B], seed=1, starting_player=0)
    assert hand_sizes(g) == (7, 7)
    assert [P.life for P in g.players] == [20, 20]
    assert [len(P.library) for P in g.players] == [33, 33]
    d = g.decision
    assert d.kind is DecisionKind.MULLIGAN and d.player == 0
    assert [a.text for a in d.options] == ["keep", "mulligan"]


def test_scenario_15_sequential_mulligans() -> None:
    """RULES_2007 §19 scenario 15 (2007 CR 101.4): the starting player goes to six, then five,
    keeps; only then does the other player decide, and that player's first mulligan is to six."""
    g = Game.new([DECK_A, DECK_B], seed=2, starting_player=1)
    assert g.decision.player == 1
    g.apply("mulligan")
    assert hand_sizes(g) == (7, 6)
    assert len(g.players[1].library) == 34
    assert g.decision.player == 1 and g.decision.kind is DecisionKind.MULLIGAN
    g.apply("mulligan")
    assert hand_sizes(g) == (7, 5)
    assert g.decision.player == 1
    g.apply("keep")
    assert g.decision.player == 0 and g.decision.kind is DecisionKind.MULLIGAN
    g.apply("mulligan")
    assert hand_sizes(g) == (6, 5)
    g.apply("keep")
    assert g.decision.kind is DecisionKind.PRIORITY
    assert g.turn == 1 and g.active_player == 1 and g.step == "upkeep"
    assert [P.mulligans for P in g.players] == [1, 2]
    assert hand_sizes(g) == (6, 5)


def test_mulligan_shuffles_the_hand_back_and_conserves_cards() -> None:
    """2007 CR 101.4: a mulligan shuffles the hand into the library and draws a new hand."""
    g = Game.new([DECK_A, DECK_B], seed=3, starting_player=0)
    g.apply("mulligan")
    P = g.players[0]
    assert len(P.hand) + len(P.library) == 40
    assert sorted(c.name for c in P.hand + P.library) == sorted(DECK_A)


def test_mulligan_down_to_zero_then_only_keep() -> None:
    """2007 CR 101.4: a player may mulligan down to zero cards; with none left only keep
    remains."""
    g = Game.new([DECK_A, DECK_B], seed=4, starting_player=0)
    for n in range(6, -1, -1):
        g.apply("mulligan")
        assert len(g.players[0].hand) == n
    assert [a.text for a in g.decision.options] == ["keep"]
    with pytest.raises(IllegalActionError):
        g.apply("mulligan")
    g.apply("keep")
    assert g.decision.player == 1 and len(g.players[1].hand) == 7


def test_no_free_mulligan() -> None:
    """RULES_2007 §14.6: no free mulligan in two-player: the first mulligan is already to six."""
    g = Game.new([DECK_A, DECK_B], seed=5, starting_player=0)
    g.apply("mulligan")
    assert len(g.players[0].hand) == 6


def test_seeded_coin_flip_decides_the_starting_player() -> None:
    """Public API / 2007 CR 101.2: starting_player=None decides by a seeded coin flip: the same
    seed gives the same starting player; both outcomes occur over seeds."""
    starters = {Game.new([DECK_A, DECK_B], seed=s).active_player for s in range(20)}
    assert starters == {0, 1}
    for s in range(5):
        a = Game.new([DECK_A, DECK_B], seed=s)
        b = Game.new([DECK_A, DECK_B], seed=s)
        assert a.active_player == b.active_player
        assert a.to_json() == b.to_json()
        assert a.decision.player == a.active_player  # the starting player decides first


def test_starting_player_argument() -> None:
    """Public API: Game.new(..., starting_player=1); anything but 0, 1 or None is an error."""
    g = Game.new([DECK_A, DECK_B], seed=0, starting_player=1)
    assert g.active_player == 1 and g.decision.player == 1
    with pytest.raises(MtgError):
        Game.new([DECK_A, DECK_B], seed=0, starting_player=2)
    with pytest.raises(MtgError):
        Game.new([DECK_A], seed=0)


def test_play_draw_rule_after_mulligans() -> None:
    """2007 CR 101.6 (play/draw rule): the starting player skips their first draw; the other
    player draws on turn 2."""
    g = Game.new([DECK_A, DECK_B], seed=6, starting_player=0)
    g.apply("keep")
    g.apply("keep")
    while g.step != "precombat_main":
        g.apply("pass")
    assert hand_sizes(g) == (7, 7)
    while not (g.turn == 2 and g.step == "precombat_main"):
        d = g.decision
        g.apply("pass" if d.kind is DecisionKind.PRIORITY else d.options[-1])
    assert hand_sizes(g)[1] == 8


def test_same_seed_and_actions_give_identical_games() -> None:
    """Public API (determinism): the same seed and the same actions give the same game."""
    def run(seed: int) -> str:
        g = Game.new([DECK_A, DECK_B], seed=seed)
        for _ in range(60):
            if g.is_over:
                break
            g.apply(g.decision.options[-1])
        return g.to_json()
    assert run(11) == run(11)
    assert run(11) != run(12)
