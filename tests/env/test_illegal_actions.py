"""Illegal actions, PettingZoo's classic-game convention by default: the agent that picks an index
its mask forbids loses at once (-1 for it, +1 for the opponent, both terminated, a warning), and
nothing else about the game changes; ``illegal_action="raise"`` raises instead. On the defaults
the env checkers of Gymnasium and Stable-Baselines3 pass (their random actions are mostly
illegal)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import mtg_env
from mtg_env import IllegalActionError, SingleAgentEnv
from mtg_env.env import IllegalActionWarning, raw_env
from mtg_env.env.aec import ILLEGAL_MOVE_WARNING
from mtg_env.vector import MtgVectorEnv


def _ending_removed(state_json: str) -> dict:
    """A game's state without what ending it changes: the result, the pending decision and
    procedure frames, the log, and the conceded flags."""
    state = json.loads(state_json)
    for key in ("winner", "is_over", "end_reason", "decision", "frames", "log"):
        state.pop(key)
    for player in state["players"]:
        player.pop("conceded")
    return state


def _forbidden(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


def _play_legal(e, steps: int, seed: int = 0) -> None:
    """A few random legal moves, so the illegal one comes mid-game, not at the mulligan."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# -- checkers -----------------------------------------------------------------------------------
def test_gymnasium_env_checker_passes_on_the_defaults() -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SingleAgentEnv())


@pytest.mark.parametrize("flatten", [False, True])
def test_stable_baselines3_env_checker_passes_on_the_defaults(flatten: bool) -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observations of tables
        sb3_checker.check_env(SingleAgentEnv(seed=0, flatten=flatten), warn=True)


# -- the AEC env --------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [mtg_env.env, raw_env], ids=["env", "raw_env"])
def test_an_illegal_index_loses_the_game_and_changes_nothing_else(make) -> None:
    e = make(seed=4, max_turns=30)
    e.reset()
    _play_legal(e, 12)
    game = e.unwrapped.game
    agent = e.agent_selection
    other = next(a for a in e.possible_agents if a != agent)
    seat = e.possible_agents.index(agent)
    obs, *_ = e.last()
    bad = _forbidden(obs["action_mask"])
    before = game.to_json()
    log_before = list(game.log)
    with pytest.warns(IllegalActionWarning) as caught:
        e.step(bad)
    assert [str(w.message) for w in caught] == [ILLEGAL_MOVE_WARNING]
    assert e.terminations == {agent: True, other: True}
    assert e.truncations == {agent: False, other: False}
    assert e.rewards == {agent: -1.0, other: 1.0}
    assert game.is_over and game.winner == 1 - seat and game.end_reason == "concession"
    assert f"action {bad} " in e.infos[agent]["illegal_action"]
    assert "illegal_action" not in e.infos[other]
    assert _ending_removed(game.to_json()) == _ending_removed(before)
    assert game.log[:len(log_before)] == log_before
    # the episode then ends the PettingZoo way: each agent sees its result and steps None
    results = {}
    while e.agents:
        _, reward, term, trunc, _info = e.last()
        results[e.agent_selection] = (reward, term, trunc)
        e.step(None)
    assert results == {other: (1.0, True, False), agent: (-1.0, True, False)}


def test_raise_mode_raises_a_clear_error_and_leaves_the_game_unchanged() -> None:
    e = mtg_env.env(seed=4, max_turns=30, illegal_action="raise")
    e.reset()
    _play_legal(e, 12)
    game = e.unwrapped.game
    agent = e.agent_selection
    obs, *_ = e.last()
    bad = _forbidden(obs["action_mask"])
    before = game.to_json()
    with warnings.catch_warnings():
        warnings.simplefilter("error", IllegalActionWarning)
        with pytest.raises(IllegalActionError, match=rf"action {bad} .* not legal for {agent}'s"):
            e.step(bad)
    assert game.to_json() == before
    assert not any(e.terminations.values()) and e.agent_selection == agent
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))  # the game goes on


@pytest.mark.parametrize("action", [None, 10**6, -1, 1.5, "0"])
def test_actions_outside_the_space_raise_in_either_mode(action) -> None:
    """Only an index of the action space is a move the mode governs; anything else is a
    caller's mistake (``env()`` fails PettingZoo's bounds assertion before this)."""
    e = raw_env(seed=4)
    e.reset()
    before = e.game.to_json()
    with pytest.raises(IllegalActionError):
        e.step(action)
    assert e.game.to_json() == before and not any(e.terminations.values())


