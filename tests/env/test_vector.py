"""The vector envs: batch arrays with exact masks, SAME_STEP autoreset, seeding independent of the
number of worker processes, batched and agent opponents, bad actions refused before any game
moves, and MaskablePPO training on the SB3 adapter."""

from __future__ import annotations

import numpy as np
import pytest

from mtg_env import IllegalActionError
from mtg_env.encoding import CapacityError
from mtg_env.vector import MtgVectorEnv, SubprocMtgVectorEnv

CFG = {"decks": ("starter_green", "starter_red"), "max_turns": 8}


def first_legal(masks: np.ndarray) -> np.ndarray:
    """A deterministic policy: the lowest legal index of every game."""
    return masks.argmax(axis=1)


def run(venv, steps: int) -> tuple[list[np.ndarray], list[np.ndarray], int]:
    obs, _ = venv.reset(seed=5)
    seen, rewards, ended = [obs], [], 0
    for _ in range(steps):
        obs, r, term, trunc, _info = venv.step(first_legal(venv.action_masks()))
        seen.append(obs)
        rewards.append(r)
        ended += int((term | trunc).sum())
    return seen, rewards, ended


def test_batch_shapes_and_exact_masks() -> None:
    venv = MtgVectorEnv(3, seed=1, **CFG)
    obs, info = venv.reset()
    assert obs.shape == (3, venv.single_observation_space.shape[0]) and obs.dtype == np.float32
    masks = venv.action_masks()
    assert masks.shape == (3, venv.single_action_space.n) and masks.dtype == np.bool_
    assert (info["action_mask"] == masks).all()
    for game, seat in zip(venv.games(), venv.seats(), strict=True):
        assert game.decision.player == seat  # every game waits for its learner
    for slot, m in zip(venv._batch.slots, masks, strict=True):
        assert set(np.flatnonzero(m)) == set(slot.env.observer.legal(slot.env.game))


def test_games_end_reset_in_the_same_step_and_report_the_outcome() -> None:
    venv = MtgVectorEnv(2, seed=2, **CFG)
    venv.reset()
    for _ in range(2000):
        obs, r, term, trunc, info = venv.step(first_legal(venv.action_masks()))
        if (term | trunc).any():
            break
    else:
        pytest.fail("no game ended within 2000 steps")
    i = int(np.flatnonzero(term | trunc)[0])
    assert info["_final_obs"][i] and info["final_obs"][i].shape == obs[i].shape
    final = info["final_info"]
    assert final["end_reason"][i] and final["length"][i] > 0
    if term[i]:  # a finished game pays +1/-1 to the learner
        assert r[i] == (1.0 if final["winner"][i] == final["seat"][i] else -1.0)
    # the row now holds the new game's first observation, waiting for its learner
    game = venv.games()[i]
    assert not game.is_over and game.decision.player == venv.seats()[i]
    assert (obs[i] != info["final_obs"][i]).any()


def test_same_seed_same_games_for_any_number_of_processes() -> None:
    """Each game has its own SeedSequence: in-process, one worker and two workers agree."""
    a = run(MtgVectorEnv(4, **CFG), 60)
    b = SubprocMtgVectorEnv(4, num_workers=2, context="fork", **CFG)
    try:
        bb = run(b, 60)
    finally:
        b.close()
    for x, y in zip(a[0], bb[0], strict=True):
        assert np.array_equal(x, y)
    for x, y in zip(a[1], bb[1], strict=True):
        assert np.array_equal(x, y)
    assert a[2] == bb[2]


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    venv = MtgVectorEnv(2, seed=3, **CFG)
    venv.reset()
    before = [g.decisions_made for g in venv.games()]
    masks = venv.action_masks()
    actions = first_legal(masks)
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(IllegalActionError, match="game 1"):
        venv.step(actions)
    with pytest.raises(IllegalActionError, match="expected 2 actions"):
        venv.step(actions[:1])
    assert [g.decisions_made for g in venv.games()] == before
    assert (venv.action_masks() == masks).all()


def test_subprocess_env_refuses_illegal_actions_in_the_parent() -> None:
    venv = SubprocMtgVectorEnv(2, num_workers=2, context="fork", seed=3, **CFG)
    try:
        venv.reset()
        masks = venv.action_masks()
        actions = first_legal(masks)
        actions[0] = int(np.flatnonzero(~masks[0])[0])
        with pytest.raises(IllegalActionError, match="game 0"):
            venv.step(actions)
        assert (venv.action_masks() == masks).all()
    finally:
        venv.close()


class CountingBatchPolicy:
    """A batch opponent: plays the lowest legal index and records how many games it saw."""

    def __init__(self) -> None:
        self.batch_sizes: list[int] = []

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert observations.shape[0] == masks.shape[0]
        self.batch_sizes.append(len(masks))
        return masks.argmax(axis=1)


