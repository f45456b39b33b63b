"""The terminal seat in a real terminal: ``mtg-env play ... --agent human,heuristic`` runs in a tmux
window, the test reads the screen and types like a person. With the default stops a quiet turn
cycle (a land drop, a Shock held in hand, an opponent who only plays lands) takes at most three
inputs; ``concede`` and Ctrl-D end the game and the program cleanly."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (Debian: apt-get install tmux); "
                                                      "these tests drive the terminal seat through it")
PROMPT = "player 0> "
HUMAN_DECK = "36 Mountain\n4 Shock\n"  # an instant in hand makes every stop ask
OPPONENT_DECK = "40 Forest\n"  # the heuristic plays a land a turn and nothing else


class Terminal:
    """One program in a detached tmux window on a private tmux server."""

    def __init__(self, tmp: Path, command: list[str]) -> None:
        self.socket = f"mtg-test-{os.getpid()}-{id(self)}"
        self.done = tmp / "exit_code"
        env = f"PYTHONPATH={REPO} COLUMNS=200"
        shell = f"cd {REPO} && {env} {' '.join(command)}; echo $? > {self.done}; sleep 600"
        self._tmux("new-session", "-d", "-s", "t", "-x", "200", "-y", "50", shell)
        self._tmux("set-option", "-t", "t", "history-limit", "50000")

    def _tmux(self, *args: str) -> str:
        return subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True,
                              check=True, timeout=30).stdout

    def screen(self) -> str:
        """Everything the terminal showed (the scrollback and the screen), wrapped lines joined."""
        return self._tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def type(self, line: str) -> None:
        self._tmux("send-keys", "-t", "t", "-l", line)
        self._tmux("send-keys", "-t", "t", "Enter")

    def key(self, key: str) -> None:
        self._tmux("send-keys", "-t", "t", key)

    def wait_for(self, predicate, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.screen()
            if predicate(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"the terminal never showed what was awaited; it shows:\n{self.screen()[-3000:]}")

    def exit_code(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.done.exists() and self.done.read_text().strip():
                return int(self.done.read_text())
            time.sleep(0.1)
        raise AssertionError(f"the program did not end; the terminal shows:\n{self.screen()[-3000:]}")

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


def _prompts(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith(PROMPT))


def _waiting(text: str, n: int) -> bool:
    """The program shows its prompt number ``n`` (1-based) and waits at it."""
    lines = text.rstrip("\n").splitlines()
    return _prompts(text) >= n and bool(lines) and lines[-1].rstrip() == PROMPT.rstrip()


@pytest.fixture
def play(tmp_path: Path):
    (tmp_path / "human.txt").write_text(HUMAN_DECK)
    (tmp_path / "lands.txt").write_text(OPPONENT_DECK)
    terms: list[Terminal] = []

    def start(*extra: str) -> Terminal:
        term = Terminal(tmp_path, [sys.executable, "-m", "mtg_env.cli", "play", str(tmp_path / "human.txt"),
                                   str(tmp_path / "lands.txt"), "--agent", "human,heuristic", *extra])
        terms.append(term)
        return term

    yield start
    for term in terms:
        term.close()


def test_a_quiet_turn_cycle_takes_at_most_three_inputs_and_concede_ends_the_game(play) -> None:
    term = play("--seed", "3")
    text = term.wait_for(lambda t: _waiting(t, 1))
    assert "keep" in text
    term.type("keep")
    turn_of_input: list[int] = []
    lands = 0
    for n in range(2, 40):
        text = term.wait_for(lambda t, n=n: _waiting(t, n) or "game over" in t)
        assert "game over" not in text, text[-2000:]
        segment = text.rsplit(PROMPT, 2)[-2]  # what was shown since the last input
        turn = int(re.findall(r"Turn (\d+) · ", segment)[-1])
        turn_of_input.append(turn)
        if len(set(turn_of_input)) > 8:
            break
        match = re.search(r"^ +(\d+)  play Mountain", segment, re.M)
        if match:
            lands += 1
            term.type(match.group(1))
        else:
            term.type("pass")
    per_turn = Counter(turn_of_input)
    my_turns = sorted(per_turn)[:-1]  # the last turn seen is not over yet
    cycles = [per_turn[t] + per_turn.get(t + 1, 0) for t in my_turns if t % 2 == my_turns[0] % 2]
    assert len(cycles) >= 3 and lands >= 3
    assert max(cycles) <= 3, f"inputs per turn cycle: {cycles} (by turn: {dict(per_turn)})"
    assert max(cycles) >= 2  # the cycles did ask: land drop, then the held Shock at each main phase
    term.type("concede")
    text = term.wait_for(lambda t: "game over: player 1 (heuristic) wins (concession)" in t)
    assert term.exit_code() == 0
    assert "Traceback" not in term.screen()


def test_ctrl_d_concedes_and_quits(play) -> None:
    term = play("--seed", "3")
    term.wait_for(lambda t: _waiting(t, 1))
    term.key("C-d")
    term.wait_for(lambda t: "end of input: player 0 concedes" in t)
    assert term.exit_code() == 0
    assert "Traceback" not in term.screen()