def test_the_shaped_return_of_an_illegal_loss_is_the_plain_one() -> None:
    """With reward shaping the potential drops to 0 when the illegal move ends the game, as
    after any last move: the shaping terms cancel and the returns are exactly -1 and +1."""
    e = raw_env(seed=7, max_turns=30, reward_shaping=0.5)
    e.reset()
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(3)
    for _ in range(60):
        agent = e.agent_selection
        obs, reward, *_ = e.last()
        totals[agent] += reward
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if e.game.is_over:
            pytest.skip("the game ended before the illegal move")
    loser = e.agent_selection
    obs, reward, *_ = e.last()
    totals[loser] += reward
    with pytest.warns(IllegalActionWarning):
        e.step(_forbidden(obs["action_mask"]))
    while e.agents:
        agent = e.agent_selection
        _, reward, *_ = e.last()
        totals[agent] += reward
        e.step(None)
    winner = next(a for a in e.possible_agents if a != loser)
    assert totals[loser] == pytest.approx(-1.0, abs=1e-9)
    assert totals[winner] == pytest.approx(1.0, abs=1e-9)


def test_the_warning_text_is_fixed_so_python_shows_it_once() -> None:
    """The default warning filter keys on the text: one fixed text is one line per run, not one
    per illegal move; the move is in the infos."""
    caught_texts = set()
    for seed in (1, 2):
        e = raw_env(seed=seed)
        e.reset()
        obs, *_ = e.last()
        with pytest.warns(IllegalActionWarning) as caught:
            e.step(_forbidden(obs["action_mask"]))
        caught_texts |= {str(w.message) for w in caught}
    assert caught_texts == {ILLEGAL_MOVE_WARNING}


# -- SingleAgentEnv ------------------------------------------------------------------------------
def test_single_agent_illegal_index_is_the_learners_loss_and_changes_nothing_else() -> None:
    env = SingleAgentEnv(seed=5, flatten=True, max_turns=30)
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(8):
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        assert not (term or trunc)
    before = env.game.to_json()
    bad = _forbidden(env.action_masks())
    with pytest.warns(IllegalActionWarning):
        _, reward, term, trunc, info = env.step(bad)
    assert (reward, term, trunc) == (-1.0, True, False)
    assert f"action {bad} " in info["illegal_action"]
    assert env.game.winner == 1 - env.seat and env.game.end_reason == "concession"
    assert _ending_removed(env.game.to_json()) == _ending_removed(before)


def test_single_agent_raise_mode_leaves_the_game_unchanged() -> None:
    env = SingleAgentEnv(seed=5, flatten=True, illegal_action="raise")
    env.reset(seed=5)
    before = env.game.to_json()
    bad = _forbidden(env.action_masks())
    with pytest.raises(IllegalActionError, match=rf"action {bad} \("):
        env.step(bad)
    assert env.game.to_json() == before
    env.step(int(np.flatnonzero(env.action_masks())[0]))


@pytest.mark.parametrize("mode", ["loss", "raise"])
def test_an_opponent_that_picks_an_illegal_index_raises_in_either_mode(mode: str) -> None:
    """The mode is the learner's: the opponent belongs to the environment, so its illegal choice
    is reported as the bug it is, never turned into a free win for the learner."""
    def illegal(_obs: np.ndarray, mask: np.ndarray) -> int:
        return _forbidden(mask)

    env = SingleAgentEnv(opponent=illegal, learner_seat=1, seed=3, flatten=True,
                         illegal_action=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error", IllegalActionWarning)
        with pytest.raises(IllegalActionError, match="not legal for player_0's"):
            env.reset(seed=3)  # the opponent's first decision comes in reset or the first steps
            for _ in range(10):
                env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_bad_modes_are_refused() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="illegal_action"):
        raw_env(illegal_action="ignore")


# -- vector envs ----------------------------------------------------------------------------------
def test_vector_envs_keep_raising() -> None:
    """A vector env trains masked policies: an illegal index is a bug to stop at, so its games
    take only ``illegal_action="raise"`` (checked before any game moves, see test_vector.py)."""
    venv = MtgVectorEnv(1, seed=0, max_turns=5)
    assert venv.config["illegal_action"] == "raise"
    assert MtgVectorEnv(1, seed=0, max_turns=5, illegal_action="raise").config["illegal_action"] == "raise"
    with pytest.raises(ValueError, match="illegal_action must be 'raise'"):
        MtgVectorEnv(1, seed=0, illegal_action="loss")
