"""``ruff check .`` on the repository, so that the README's test command, which is what CI runs,
lints too. Uses the ruff installed next to the Python running the tests (the [dev] extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).with_name("ruff")


@pytest.mark.skipif(not RUFF.is_file(), reason=f"ruff is not installed next to {sys.executable} "
                    "(it is in the [dev] extra: pip install -e '.[dev]')")
def test_ruff_check_is_clean() -> None:
    res = subprocess.run([str(RUFF), "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, f"ruff check . found problems:\n{res.stdout}{res.stderr}"
