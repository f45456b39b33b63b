"""``mypy`` on the engine (``mtg_env/engine``, settings in pyproject.toml's ``[tool.mypy]``), so
that the README's test command, which is what CI runs, type checks too. Uses the mypy installed
next to the Python running the tests (the [dev] extra); its cache is .mypy_cache (a run without
one takes a few seconds)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mtg_env.engine.state import FIELD_NAMES, GameState

ROOT = Path(__file__).resolve().parents[1]
MYPY = Path(sys.executable).with_name("mypy")


@pytest.mark.skipif(not MYPY.is_file(), reason=f"mypy is not installed next to {sys.executable} "
                    "(it is in the [dev] extra: pip install -e '.[dev]')")
def test_mypy_engine_is_clean() -> None:
    res = subprocess.run([str(MYPY)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, f"mypy mtg_env/engine found problems:\n{res.stdout}{res.stderr}"


def test_game_state_types_name_every_field() -> None:
    """state.GameState (the fields' types, for mypy) and state.FIELDS name the same fields."""
    assert set(GameState.__annotations__) == FIELD_NAMES
