"""benchmarks/heuristic_versions.py: an earlier heuristic, checked out of git, plays the agent
evaluation protocol against the current one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout of the project")
def test_the_heuristic_of_a_ref_plays_the_protocol() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "heuristic_versions.py"), "--base", "HEAD", "--",
         "--games", "2", "--limit-pairings", "2", "--workers", "1", "--strict"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.startswith("| heuristic |"))
    cells = [c.strip() for c in row.split("|")]
    assert cells[2] == "heuristic@HEAD" and cells[3] == "4"  # opponent, games
    assert cells[7] == "0"  # errors
