"""mtg_env.agent_registry: agents built by spec without mtg_env importing the ``agents``
package; ``agents`` registers its names when imported, and the registry imports it by name the
first time it meets a name nobody registered."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mtg_env import SingleAgentEnv
from mtg_env.agent_registry import (
    UnknownAgentError,
    agent_specs,
    make_agent,
    register_agent_factory,
    unregister_agent_factory,
)

ROOT = Path(__file__).resolve().parents[1]


class FirstLegal:
    """A tiny agent that records the spec it was built from."""

    name = "first_legal"

    def __init__(self, spec: str) -> None:
        self.spec = spec

    def reset(self, seat: int, seed: int) -> None:
        pass

    def act(self, view):
        return view.decision.options[0]

    def act_masked(self, observation, mask, legal_texts, view=None) -> int:
        return int(np.flatnonzero(mask)[0])


@pytest.fixture
def first_legal():
    register_agent_factory("first_legal", FirstLegal, usage="first_legal[:anything]")
    yield
    unregister_agent_factory("first_legal")


def test_the_baseline_agents_are_built_by_name() -> None:
    assert make_agent("heuristic").name == "heuristic"
    assert make_agent("mcts:ms=50").ms == 50.0
    assert {"heuristic", "mcts", "random", "ppo:PATH"} <= set(agent_specs())


def test_an_unknown_name_raises_naming_the_spec_and_the_known_names() -> None:
    with pytest.raises(UnknownAgentError, match=r"unknown agent 'nobody:x=1': no agent factory is "
                                                r"registered for 'nobody'; known: .*heuristic"):
        make_agent("nobody:x=1")
    assert issubclass(UnknownAgentError, ValueError)
    with pytest.raises(TypeError, match="must be a string"):
        make_agent(3)  # type: ignore[arg-type]


def test_the_factory_errors_pass_through() -> None:
    with pytest.raises(ValueError, match="bad parameter 'speed=3'"):
        make_agent("mcts:speed=3")


def test_a_registered_factory_gets_the_whole_spec(first_legal) -> None:
    agent = make_agent("first_legal:fast")
    assert isinstance(agent, FirstLegal) and agent.spec == "first_legal:fast"
    assert "first_legal[:anything]" in agent_specs()


def test_registering_a_name_twice_needs_replace(first_legal) -> None:
    register_agent_factory("first_legal", FirstLegal)  # the same factory again: fine
    with pytest.raises(ValueError, match="already registered"):
        register_agent_factory("first_legal", lambda spec: None)
    register_agent_factory("first_legal", lambda spec: "other", replace=True)
    assert make_agent("first_legal") == "other"
    for bad in ("", "a:b"):
        with pytest.raises(ValueError, match="agent name"):
            register_agent_factory(bad, FirstLegal)
    with pytest.raises(TypeError, match="callable"):
        register_agent_factory("x", "not a factory")  # type: ignore[arg-type]


def test_env_and_simulation_build_registered_agents(first_legal) -> None:
    from mtg_env.sim import run_matchup
    from mtg_env.vector import MtgVectorEnv

    env = SingleAgentEnv(opponent="first_legal", seed=1, flatten=True, max_turns=3)
    env.reset(seed=1)
    assert isinstance(env._opponent, FirstLegal)
    venv = MtgVectorEnv(1, opponent="first_legal", seed=1, max_turns=3)
    venv.reset()
    m = run_matchup("starter_green", "starter_red", games=2, agents=("first_legal", "random"),
                    seed=1, workers=1, max_turns=3)
    assert m.summary["games"] == 2


def test_a_bad_opponent_name_says_what_an_opponent_can_be() -> None:
    with pytest.raises(ValueError, match=r"bad opponent 'nobody': unknown agent .*; give 'random', "
                                         r"an agent name \(.*heuristic.*\), a policy"):
        SingleAgentEnv(opponent="nobody")


def test_the_interactive_exceptions_belong_to_the_simulation() -> None:
    import agents.human
    from mtg_env.sim import interactive

    for name in ("UndoRequest", "ConcedeRequest", "HumanQuit"):
        assert getattr(agents.human, name) is getattr(interactive, name)


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_the_agents_package_is_imported_by_name_when_needed() -> None:
    res = _run("import sys\nfrom mtg_env.agent_registry import make_agent\n"
               "assert 'agents' not in sys.modules\n"
               "assert make_agent('heuristic').name == 'heuristic'\n"
               "assert 'agents' in sys.modules\n")
    assert res.returncode == 0, res.stderr


def test_without_the_agents_package_the_error_says_so() -> None:
    res = _run("import sys\nsys.modules['agents'] = None\n"
               "from mtg_env.agent_registry import make_agent\n"
               "try:\n    make_agent('heuristic')\nexcept ValueError as exc:\n    print(exc)\n")
    assert res.returncode == 0, res.stderr
    assert "unknown agent 'heuristic'" in res.stdout and "could not be imported" in res.stdout
