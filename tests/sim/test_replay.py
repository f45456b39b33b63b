"""Replays: record, save, load and re-run games exactly; divergence errors; --save-games."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents import HeuristicAgent, RandomAgent
from mtg_env import MtgError
from mtg_env.cli import app
from mtg_env.sim import GameSpec, load_deck, run_spec
from mtg_env.sim.decks import THEME_DECKS
from mtg_env.sim.replay import FORMAT, VERSION, Replay, ReplayDivergence, ReplayError, record_game, save_games
from mtg_env.sim.runner import derive_seed

runner = CliRunner()
PAIRS = list(itertools.combinations(THEME_DECKS, 2))


def _invoke(*args: str, code: int = 0, input: str | None = None) -> str:
    res = runner.invoke(app, list(args), input=input)
    assert res.exit_code == code, res.output + repr(res.exception)
    return res.output


@pytest.mark.parametrize(("deck_a", "deck_b"), PAIRS)
def test_saved_games_replay_exactly_on_every_theme_pairing(deck_a: str, deck_b: str, tmp_path: Path) -> None:
    decks = (load_deck(deck_a), load_deck(deck_b))
    specs = []
    for k, agent in enumerate(("heuristic", "random")):
        for j in range(2):
            seed = derive_seed("replay-test", deck_a, deck_b, k, j)
            seats = decks if j == 0 else decks[::-1]
            specs.append(GameSpec(len(specs), seats, (agent, agent), seed, ("a", "b"), 60, record=True))
    results = [run_spec(s) for s in specs]
    paths = save_games(specs, results, tmp_path)
    assert len(paths) == len(specs)
    for path, spec, res in zip(paths, specs, results, strict=True):
        rep = Replay.load(path)
        assert rep.agents == spec.agents and rep.seed == spec.seed
        assert [d.name for d in rep.decks] == [d.name for d in spec.decks]
        assert len(rep.actions) == len(res.actions) and path.stat().st_size < 40_000
        game = rep.run()
        assert (game.turn, game.decisions_made, game.end_reason) == (res.turns, res.decisions, res.end_reason)
        assert (game.players[0].life, game.players[1].life) == res.life


def test_record_game_round_trip_through_the_file(tmp_path: Path) -> None:
    game, rep = record_game(["kamahls_temper", "molimos_might"], [HeuristicAgent(), RandomAgent()], seed=7)
    data = json.loads(rep.to_json())
    assert (data["format"], data["version"]) == (FORMAT, VERSION)
    assert data["engine_version"] and data["seed"] == 7 and data["agents"] == ["heuristic", "random"]
    assert data["options"] == {"skip_trivial": True, "max_decisions": 20000, "max_turns": 100}
    assert data["decks"][0]["name"] == "kamahls_temper" and sum(n for n, _ in data["decks"][0]["cards"]) == len(load_deck("kamahls_temper"))
    assert data["result"] == {"winner": game.winner, "end_reason": game.end_reason, "turns": game.turn,
                              "conceded_by": None}
    again = Replay.load(rep.save(tmp_path / "sub" / "g.json")).run()
    assert again.log == game.log


def _tampered(tmp_path: Path) -> tuple[Replay, Path]:
    _, rep = record_game(["starter_green", "starter_red"], [HeuristicAgent(), HeuristicAgent()], seed=3)
    return rep, rep.save(tmp_path / "g.json")


def test_a_tampered_replay_names_its_first_divergence(tmp_path: Path) -> None:
    rep, path = _tampered(tmp_path)
    k = next(i for i, a in enumerate(rep.actions) if a.startswith("play "))
    bad = Replay.from_json(rep.to_json())
    bad.actions[k] = "play Black Lotus"
    with pytest.raises(ReplayDivergence) as exc:
        bad.run()
    msg = str(exc.value)
    assert exc.value.decision == k + 1 and f"decision {k + 1} (player" in msg
    assert "'play Black Lotus' is not a legal option; legal: 'pass'" in msg and "\n" not in msg
    path.write_text(bad.to_json())
    out = _invoke("replay", str(path), code=1)
    assert out.strip().splitlines() == [f"error: replay does not reproduce: {msg}"]

    longer = Replay.from_json(rep.to_json())
    longer.actions.append("pass")
    with pytest.raises(ReplayDivergence, match=r"the game is already over .* 1 more action\(s\), next 'pass'"):
        longer.run()
    shorter = Replay.from_json(rep.to_json())
    shorter.actions.pop()
    with pytest.raises(ReplayDivergence, match="the game is not over"):
        shorter.run()
    other = Replay.from_json(rep.to_json())
    other.winner = 1 - rep.winner if rep.winner is not None else 0
    with pytest.raises(ReplayDivergence, match="the result differs: the replay says player"):
        other.run()
    reseeded = Replay.from_json(rep.to_json())
    reseeded.seed += 1
    with pytest.raises(ReplayDivergence, match=r"decision \d+ \(player \d, \w+, turn \d+\): .* legal: "):
        reseeded.run()


@pytest.mark.parametrize(("text", "message"), [
    ("{not json", "replay is not valid JSON"),
    ("[]", "a replay must be a JSON object"),
    ('{"format": "chess"}', "not an mtg_env replay"),
    (json.dumps({"format": FORMAT, "version": 99}), "replay format version 99 is not supported"),
    (json.dumps({"format": FORMAT, "version": VERSION, "decks": []}), "replay is missing seed, options"),
])
def test_unreadable_replays_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ReplayError, match=message):
        Replay.from_json(text)
    path = tmp_path / "bad.json"
    path.write_text(text)
    out = _invoke("replay", str(path), code=2)
    assert out.startswith("error: ") and message in out and len(out.strip().splitlines()) == 1


def test_bad_fields_are_named(tmp_path: Path) -> None:
    rep, _ = _tampered(tmp_path)
    data = rep.to_dict()
    for key, value, message in (("seed", "x", "'seed' must be an integer"),
                                ("options", {"speed": 1}, "'options' must be a mapping"),
                                ("actions", [1], "'actions' must be a list of action texts"),
                                ("decks", [{"cards": 3}, {}], "deck 0 of the replay must be")):
        with pytest.raises(ReplayError, match=message):
            Replay.from_dict({**data, key: value})
    with pytest.raises(MtgError, match="unknown card 'Black Lotus'"):
        Replay.from_dict({**data, "decks": [{"name": "x", "cards": [[1, "Black Lotus"]]}, data["decks"][1]]})


def test_replay_cli_prints_the_log_and_steps_with_input(tmp_path: Path) -> None:
    rep, path = _tampered(tmp_path)
    out = _invoke("replay", str(path))
    assert out.startswith("coin flip: player") and "replay reproduces: player" in out
    # the replay's reader sees both seats, so both opening hands are named (the public log
    # only counts the cards)
    assert sum(1 for line in out.splitlines() if line.startswith("player ")
               and " draws 7 cards: " in line) == 2
    out = _invoke("replay", str(path), "--step", input="\n\nq\n")
    assert "decision 1 of" in out and "decision 3 of" in out and "decision 4 of" not in out
    assert "chose: " in out and "stopped" in out and "hand:" in out
    out = _invoke("replay", str(path), "--step", input="\n" * (len(rep.actions) + 5))
    assert f"decision {len(rep.actions)} of" in out and "game over" in out


def test_play_saves_replays_for_every_kind_of_seat(tmp_path: Path) -> None:
    for agent in ("random", "heuristic", "heuristic,random"):
        path = tmp_path / f"{agent}.json"
        out = _invoke("play", "starter_green", "starter_red", "--agent", agent, "--seed", "4", "--save", str(path))
        assert f"wrote {path}" in out
        res = _invoke("replay", str(path), "--quiet")
        assert res.startswith("replay reproduces:")
        assert out.splitlines()[-3] in _invoke("replay", str(path))  # the same log


def test_simulations_save_games(tmp_path: Path) -> None:
    d = tmp_path / "m"
    out = _invoke("matchup", "starter_green", "starter_red", "-n", "4", "--agent", "heuristic,random",
                  "--workers", "2", "--no-progress", "--save-games", str(d))
    files = sorted(d.glob("*.json"))
    assert len(files) == 4 and f"wrote 4 replay file(s) to {d}" in out
    assert files[0].name == "game00000_starter_green-heuristic_vs_starter_red-random.json"
    assert files[1].name == "game00001_starter_red-random_vs_starter_green-heuristic.json"
    for f in files:
        Replay.load(f).run()
    d2 = tmp_path / "losses"
    _invoke("matchup", "starter_green", "starter_red", "-n", "6", "--agent", "heuristic,random",
            "--workers", "1", "--no-progress", "--save-games", str(d2), "--only-losses-of", "random")
    lost = [Replay.load(f) for f in d2.glob("*.json")]
    assert lost and all(r.winner is not None and r.agents[1 - r.winner] == "random" for r in lost)
    d3 = tmp_path / "matrix"
    _invoke("matrix", "--decks", "starter_green,starter_red,starter_white", "-n", "2", "--workers", "1",
            "--out", str(tmp_path), "--no-progress", "--save-games", str(d3))
    assert len(list(d3.glob("*.json"))) == 6
    d4 = tmp_path / "tournament"
    _invoke("tournament", "--agents", "random,heuristic", "--decks", "starter_green,starter_red", "-n", "2",
            "--workers", "1", "--resamples", "5", "--out", str(tmp_path), "--no-progress",
            "--save-games", str(d4), "--only-losses-of", "heuristic")
    for f in d4.glob("*.json"):
        r = Replay.load(f)
        assert r.agents[1 - r.winner] == "heuristic"


@pytest.mark.parametrize(("args", "message"), [
    (["--only-losses-of", "random"], "--only-losses-of needs --save-games DIR"),
    (["--save-games", "x", "--only-losses-of", "mcts"], "--only-losses-of 'mcts' is not an agent of this run"),
])
def test_save_games_options_are_checked(args: list[str], message: str) -> None:
    out = _invoke("matchup", "starter_green", "starter_red", "-n", "2", "--no-progress", *args, code=2)
    assert out.strip() == f"error: {message}; agents: heuristic" or out.strip() == f"error: {message}"
