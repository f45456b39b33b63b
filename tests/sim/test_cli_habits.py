"""What a new user of ``mtg-env`` types first: ``-h``, ``--version``, flags shown as flags in the
help, and an odd ``-n`` (games come in seat-swapped pairs: rounded up, with a note)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mtg_env import __version__
from mtg_env.cli import _version, app

runner = CliRunner()
COMMANDS = ["play", "replay", "cards", "decks", "matchup", "matrix", "tournament"]


def _ok(*args: str) -> str:
    res = runner.invoke(app, list(args), env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output + repr(res.exception)
    return res.output


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_dash_h_is_help_and_flags_show_as_flags(command: list[str]) -> None:
    out = _ok(*command, "-h")
    assert out == _ok(*command, "--help")
    assert "-h, --help" in out and "<bool>" not in out
    if command in (["matchup"], ["matrix"], ["tournament"]):
        assert "--progress / --no-progress" in out


def test_version() -> None:
    """``mtg-env --version``: the installed distribution's version (the package's own
    ``__version__`` in a source tree)."""
    out = _ok("--version").strip()
    assert out.startswith("mtg-env ") and out.split()[1][0].isdigit()
    assert out == f"mtg-env {_version()}" and _version() == __version__


def test_no_arguments_shows_the_help() -> None:
    res = runner.invoke(app, [])
    assert "Usage: " in res.output and "matchup" in res.output and "Traceback" not in res.output


def test_odd_game_count_is_rounded_up_to_a_pair_with_a_note() -> None:
    out = _ok("matchup", "starter_green", "starter_red", "-n", "3", "--workers", "1",
              "--max-turns", "6", "--no-progress")
    assert "note: games are played in seat-swapped pairs: playing 4 games, not 3" in out
    assert "4 games" in out
    out = _ok("matchup", "starter_green", "starter_red", "-n", "2", "--workers", "1",
              "--max-turns", "6", "--no-progress")
    assert "note:" not in out


@pytest.mark.parametrize("args", [["matrix", "--decks", "starter_green,starter_red"],
                                  ["tournament", "--decks", "starter_green"]])
def test_odd_game_count_per_pairing(monkeypatch, args: list[str]) -> None:
    import mtg_env.cli as cli

    seen = {}

    def run(*a, **k):
        seen["games"] = a[1] if args[0] == "matrix" else a[2]
        raise SystemExit(0)

    monkeypatch.setattr(f"mtg_env.sim.{args[0]}.run_{args[0]}", run)
    monkeypatch.setattr(cli, "_before_games", lambda: None)
    res = runner.invoke(app, [*args, "-n", "5", "--no-progress"])
    assert seen["games"] == 6, res.output
    assert "playing 6 games per pairing, not 5" in res.output
