"""``mtg-env play ... --web`` as a person runs it: a real process that prints each browser seat's
address, serves the game there, writes the replay when the game ends and closes when the page
leaves the table; Ctrl-C concedes (exit code 130); another address than 127.0.0.1 gets a
warning; without the [web] extra or a human seat a one-line error."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mtg_env.cli import app
from mtg_env.sim.replay import Replay
from tests.web.conftest import need_web_extra

ROOT = Path(__file__).resolve().parents[2]
GREEN, RED = "starter_green", "starter_red"


def test_web_needs_a_human_seat() -> None:
    res = CliRunner().invoke(app, ["play", GREEN, RED, "--agent", "heuristic,random", "--web"])
    assert res.exit_code == 2 and "--web needs a human seat" in res.output


def test_web_without_the_extra_is_a_one_line_error(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)  # as if not installed
    res = CliRunner().invoke(app, ["play", GREEN, RED, "--agent", "human,random", "--web", "--no-browser"])
    assert res.exit_code == 2 and "needs the [web] extra" in res.output and "Traceback" not in res.output


def _sigint_default() -> None:
    # A test run started in the background has SIGINT ignored, and a child would inherit that.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(args: list[str]) -> tuple[subprocess.Popen, str, str]:
    """Start ``mtg-env play ... --web --no-browser`` and read seat 0's address from its output;
    returns the process, the base address (on 127.0.0.1) and seat 0's token."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "mtg_env.cli", "play", GREEN, RED, "--web", "--no-browser",
                             *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_sigint_default)
    line = proc.stdout.readline()
    m = re.search(r"http://\S+:(\d+)/\?seat=0&token=(\S+)", line)
    assert m, line + proc.stderr.read()
    return proc, f"http://127.0.0.1:{m.group(1)}", m.group(2)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_game_at_the_real_server_then_leave(tmp_path: Path) -> None:
    need_web_extra()
    import httpx

    save = tmp_path / "game.json"
    proc, base, token = _start(["--agent", "human,random", "--max-turns", "4", "--save", str(save),
                                "--host", "0.0.0.0"])
    try:
        page = httpx.get(base + "/")
        assert page.status_code == 200 and "data-action" in page.text
        rng = random.Random(0)
        deadline = time.monotonic() + 60
        state = httpx.get(base + "/api/state", params={"seat": 0, "token": token}).json()
        while not state["over"]:
            assert time.monotonic() < deadline
            if state["decision"] is not None:
                texts = [o["text"] for o in state["decision"]["options"]]
                httpx.post(base + "/api/command", json={"seat": 0, "token": token, "kind": "act",
                                                        "decision": state["decision"]["id"],
                                                        "action": rng.choice(texts)})
            state = httpx.get(base + "/api/state", params={"seat": 0, "token": token,
                                                          "after": state["version"]}, timeout=30).json()
        assert httpx.post(base + "/api/leave", json={"seat": 0, "token": token}).status_code == 200
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert "warning: serving on 0.0.0.0" in err and "game over:" in out and f"wrote {save}" in out
    rep = Replay.load(save)
    assert rep.agents == ("human", "random") and rep.conceded_by is None
    rep.run()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_concedes_and_exits_130(tmp_path: Path) -> None:
    need_web_extra()
    import httpx

    save = tmp_path / "game.json"
    proc, base, token = _start(["--agent", "human,heuristic", "--save", str(save)])
    try:
        assert httpx.get(base + "/", headers={"Host": "evil.example"}).status_code == 403  # DNS rebinding
        state = httpx.get(base + "/api/state", params={"seat": 0, "token": token}).json()
        while state["decision"] is None:
            state = httpx.get(base + "/api/state", params={"seat": 0, "token": token,
                                                          "after": state["version"]}, timeout=30).json()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, out + err
    assert "player 0 pressed Ctrl-C and concedes" in out and "Traceback" not in out + err
    assert "warning" not in err  # 127.0.0.1 by default
    rep = Replay.load(save)
    assert rep.conceded_by == 0 and rep.winner == 1
    rep.run()
