"""SingleAgentEnv: Gymnasium's env checker, opponents, seats, and a MaskablePPO smoke run."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mtg_env import SingleAgentEnv


def _play_episode(env: SingleAgentEnv, seed: int) -> tuple[float, bool, bool, int]:
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        np.testing.assert_array_equal(mask, info["action_mask"].astype(bool))
        _obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if term or trunc:
            return reward, term, trunc, steps


@pytest.mark.parametrize("flatten", [False, True])
def test_gymnasium_env_checker(flatten: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SingleAgentEnv(seed=0, max_turns=10, flatten=flatten), skip_render_check=False)


def test_episodes_end_with_the_learners_result() -> None:
    env = SingleAgentEnv(seed=1, flatten=True, max_turns=200)
    seats = set()
    for seed in range(6):
        reward, _term, trunc, steps = _play_episode(env, seed)
        seats.add(env.seat)
        game = env.game
        assert game.is_over and steps > 0
        if trunc or game.winner is None:
            assert reward == 0.0
        else:
            assert reward == (1.0 if game.winner == env.seat else -1.0)
    assert seats == {0, 1}, "the learner's seat is random per episode"


def test_fixed_seat_and_policy_opponent() -> None:
    calls = []

    def lowest_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        calls.append(obs.shape)
        return int(np.flatnonzero(mask)[0])

    env = SingleAgentEnv(opponent=lowest_legal, learner_seat=1, seed=2, flatten=True,
                         max_turns=30)
    for seed in range(2):
        _play_episode(env, seed)
        assert env.seat == 1
    assert calls and calls[0] == env.observation_space.shape


def test_agent_object_opponent_gets_the_redacted_view() -> None:
    class FirstOption:
        name = "first"

        def __init__(self) -> None:
            self.seats: list[int] = []

        def reset(self, player: int, seed: int) -> None:
            self.seats.append(player)

        def act_masked(self, observation, action_mask, legal_texts, view=None) -> int:
            assert view is not None and view.decision is not None
            assert view.decision.player == view.viewer
            first = view.decision.options[0].text
            return next(i for i, t in legal_texts.items() if t == first)

    agent = FirstOption()
    env = SingleAgentEnv(opponent=agent, seed=3, max_turns=20)
    _play_episode(env, 0)
    assert agent.seats == [1 - env.seat]


def test_agent_names_as_opponents() -> None:
    """An agent name (as ``agents.make_agent`` takes it) is an opponent; the env module itself
    does not import the agents package when it loads."""
    import subprocess
    import sys

    env = SingleAgentEnv(opponent="heuristic", seed=5, flatten=True, max_turns=15)
    assert type(env._opponent).__name__ == "HeuristicAgent"
    _play_episode(env, 5)
    assert env.game.is_over
    env = SingleAgentEnv(opponent="mcts:iters=2:width=2", seed=5, max_turns=3)
    assert (env._opponent.iterations, env._opponent.width) == (2, 2)
    code = "import sys, mtg_env; mtg_env.SingleAgentEnv(); print('agents' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_bad_opponents_and_seats() -> None:
    with pytest.raises(ValueError, match=r"bad opponent 'genius': unknown agent.*heuristic"):
        SingleAgentEnv(opponent="genius")
    with pytest.raises(ValueError, match=r"bad opponent 'mcts:depth=x'.*depth must be int"):
        SingleAgentEnv(opponent="mcts:depth=x")
    with pytest.raises(ValueError, match=r"bad opponent 'ppo:/nonexistent/p.zip'"):
        SingleAgentEnv(opponent="ppo:/nonexistent/p.zip")
    with pytest.raises(TypeError):
        SingleAgentEnv(opponent=42)
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv(learner_seat=2)


def test_reset_is_deterministic_for_a_seed() -> None:
    a = SingleAgentEnv(flatten=True, max_turns=50)
    b = SingleAgentEnv(flatten=True, max_turns=50)
    for env in (a, b):
        env.reset(seed=42)
    assert a.seat == b.seat
    ra = _play_episode(a, 42)
    rb = _play_episode(b, 42)
    assert ra == rb
    assert a.game.to_json() == b.game.to_json()


def test_maskable_ppo_learns_end_to_end() -> None:
    """A few thousand MaskablePPO steps run: rollouts use the masks, updates give finite
    losses, and the trained policy only picks legal actions."""
    torch = pytest.importorskip("torch", reason="MaskablePPO needs the [rl] extra")
    pytest.importorskip("sb3_contrib", reason="MaskablePPO needs the [rl] extra")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy

    torch.set_num_threads(1)
    env = SingleAgentEnv(seed=0, flatten=True, max_turns=25)
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=2, seed=0,
                        policy_kwargs={"net_arch": [64, 64]}, verbose=0)
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(total_timesteps=2048)
    after = list(model.policy.parameters())
    assert any(not torch.equal(x, y) for x, y in zip(before, after, strict=True))
    assert all(torch.isfinite(p).all() for p in after)
    logs = model.logger.name_to_value
    assert "train/loss" not in logs or np.isfinite(logs["train/loss"])
    obs, _ = env.reset(seed=5)
    for _ in range(200):
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)], "the trained policy picked a masked-out action"
        obs, _, term, trunc, _ = env.step(int(action))
        if term or trunc:
            obs, _ = env.reset()
    mean, _ = evaluate_policy(model, env, n_eval_episodes=2, use_masking=True, warn=False)
    assert -1.0 <= mean <= 1.0


def test_illegal_action_is_a_loss_or_raises() -> None:
    from mtg_env import IllegalActionError
    from mtg_env.env import IllegalActionWarning

    env = SingleAgentEnv(seed=4, flatten=True)  # "loss" is the default, as docs/env.md says
    assert env.illegal_action == "loss"
    env.reset(seed=4)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.warns(IllegalActionWarning):
        _, reward, term, trunc, info = env.step(bad)
    assert (reward, term, trunc) == (-1.0, True, False)
    assert f"action {bad}" in info["illegal_action"] and "mulligan decision" in info["illegal_action"]
    assert env.game.is_over and env.game.winner == 1 - env.seat
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = SingleAgentEnv(seed=4, flatten=True, illegal_action="raise")
    strict.reset(seed=4)
    before = strict.game.to_json()
    with pytest.raises(IllegalActionError, match=f"action {bad}"):
        strict.step(bad)
    assert strict.game.to_json() == before
