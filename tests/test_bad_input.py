"""Each bad input of the hardening issue gets its one-line error: deck texts and files, configs and
command-line options (checked before any game runs). Positions: ``tests/test_fuzz_inputs.py``."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from mtg_env import Deck
from mtg_env.cli import app
from mtg_env.engine.errors import DeckError, UnimplementedCardError, UnknownCardError

runner = CliRunner()


# -- decks -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "error", "message"), [
    ("999999999999999999999 Forest", DeckError, r"line 1: 999999999999999999999 copies is too many \(at most 250"),
    ("36 Forest\n" + "0" * 5000 + "1 Forest", DeckError, r"deck has 37 cards"),
    ("251 Forest", DeckError, r"line 1: 251 copies is too many"),
    ("250 Forest\n" * 4 + "1 Forest", DeckError, r"line 5: more than 1000 cards in all"),
    ("36 Forest\n1 " + "x" * 300, DeckError, r"line 2: card name too long \(300 characters\)"),
    ("40 Forest\nSideboard\n4 Grizly Bears", UnknownCardError, r"unknown card 'Grizly Bears'; did you mean 'Grizzly Bears'\?"),
    ("40 Forest\nSideboard\n1 Twincast", UnimplementedCardError, r"not implemented yet: Twincast"),
    ("40 Forest\nSideboard\nfour Shock", DeckError, r"line 3: expected 'N Card Name'"),
    ("37 Forest\n3 Shock\nSideboard\n2 Shock", DeckError, r"5 copies of Shock \(deck and sideboard\)"),
    (b"36 Forest\n4 S\xe9ance", DeckError, r"deck is not UTF-8 text \(byte 13\)"),
    (36, DeckError, r"a deck list must be text, got int"),
])
def test_bad_deck_text(text, error: type, message: str) -> None:
    with pytest.raises(error, match=message) as exc:
        Deck.from_text(text)
    assert "\n" not in str(exc.value)


def test_deck_text_with_a_byte_order_mark_is_read() -> None:
    assert Deck.from_text("\ufeff36 Forest\n4 Grizzly Bears").entries == [(36, "Forest"), (4, "Grizzly Bears")]
    assert len(Deck.from_text(b"\xef\xbb\xbf40 Forest")) == 40


def test_sideboard_is_canonical_and_checked() -> None:
    d = Deck.from_text("38 Forest\n2 Shock\nSideboard:\n2 shock\n")
    assert d.sideboard == [(2, "Shock")]


@pytest.mark.parametrize(("data", "message"), [
    ("36 Forest\n4 Séance\n".encode("latin-1"), r"deck file '.*d\.txt' is not UTF-8 text \(byte 13: b'\\xe9'\)"),
    (bytes(range(128, 256)), r"deck file '.*d\.txt' is not UTF-8 text \(byte 0"),
    (b"40 Forest\n" * 200_000, r"deck file '.*d\.txt' is too large"),
])
def test_bad_deck_files(tmp_path, data: bytes, message: str) -> None:
    path = tmp_path / "d.txt"
    path.write_bytes(data)
    with pytest.raises(DeckError, match=message):
        Deck.from_file(path)
    res = runner.invoke(app, ["matchup", str(path), "starter_red", "-n", "2"])
    assert res.exit_code == 2 and _one_error_line(res.output).startswith("error: deck file")


def test_builtin_deck_names_are_checked() -> None:
    with pytest.raises(DeckError, match=r"no built-in deck '\.\./decks/starter_red'"):
        Deck.builtin("../decks/starter_red")
    with pytest.raises(DeckError, match="no built-in deck 3"):
        Deck.builtin(3)  # type: ignore[arg-type]


# -- CLI ---------------------------------------------------------------------------------------
def _one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game is started (every check must come first)."""
    import mtg_env.sim.parallel as parallel

    def forbidden(*a, **k):
        raise AssertionError("a game ran before the options were checked")

    monkeypatch.setattr(parallel, "run_games", forbidden)
    monkeypatch.setattr("mtg_env.sim.matchup.run_games", forbidden)
    monkeypatch.setattr("mtg_env.sim.matrix.run_games", forbidden)
    monkeypatch.setattr("mtg_env.sim.tournament.run_games", forbidden)
    monkeypatch.setattr("mtg_env.cli.Game", None)  # `play` with random agents


