"""The action mask is exact on the decisions of changing a spell's targets (Shunt,
Twincast; mtg_env/engine/stack.py): every legal new target maps to its permanent, player or stack
slot (``target``) and keeping a target of the copy to the ``accept`` band, even when the kept
target has left play. A copy of a spell has its own stack row, the copier's."""

from __future__ import annotations

from functools import partial

from mtg_env import DecisionKind
from mtg_env.encoding import Observer
from mtg_env.testing import scenario

from .helpers import check_decision

K = DecisionKind
LIB = ["Wall of Wood"] * 5
_pos = partial(scenario, library=LIB)  # both players' libraries are LIB unless given


def test_shunt_new_target_mask_is_exact() -> None:
    s = _pos({"hand": ["Shock"], "in_play": ["Mountain", "Grizzly Bears"]},
             {"hand": ["Shunt"], "in_play": ["Mountain"] * 3 + ["Goblin Piker"]})
    s.do("play Shock", "target Goblin Piker", "pass", "play Shunt", "target Shock")
    s.resolve()
    assert s.game.decision.kind is K.TARGET
    obs = Observer()
    legal = check_decision(obs, s.game)
    assert sorted(obs.act_layout.locate(i)[0] for i in legal) == ["permanent", "player", "player"]


def test_twincast_new_target_mask_is_exact_and_the_copy_has_a_stack_row() -> None:
    s = _pos({"hand": ["Shock", "Cancel"], "in_play": ["Mountain", "Grizzly Bears"] + ["Island"] * 3},
             {"hand": ["Twincast"], "in_play": ["Island", "Island", "Goblin Piker"]})
    s.do("play Shock", "target Goblin Piker", "pass", "play Twincast", "target Shock")
    s.resolve()
    assert s.game.decision.kind is K.TARGET
    obs = Observer()
    legal = check_decision(obs, s.game)
    assert sorted(obs.act_layout.locate(i)[0] for i in legal) == [
        "accept", "permanent", "player", "player"]
    s.do("target player 0")
    o, _ = obs.observe(s.game, 1)
    col = obs.obs_layout.col["stack"]
    rows = o["stack"]
    assert rows[:, col["present"]].sum() == 2
    top = rows[0]  # the copy, top of the stack, is player 1's and targets player 0
    assert top[col["mine"]] == 1 and top[col["n_targets"]] == 1
    assert top[col["target0_kind"]] == 1 and top[col["target0_ref"]] == 2
    assert rows[1][col["mine"]] == 0
    # Player 0 answers the copy: Cancel targets a stack row (the copy's).
    s.do("play Cancel")
    legal = check_decision(obs, s.game)
    assert sorted(obs.act_layout.locate(i)[0] for i in legal) == ["stack", "stack"]


def test_keeping_a_gone_target_maps_to_accept() -> None:
    """The kept target has left play (no slot could name it): keeping it is the accept band."""
    s = _pos({"hand": ["Shock", "Unsummon"], "in_play": ["Mountain", "Island"]},
             {"hand": ["Twincast"], "in_play": ["Island", "Island", "Goblin Piker"]})
    s.do("play Shock", "target Goblin Piker", "pass", "play Twincast", "target Shock", "pass",
         "play Unsummon", "target Goblin Piker")
    s.resolve()
    s.resolve()
    assert s.game.decision.kind is K.TARGET
    obs = Observer()
    legal = check_decision(obs, s.game)
    assert sorted(obs.act_layout.locate(i)[0] for i in legal) == ["accept", "player", "player"]
