"""Issue 10, class C: Hail of Arrows (damage divided among targets as it is played, 2007 CR
409.1d / 2012 601.2d) and Pithing Needle (a card named as it comes into play, 2012 614.12; a
rule-modifying static on activated abilities, 2007 CR 409.1). Each test quotes the printed text it
checks and cites the rule."""

from __future__ import annotations

from agents import HeuristicAgent
from mtg_env import DecisionKind
from mtg_env.engine.registry import get_card
from mtg_env.engine.view import view_for
from mtg_env.testing import Scenario

K = DecisionKind
LIB = ["Island"] * 5
HAIL = "Hail of Arrows deals X damage divided as you choose among any number of target attacking creatures."


def _choose(s: Scenario) -> str:
    agent = HeuristicAgent(strict=True)
    agent.reset(s.game.decision.player, 0)
    return agent.act(view_for(s.game, s.game.decision.player)).text


def _combat(p0_in_play: list, p1: dict) -> Scenario:
    """Player 0 attacks; player 1 gets priority in the declare-blockers step."""
    s = Scenario({"turn": 3, "step": "declare_blockers", "players": [
        {"library": LIB, "in_play": p0_in_play}, {"library": LIB, **p1}]})
    s.pass_priority(1)
    assert s.game.decision.player == 1
    return s


# -- Hail of Arrows ---------------------------------------------------------------------------

def test_hail_of_arrows_divides_x_damage_among_attackers() -> None:
    """Hail of Arrows: "... deals X damage divided as you choose among any number of target
    attacking creatures." X = 5 among Grizzly Bears (2) and Hill Giant (3): both die (2012
    601.2d: the division is announced as it is played)."""
    s = _combat([{"card": "Grizzly Bears", "attacking": True},
                 {"card": "Hill Giant", "attacking": True}],
                {"hand": ["Hail of Arrows"], "in_play": ["Plains"] * 6})
    s.do("play Hail of Arrows", "X=5", "target Grizzly Bears", "target Hill Giant")
    assert s.game.decision.kind is K.DIVIDE
    s.do("assign 2 damage to Grizzly Bears")
    assert "Grizzly Bears (2 damage), Hill Giant (3 damage)" in s.game.log[-1]
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Hill Giant", False)
    assert s.game.players[1].graveyard[-1].name == "Hail of Arrows"
    assert get_card("Hail of Arrows").text == HAIL


def test_hail_of_arrows_targets_only_attacking_creatures() -> None:
    """"target attacking creatures": a creature that isn't attacking (here a blocker, and an
    untapped creature at home) is not offered; an attacking creature of either player is."""
    s = _combat([{"card": "Grizzly Bears", "attacking": True, "id": "gb"}, "Craw Wurm"],
                {"hand": ["Hail of Arrows"],
                 "in_play": ["Plains"] * 3 + [{"card": "Hill Giant", "blocking": "gb"}]})
    s.do("play Hail of Arrows", "X=2")
    assert s.options() == ["target Grizzly Bears"]


def test_hail_of_arrows_each_target_gets_at_least_one() -> None:
    """"divided as you choose": every target is dealt at least 1 (2012 601.2d), so X = 3 among
    three attackers leaves no choice, and X = 1 allows a single target."""
    s = _combat([{"card": "Grizzly Bears", "attacking": True},
                 {"card": "Hill Giant", "attacking": True},
                 {"card": "Craw Wurm", "attacking": True}],
                {"hand": ["Hail of Arrows"], "in_play": ["Plains"] * 4})
    s.do("play Hail of Arrows", "X=3", "target Grizzly Bears", "target Hill Giant",
         "target Craw Wurm")
    assert s.game.decision.kind is K.PRIORITY
    assert [e[2] for e in s.game.stack[-1].data["divided"]] == [1, 1, 1]


def test_heuristic_casts_hail_of_arrows_to_kill_attackers() -> None:
    """The heuristic player, defending against Grizzly Bears and Hill Giant with five Plains,
    plays Hail of Arrows with X = 5 and divides it 2 / 3 (or 3 / 2) to kill both."""
    s = _combat([{"card": "Grizzly Bears", "attacking": True},
                 {"card": "Hill Giant", "attacking": True}],
                {"hand": ["Hail of Arrows"], "in_play": ["Plains"] * 6})
    assert _choose(s) == "play Hail of Arrows"
    s.do("play Hail of Arrows")
    assert _choose(s) == "X=5"
    s.do("X=5")
    for _ in range(4):
        if s.game.decision.kind is K.PRIORITY:
            break
        s.do(_choose(s))
    s.resolve()
    s.assert_in_play("Grizzly Bears", False)
    s.assert_in_play("Hill Giant", False)