@pytest.mark.parametrize(("args", "message"), [
    (["matchup", "starter_green", "starter_red", "--max-turns", "0"], "error: max_turns must be at least 1, got 0"),
    (["matchup", "starter_green", "starter_red", "--max-turns", "-3"], "error: max_turns must be at least 1, got -3"),
    (["matchup", "starter_green", "starter_red", "--agent", "random,"], "error: --agent: empty name in 'random,'"),
    (["matchup", "starter_green", "starter_red", "--agent", ",random"], "error: --agent: empty name"),
    (["matchup", "starter_green", "starter_red", "--games", "0"], "error: games must be at least 1, got 0"),
    (["matchup", "starter_green", "starter_red", "--workers", "0"], "error: workers must be a whole number"),
    (["matchup", "starter_green", "starter_red", "--json", "/nonexistent/x.json"],
     "error: --json: cannot write '/nonexistent/x.json': No such file or directory"),
    (["matchup", "starter_green", "starter_red", "--csv", "/nonexistent/x.csv"], "error: --csv: cannot write"),
    (["matrix", "--games", "0"], "error: games must be at least 1, got 0"),
    (["matrix", "--max-turns", "0"], "error: max_turns must be at least 1"),
    (["matrix", "--agent", "random,"], "error: agents: empty name in 'random,'"),
    (["matrix", "--agents", "random,heuristic"], "error: a matrix uses one agent for every deck"),
    (["matrix", "--decks", "starter_green,,starter_red"], "error: decks: empty name"),
    (["tournament", "--agents", "random,", "-n", "2"], "error: agents: empty name"),
    (["tournament", "--max-turns", "-1"], "error: max_turns must be at least 1"),
    (["tournament", "--resamples", "-1"], "error: resamples must be at least 0"),
    (["play", "starter_green", "starter_red", "--max-turns", "0"], "error: max_turns must be at least 1"),
    (["play", "starter_green", "starter_red", "--agent", "random,"], "error: --agent: empty name"),
    (["cards", "--color", "Q"], "error: unknown color 'Q'; choose from W, U, B, R, G"),
])
def test_bad_options_fail_before_any_game(no_games, args: list[str], message: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (res.output, res.exception)
    assert _one_error_line(res.output).startswith(message)


def test_output_folder_that_is_a_file_fails_before_any_game(no_games, tmp_path) -> None:
    f = tmp_path / "file"
    f.write_text("")
    for cmd in ("matrix", "tournament"):
        res = runner.invoke(app, [cmd, "--out", str(f / "sub")])
        assert res.exit_code == 2
        assert _one_error_line(res.output).startswith("error: --out: cannot create the folder")
    (tmp_path / "out" / "matrix.csv").mkdir(parents=True)  # a folder where the CSV goes
    res = runner.invoke(app, ["matrix", "--out", str(tmp_path / "out")])
    assert res.exit_code == 2 and "error: --out: cannot write" in _one_error_line(res.output)


def test_json_output_checked_without_leaving_a_file(no_games, tmp_path, monkeypatch) -> None:
    """A writable --json path passes the check and no empty file is left behind."""
    import mtg_env.cli as cli

    class Started(Exception):
        pass

    def started() -> None:
        raise Started

    monkeypatch.setattr(cli, "_before_games", started)
    out = tmp_path / "m.json"
    res = runner.invoke(app, ["matchup", "starter_green", "starter_red", "--json", str(out)])
    assert isinstance(res.exception, Started) and not out.exists()


@pytest.mark.parametrize(("content", "message"), [
    ("games: 2\nagent: heuristic\n", "unknown key(s) agent (the key is 'agents')"),
    ("games: two\n", "games must be an integer, got 'two'"),
    ("games: true\n", "games must be an integer, got True"),
    ("mirrors: 1\n", "mirrors must be true or false, got 1"),
    ("agents: 3\n", "agents must be a string or a list, got 3"),
    ("agents: [random, 3]\n", "agents: expected a comma-separated string or a list of names"),
    ("decks: {a: 1}\n", "decks must be a string or a list"),
    ("out: [a]\n", "out must be a string"),
    ("max_turns: 0\n", "max_turns must be at least 1"),
    ("- games\n", "must be a mapping of option names to values"),
    ("games: [\n", "is not valid YAML"),
])
def test_bad_matrix_config(no_games, tmp_path, content: str, message: str) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(content)
    res = runner.invoke(app, ["matrix", "--config", str(cfg)])
    assert res.exit_code == 2, res.output
    assert message in _one_error_line(res.output)


@pytest.mark.parametrize("data", ["games: 2\nagents: [rändom]\n".encode("latin-1"), bytes(range(256))])
def test_config_that_is_not_utf8(no_games, tmp_path, data: bytes) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_bytes(data)
    for cmd in ("matrix", "tournament"):
        res = runner.invoke(app, [cmd, "--config", str(cfg)])
        assert res.exit_code == 2
        assert re.match(r"error: config file '.*c\.yaml' is not UTF-8 text \(byte \d+\); save it as UTF-8",
                        _one_error_line(res.output))


def test_config_with_a_byte_order_mark_and_the_agents_key(tmp_path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_bytes(b"\xef\xbb\xbfgames: 2\nagents: [random]\ndecks: [starter_green, starter_red]\n"
                    + f"out: {tmp_path / 'o'}\n".encode())
    res = runner.invoke(app, ["matrix", "--config", str(cfg), "--workers", "1", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "random agents, 2 games per pairing" in res.output
    assert re.search(r"\d+% \[\d+-\d+\]", res.output), "the table shows 95% Wilson intervals"
    tcfg = tmp_path / "t.yaml"
    tcfg.write_bytes(b"\xef\xbb\xbfagents: random, heuristic\nresamples: 5\n")
    res = runner.invoke(app, ["tournament", "--config", str(tcfg), "--decks", "starter_green,starter_red",
                              "-n", "2", "--workers", "1", "--out", str(tmp_path / "o"), "--no-progress"])
    assert res.exit_code == 0, res.output