def test_a_batch_policy_decides_for_several_games_in_one_call() -> None:
    policy = CountingBatchPolicy()
    venv = MtgVectorEnv(6, opponent=policy, learner_seat=0, seed=4, **CFG)
    venv.reset()
    for _ in range(30):
        venv.step(first_legal(venv.action_masks()))
    assert max(policy.batch_sizes) > 1
    assert all(s == 0 for s in venv.seats())


def test_an_agent_opponent_by_name() -> None:
    venv = MtgVectorEnv(2, opponent="heuristic", seed=6, **CFG)
    _, _, ended = run(venv, 40)
    assert all(slot.agent is not None for slot in venv._batch.slots)
    assert venv._batch.slots[0].agent is not venv._batch.slots[1].agent  # one copy per game
    assert ended >= 0


@pytest.mark.parametrize("bad", [0, -1, 2.5, "4"])
def test_bad_num_envs(bad) -> None:
    with pytest.raises(ValueError, match="num_envs"):
        MtgVectorEnv(bad)


def test_dict_observations_are_refused() -> None:
    with pytest.raises(ValueError, match="flatten=True"):
        MtgVectorEnv(2, flatten=False)


def test_maskable_ppo_trains_on_the_sb3_adapter() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is in the [rl] extra")
    from mtg_env.vector import Sb3VecEnv

    venv = Sb3VecEnv(MtgVectorEnv(2, seed=0, **CFG))
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=32, n_epochs=1,
                                    policy_kwargs={"net_arch": [16]}, seed=0, device="cpu")
    model.learn(64)
    assert model.num_timesteps >= 64
    obs = venv.reset()
    masks = venv.action_masks()
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert all(masks[i, a] for i, a in enumerate(actions))  # masked predictions are legal
    venv.close()


def test_sb3_adapter_reports_terminal_observations() -> None:
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 is in the [rl] extra")
    from mtg_env.vector import Sb3VecEnv

    venv = Sb3VecEnv(MtgVectorEnv(2, seed=7, **CFG))
    venv.reset()
    for _ in range(2000):
        venv.step_async(first_legal(venv.action_masks()))
        obs, _rewards, dones, infos = venv.step_wait()
        if dones.any():
            i = int(np.flatnonzero(dones)[0])
            assert infos[i]["terminal_observation"].shape == obs[i].shape
            assert "TimeLimit.truncated" in infos[i] and "winner" in infos[i]
            return
    pytest.fail("no game ended within 2000 steps")


def _overflowing(venv, steps: int) -> list[tuple[bool, bool, float, dict]]:
    """Step ``venv`` with random legal actions, keeping every opening hand; the (terminated,
    truncated, reward, final info) of every game that ended."""
    venv.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = []
    for _ in range(steps):
        keep = [1 if m[1] else int(rng.choice(np.flatnonzero(m))) for m in venv.action_masks()]
        _obs, r, term, trunc, info = venv.step(np.array(keep))  # index 1 keeps a hand
        for i in np.flatnonzero(term | trunc):
            final = {k: v[i] for k, v in info["final_info"].items()
                     if not k.startswith("_") and info["final_info"]["_" + k][i]}
            ended.append((bool(term[i]), bool(trunc[i]), float(r[i]), final))
        assert venv.action_masks().any(axis=1).all()  # every game waits for a legal action
    return ended


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_a_game_that_outgrows_the_capacities_is_truncated(opponent) -> None:
    """``max_hand=7``: the first 8th card in a hand (the draw of the player on the draw) no
    longer fits the hand table. The game ends truncated with reward 0 and the error's text,
    whether it overflowed on the learner's move or the opponent's, and the next game starts."""
    venv = MtgVectorEnv(2, opponent=opponent, seed=0, max_hand=7, **CFG)
    ended = _overflowing(venv, 60)
    cut = [e for e in ended if e[3]["end_reason"] == "capacity"]
    assert cut, ended
    for term, trunc, reward, final in cut:
        assert not term and trunc and reward == 0.0 and final["winner"] == -1
        assert "max_hand=7" in final["capacity_error"]


def test_capacity_overflow_raise_and_bad_values() -> None:
    venv = MtgVectorEnv(2, seed=0, max_hand=7, capacity_overflow="raise", **CFG)
    with pytest.raises(CapacityError, match="max_hand=7"):
        _overflowing(venv, 60)
    with pytest.raises(ValueError, match="capacity_overflow must be 'truncate' or 'raise'"):
        MtgVectorEnv(2, capacity_overflow="drop", **CFG)


def test_subprocess_env_truncates_an_overflowing_game_too() -> None:
    venv = SubprocMtgVectorEnv(2, seed=0, num_workers=2, context="fork", max_hand=7, **CFG)
    try:
        assert any(e[3]["end_reason"] == "capacity" for e in _overflowing(venv, 60))
    finally:
        venv.close()
