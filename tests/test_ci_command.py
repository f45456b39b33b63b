"""CI runs the README's test command and nothing else that could change the result: ``.ci/run``
installs Debian's chromium (the browser tests' optional system package) and then, as its last
line, runs exactly the command README.md gives for setting up and running the tests."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CI = ROOT / ".ci" / "run"


def _readme_command() -> str:
    """The README's indented command line that runs pytest (there is exactly one)."""
    found = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()
             if line.startswith("    ") and "pytest" in line]
    assert len(found) == 1, f"expected one test command in README.md, found {found}"
    return found[0]


def _ci_lines() -> list[str]:
    """The lines of .ci/run that do something (no blanks, no comments)."""
    lines = [line.strip() for line in CI.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def _commands(line: str) -> list[list[str]]:
    """A shell line as its ``&&``-separated commands, each as shell words."""
    commands: list[list[str]] = [[]]
    for word in shlex.split(line):
        if word == "&&":
            commands.append([])
        else:
            commands[-1].append(word)
    return commands


def test_ci_runs_the_readme_test_command_last() -> None:
    readme = _readme_command()
    assert "pytest" in readme and "pip install" in readme
    assert _commands(_ci_lines()[-1]) == _commands(readme), (
        f"the last line of .ci/run is not the README's test command:\n  {_ci_lines()[-1]}\n  {readme}")


def test_ci_does_nothing_else_to_the_venv_or_the_tests() -> None:
    for line in _ci_lines()[:-1]:
        assert not re.search(r"\b(pip|pytest|ruff|python3?)\b|\.venv", line), (
            f".ci/run runs more than the README's test command: {line}")


def test_the_readme_says_how_to_get_chromium() -> None:
    head = "\n".join((ROOT / "README.md").read_text().splitlines()[:50])
    assert "apt-get install chromium" in head
    assert any("apt-get install" in line and "chromium" in line for line in _ci_lines())


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_ci_script_parses() -> None:
    res = subprocess.run(["bash", "-n", str(CI)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
