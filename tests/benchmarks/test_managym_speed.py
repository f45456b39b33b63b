"""The side-by-side benchmark against managym (benchmarks/managym_speed.py): its command line, the
one-line exit 2 when no managym is available, and its arithmetic on made-up measurements. Nothing
here needs managym or a Python 3.12 interpreter."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "managym_speed.py"


def _load():
    spec = importlib.util.spec_from_file_location("managym_speed", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


managym_speed = _load()
needs_no_managym = pytest.mark.skipif(importlib.util.find_spec("managym") is not None,
                                      reason="managym is installed for this interpreter")


def test_defaults_and_bad_counts() -> None:
    args = managym_speed.parse_args([])
    assert (args.rounds, args.steps, args.managym_python, args.json) == (5, 20000, None, None)
    assert args.managym_decks == "default,authored" and args.managym_modes == "env,vector"
    args = managym_speed.parse_args(["--rounds", "3", "--steps", "100", "--managym-python", "/x/python"])
    assert (args.rounds, args.steps, args.managym_python) == (3, 100, Path("/x/python"))
    for bad in (["--rounds", "0"], ["--steps", "-1"]):
        with pytest.raises(SystemExit) as exc:
            managym_speed.parse_args(bad)
        assert exc.value.code == 2


def test_missing_default_venv_says_how_to_make_it(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(managym_speed, "ROOT", tmp_path)
    assert managym_speed.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("managym_speed.py: no managym interpreter")
    assert str(tmp_path / ".venv-managym" / "bin" / "python") in err
    assert "-m venv .venv-managym" in err and "pip install --no-deps manabot==0.2.0" in err


def test_missing_given_interpreter_exits_2_from_the_command_line(tmp_path) -> None:
    res = subprocess.run([sys.executable, str(SCRIPT), "--managym-python", str(tmp_path / "nope")],
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "does not exist" in res.stderr


@needs_no_managym
def test_interpreter_without_managym_exits_2(capsys) -> None:
    """This interpreter runs the child, which can't import managym."""
    assert managym_speed.main(["--managym-python", sys.executable, "--rounds", "1", "--steps", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"managym_speed.py: managym is not installed for {sys.executable}")


def test_measure_ours_plays_whole_chunks_until_the_steps() -> None:
    calls = []

    def play(games: int, seed: int) -> tuple[float, float, float, float, float]:
        calls.append((games, seed))
        # 10 steps a game, 4 games per wall second, 5 per CPU second
        return 4.0, 40.0, 0.0, 10.0, 5.0

    row = managym_speed.measure_ours(play, 95, 1000, steps_per_game=20.0)
    assert calls == [(5, 1000), (5, 1005)]  # the guess of 20 steps a game falls short, then 10
    assert row == {"steps": 100, "games": 10, "cpu_s": 2.0, "wall_s": 2.5}


def test_summary_medians_and_ratios() -> None:
    def m(steps: int, games: int, cpu: float) -> dict:
        return {"steps": steps, "games": games, "cpu_s": cpu, "wall_s": 2 * cpu}

    ours, theirs = managym_speed.OURS[0], "managym Env.step, default decks"
    rounds = [{theirs: m(1000, 5, 0.1), ours: m(1000, 10, 0.2)},  # 0.5x the steps, 1.0x the games
              {theirs: m(1000, 5, 0.1), ours: m(1000, 20, 0.1)},  # 1.0x, 4.0x
              {theirs: m(1000, 4, 0.2), ours: m(2000, 10, 0.1)}]  # 4.0x, 5.0x
    med, ratios = managym_speed.summarize(rounds)
    assert med[theirs] == pytest.approx({"steps_cpu": 10000, "steps_wall": 5000, "games_cpu": 50,
                                         "steps_game": 200})
    assert med[ours]["steps_cpu"] == pytest.approx(10000) and med[ours]["steps_game"] == pytest.approx(100)
    assert ratios == [{"ours": ours, "managym": theirs, "steps": pytest.approx(1.0),
                       "games": pytest.approx(4.0)}]
    table = managym_speed.markdown(med, ratios)
    assert f"| {theirs} | 10,000 | 5,000 | 50.0 | 200.0 |" in table
    assert f"| {ours} | {theirs} | 1.00x | 4.00x |" in table
