"""The simulation commands of ``mtg-env``: output, files, configs and one-line errors."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from mtg_env.cli import app
from mtg_env.sim.decks import default_deck_names

DECKS = default_deck_names()
REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _ok(*args: str, env: dict[str, str] | None = None) -> str:
    res = runner.invoke(app, list(args), env=env)
    assert res.exit_code == 0, res.output + repr(res.exception)
    return res.output


def test_matchup_prints_the_statistics_and_writes_files(tmp_path) -> None:
    out = _ok("matchup", DECKS[0], DECKS[1], "-n", "4", "--workers", "1", "--seed", "3",
              "--json", str(tmp_path / "m.json"), "--csv", str(tmp_path / "m.csv"), "--no-progress")
    for text in ("A win rate (95% Wilson)", "A on the play", "A on the draw", "average turns",
                 "games/s", f"{DECKS[0]} (A) vs {DECKS[1]} (B)"):
        assert text in out
    assert (tmp_path / "m.json").exists() and (tmp_path / "m.csv").exists()


def test_matchup_accepts_deck_files_and_two_agents(tmp_path) -> None:
    from mtg_env import Deck

    deck = Deck.builtin(DECKS[0])
    path = tmp_path / "mine.txt"
    path.write_text("\n".join(f"{n} {c}" for n, c in deck.entries))
    out = _ok("matchup", str(path), DECKS[1], "-n", "2", "--agent", "heuristic,random",
              "--workers", "1", "--no-progress")
    assert "mine (A)" in out and "heuristic vs random" in out


def test_matrix_and_tournament_from_the_shipped_configs(tmp_path) -> None:
    for name in ("theme_matrix.yaml", "theme_tournament.yaml", "theme_deck_tournament.yaml"):
        cfg = yaml.safe_load((REPO / "configs" / name).read_text())
        assert cfg["games"] >= 100 and set(cfg["decks"]) == {
            "arcaniss_guile", "cho_mannos_resolve", "evincars_tyranny", "kamahls_temper", "molimos_might"}
    out = _ok("matrix", "--config", str(REPO / "configs" / "theme_matrix.yaml"), "--decks",
              ",".join(DECKS[:3]), "-n", "2", "--workers", "2", "--out", str(tmp_path), "--no-progress")
    assert "win rate of row deck vs column deck" in out
    assert (tmp_path / "matrix.csv").exists() and (tmp_path / "matrix.png").exists()
    if importlib.util.find_spec("sb3_contrib") is None:
        pytest.skip("the shipped tournament config ranks the trained network: needs the [rl] extra")
    out = _ok("tournament", "--config", str(REPO / "configs" / "theme_tournament.yaml"), "--decks",
              ",".join(DECKS[:2]), "-n", "2", "--workers", "1", "--resamples", "10", "--out",
              str(tmp_path), "--no-progress")
    assert "Bradley-Terry" in out and "heuristic" in out and "random" in out
    assert "mcts:net=trained" in out and "trained" in out
    assert (tmp_path / "tournament.csv").exists() and (tmp_path / "tournament.png").exists()


def test_play_and_cards_still_work() -> None:
    out = _ok("play", DECKS[0], DECKS[1], "--seed", "1")
    assert "game over" in out or "turn limit" in out
    out = _ok("play", DECKS[0], DECKS[1], "--seed", "1", "--agent", "heuristic")
    assert "after" in out
    assert _ok("cards", "--color", "R")


@pytest.mark.parametrize(("args", "message"), [
    (["matchup", "no_such_deck", "starter_red"], "unknown deck 'no_such_deck'"),
    (["matchup", "starter_green", "starter_red", "-n", "0"], "games must be at least 1"),
    (["matchup", "starter_green", "starter_red", "--agent", "genius"], "unknown agent 'genius'"),
    (["matchup", "missing/deck.txt", "starter_red"], "cannot read deck file"),
    (["matchup", "starter_green", "starter_red", "--backend", "mpi"], "unknown backend 'mpi'"),
    (["matrix", "--decks", "starter_green,nope", "-n", "2"], "unknown deck 'nope'"),
    (["matrix", "--config", "no/such.yaml"], "cannot read config file"),
    (["tournament", "--agents", "random,genius", "-n", "2"], "unknown agent 'genius'"),
    (["tournament", "--games", "0"], "games must be at least 1"),
])
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], message: str) -> None:
    res = runner.invoke(app, [*args, "--no-progress"] if args[0] != "play" else args)
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert "Traceback" not in res.output
    assert len([line for line in res.output.splitlines() if line.startswith("error:")]) == 1


def test_bad_config_keys_and_unknown_cards(tmp_path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("games: 2\nwokers: 3\n")
    res = runner.invoke(app, ["matrix", "--config", str(cfg)])
    assert res.exit_code == 2 and "unknown key(s) wokers" in res.output
    deck = tmp_path / "bad.txt"
    deck.write_text("40 Forrest\n")
    res = runner.invoke(app, ["matchup", str(deck), "starter_red", "-n", "2"])
    assert res.exit_code == 2 and "unknown card 'Forrest'" in res.output


def test_installed_command_exits_2_without_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "mtg_env.cli", "matchup", "nope", "starter_red"],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: unknown deck 'nope'") and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_config_names_checkpoints_relative_to_itself(tmp_path) -> None:
    """`ppo:PATH` in a config file is read relative to the file, so a shipped config that names
    a shipped checkpoint works from any directory; parameters after the path are kept."""
    from mtg_env.cli import _load_config

    cfg = tmp_path / "configs" / "t.yaml"
    cfg.parent.mkdir()
    cfg.write_text("agents: [random, 'ppo:../ckpt/a.zip:deterministic=0', 'ppo:/abs/b.zip', "
                   "'mcts:net=../ckpt/c.zip:iters=4', 'mcts:net=trained', 'mcts:iters=2:net=/abs/d.zip']\n")
    agents = _load_config(str(cfg), {"agents": (str, list)})["agents"]
    assert agents == ["random", f"ppo:{tmp_path / 'configs' / '..' / 'ckpt' / 'a.zip'}:deterministic=0",
                      "ppo:/abs/b.zip", f"mcts:net={tmp_path / 'configs' / '..' / 'ckpt' / 'c.zip'}:iters=4",
                      "mcts:net=trained", "mcts:iters=2:net=/abs/d.zip"]


def test_help_shows_the_defaults_written_in_option_help() -> None:
    """Option help texts spell out config-file defaults as ``[default: 100]``; Typer's rich markup
    mode took the brackets for a style tag and printed nothing. The help is plain text, so they
    show, and a docstring's summary line is the command's line in ``mtg-env --help``."""
    out = " ".join(_ok("matrix", "--help", env={"COLUMNS": "200"}).split())
    assert "games per pairing [default: 100]" in out
    assert "the agent of every deck [default: heuristic]" in out
    listing = " ".join(_ok("--help", env={"COLUMNS": "200"}).split())
    assert ("replay Re-run a saved game, check it reproduces exactly; print, step through or view "
            "it.") in listing


def test_a_multi_line_card_data_error_is_printed_whole(tmp_path, monkeypatch) -> None:
    """A card's ``text`` that isn't the printed text: the CLI shows the line saying so and the
    two lines showing the difference (it used to stop at "... in facts.json:")."""
    import mtg_env.cli as cli
    from mtg_env.cards.loader import DATA_DIR, load_facts, load_file
    from mtg_env.engine.errors import CardDataError

    terror = yaml.safe_load((DATA_DIR / "destroy_and_bounce.yaml").read_text())["Terror"]
    terror["text"] = "Destroy target nonartifact, nonblack creature."
    path = tmp_path / "destroy_and_bounce.yaml"
    path.write_text(yaml.safe_dump({"Terror": terror}))
    with pytest.raises(CardDataError) as exc:
        load_file(path, load_facts()["cards"])

    def broken_cards(spec: str):
        raise exc.value

    monkeypatch.setattr(cli, "_load_deck", broken_cards)  # as if the card data had the mistake
    res = runner.invoke(app, ["play", "starter_green", "starter_red"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert res.output.splitlines() == [
        "error: destroy_and_bounce.yaml: Terror: 'text' differs from the printed 2007 text in facts.json:",
        "  yaml:    'Destroy target nonartifact, nonblack creature.'",
        "  printed: \"Destroy target nonartifact, nonblack creature. It can't be regenerated.\""]
    assert res.output == f"error: {exc.value}\n"


def test_pod_tournament_prints_the_ratings_and_writes_files(tmp_path) -> None:
    out = _ok("pod-tournament", "starter_green", "starter_red", "starter_white", "starter_blue_black",
              "--table-size", "3", "-n", "4", "--agent", "random", "--max-turns", "30", "--workers", "1",
              "--json", str(tmp_path / "t.json"), "--csv", str(tmp_path / "t.csv"),
              "--chart", str(tmp_path / "t.png"), "--no-progress", env={"COLUMNS": "200"})
    for text in ("Free-for-All tournament of 4 decks at tables of 3 (attack left): random; 4 games, "
                 "seed 0; an even table gives each deck 33.3%", "openskill Plackett-Luce", "ordinal",
                 "win share (95% Wilson)", "mean place", "0 (plays first)", "games/s"):
        assert text in out
    assert all((tmp_path / f).stat().st_size > 0 for f in ("t.json", "t.csv", "t.png"))
    assert json.loads((tmp_path / "t.json").read_text())["games"] == 4


@pytest.mark.parametrize(("args", "message"), [
    (["starter_green", "starter_red", "starter_white", "--table-size", "2"], "a table seats 3 to 6 players"),
    (["starter_green", "starter_red", "starter_white", "--table-size", "7"], "a table seats 3 to 6 players"),
    (["starter_green", "starter_red", "starter_white"], "tables of 4 need at least 4 entrants, got 3"),
    (["starter_green", "starter_red", "starter_white", "no_such_deck"], "unknown deck 'no_such_deck'"),
    (["starter_green", "starter_red", "starter_white", "--table-size", "3", "--agent", "goldfish"],
     "two-player games only"),
    (["starter_green", "starter_red", "starter_white", "--table-size", "3", "-n", "0"],
     "games must be at least 1"),
])
def test_pod_tournament_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["pod-tournament", *args, "--no-progress"])
    assert res.exit_code == 2, res.output
    assert res.output.strip().startswith("error:") and message in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_pod_tournament_checks_the_table_size_before_any_game(monkeypatch) -> None:
    import mtg_env.cli as cli

    def no_games() -> None:
        raise AssertionError("games started")

    monkeypatch.setattr(cli, "_before_games", no_games)
    res = runner.invoke(app, ["pod-tournament", "starter_green", "starter_red", "starter_white",
                              "starter_blue_black", "--table-size", "5", "--no-progress"])
    assert res.exit_code == 2 and "need at least 5 entrants" in res.output
