"""Multiplayer pods (``mtg-env pod``, :func:`mtg_env.sim.pod.run_pod`): seat rotation, the tables
per deck and per seat, files, agents that play a multiplayer game, one-line errors.

Rules: 2012 806 (Free-for-All), 800.4 (the game goes on until one player remains), 802-803 (the
attack options)."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from mtg_env import MtgError
from mtg_env.cli import app
from mtg_env.sim.pod import run_pod

THREE = ["starter_green", "starter_red", "starter_white"]
runner = CliRunner()


def test_every_deck_sits_in_every_seat_equally_often() -> None:
    r = run_pod(THREE, games=5, agents="random", workers=1, max_turns=40)
    assert len(r.results) == 6  # rounded up to whole rotations of three
    seats = Counter((deck, s) for g in r.results for s, deck in enumerate(g.seats))
    assert set(seats.values()) == {2} and len(seats) == 9
    rows = r.deck_rows()
    assert [row["deck"] for row in rows] == THREE
    assert sum(row["wins"] for row in rows) + r.draws + r.errors == 6
    assert r.errors == 0
    for g in r.played:
        if g.winner is not None:
            assert g.seats[g.winner_seat] == g.winner
            assert len(g.out_order) == 2 and g.winner not in g.out_order


def test_pods_are_reproducible_across_workers() -> None:
    a = run_pod(THREE, games=3, agents="heuristic", workers=1, max_turns=40, attack="multiple")
    b = run_pod(THREE, games=3, agents="heuristic", workers=2, max_turns=40, attack="multiple")
    assert a.results == b.results
    assert all(g.error is None for g in a.results)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"decks": THREE[:2]}, "3 to 6 decks"),
    ({"decks": THREE, "agents": "goldfish"}, "two-player games only"),
    ({"decks": THREE, "attack": "up"}, "unknown attack option"),
    ({"decks": [*THREE, "starter_green"]}, "distinct names"),
    ({"decks": THREE, "agents": ["random", "random"]}, "one agent for every seat"),
])
def test_bad_pods_are_refused_before_any_game(kwargs: dict, message: str) -> None:
    with pytest.raises(MtgError, match=message):
        run_pod(**{"games": 3, "workers": 1, **kwargs})


def test_pod_command_prints_the_tables_and_writes_files(tmp_path) -> None:
    res = runner.invoke(app, ["pod", *THREE, "starter_blue_black", "-n", "4", "--workers", "1",
                              "--attack", "right", "--json", str(tmp_path / "p.json"), "--csv",
                              str(tmp_path / "p.csv"), "--no-progress", "--max-turns", "40"])
    assert res.exit_code == 0, res.output + repr(res.exception)
    for text in ("Free-for-All pod of 4 (attack right)", "win rate (95% Wilson)",
                 "0 (plays first)", "an even table gives each deck 25.0%"):
        assert text in res.output
    data = json.loads((tmp_path / "p.json").read_text())
    assert data["games"] == 4 and len(data["by_deck"]) == 4 and len(data["by_seat"]) == 4
    with open(tmp_path / "p.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 4 and rows[0]["seat_3"]


@pytest.mark.parametrize(("args", "message"), [
    (["starter_green", "starter_red"], "a pod needs 3 to 6 decks"),
    ([*THREE, "--agent", "goldfish"], "two-player games only"),
    ([*THREE, "--attack", "sideways"], "unknown attack option"),
])
def test_pod_command_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["pod", *args, "--no-progress"])
    assert res.exit_code == 2, res.output
    assert res.output.strip().startswith("error:") and message in res.output


def test_the_strict_heuristic_plays_full_set_decks_at_a_five_player_table() -> None:
    # Text changes, control changes, tokens and landwalk at a table of five: the heuristic reads
    # every seat (a strict agent raises where a lenient one would fall back to a default move).
    from pathlib import Path

    from agents import HeuristicAgent
    from mtg_env.sim.decks import load_deck
    from mtg_env.sim.runner import play_game

    unseen = Path(__file__).resolve().parents[2] / "benchmarks" / "decks_unseen"
    decks = [load_deck(str(unseen / f"{n}.txt")) for n in
             ("borrowed_armies", "goblin_foundry", "mind_bender", "persuasion_control", "token_swarm")]
    for seed in range(2):
        g = play_game(decks, [HeuristicAgent(strict=True) for _ in decks], seed, 100,
                      game_args={"options": {"attack": "multiple"}})
        assert g.is_over


# --- Two-Headed Giant pods (2012 810) --------------------------------------------------------

FOUR = [*THREE, "starter_blue_black"]


def test_a_giant_pod_swaps_the_teams_and_the_teammates_seats() -> None:
    # 810.3: a team sits together (seats 0-1 or 2-3); 810.6: seats 0-1 play first here, so each
    # team plays first in half the games.
    r = run_pod(FOUR, games=4, agents="random", workers=1, max_turns=40,
                variant="two_headed_giant")
    assert [g.seats for g in r.results] == [
        ("starter_green", "starter_red", "starter_white", "starter_blue_black"),
        ("starter_white", "starter_blue_black", "starter_green", "starter_red"),
        ("starter_red", "starter_green", "starter_blue_black", "starter_white"),
        ("starter_blue_black", "starter_white", "starter_red", "starter_green")]
    assert r.teams == [("starter_green", "starter_red"), ("starter_white", "starter_blue_black")]
    for g in r.played:
        if g.winner is not None:  # 810.8a: a team wins together
            assert set(g.winners) in ({"starter_green", "starter_red"},
                                      {"starter_white", "starter_blue_black"})
    rows = {row["team"]: row for row in r.team_rows()}
    assert sum(row["wins"] for row in rows.values()) + r.draws + r.errors == 4
    decks = {row["deck"]: row["wins"] for row in r.deck_rows()}
    assert decks["starter_green"] == decks["starter_red"] == rows["starter_green + starter_red"]["wins"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"decks": THREE}, "needs four decks"),
    ({"decks": FOUR, "attack": "left"}, "attack option is for Free-for-All"),
    ({"decks": FOUR, "variant": "monarch"}, "unknown pod variant"),
])
def test_bad_giant_pods_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(MtgError, match=message):
        run_pod(**{"games": 4, "workers": 1, "variant": "two_headed_giant", **kwargs})


def test_giant_pod_command_prints_the_team_table(tmp_path) -> None:
    res = runner.invoke(app, ["pod", *FOUR, "--variant", "two_headed_giant", "-n", "4",
                              "--workers", "1", "--json", str(tmp_path / "g.json"),
                              "--no-progress", "--max-turns", "40"])
    assert res.exit_code == 0, res.output + repr(res.exception)
    for text in ("Two-Headed Giant", "starter_green + starter_red against", "seats 0-1 (plays first)",
                 "each team 50.0%"):
        assert text in res.output
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["variant"] == "two_headed_giant" and len(data["by_team"]) == 2


def test_the_strict_heuristic_plays_full_set_decks_in_two_headed_giant() -> None:
    # Shared turns, the combined attack and block, the choice of defending player to damage:
    # the heuristic decides every one without falling back to a default move.
    from pathlib import Path

    from agents import HeuristicAgent
    from mtg_env.sim.decks import load_deck
    from mtg_env.sim.runner import play_game

    unseen = Path(__file__).resolve().parents[2] / "benchmarks" / "decks_unseen"
    decks = [load_deck(str(unseen / f"{n}.txt")) for n in
             ("borrowed_armies", "goblin_foundry", "mind_bender", "token_swarm")]
    for seed in range(2):
        g = play_game(decks, [HeuristicAgent(strict=True) for _ in decks], seed, 100,
                      game_args={"variant": "two_headed_giant"})
        assert g.is_over


def test_an_emperor_pod_swaps_sides_and_generals() -> None:
    # 2012 809: two teams of three, the second deck of each team its emperor (seats 1 and 4);
    # the emperor in seat 1 goes first, so each team starts half the games.
    six = ["white_weenie", "green_ramp", "red_burn", "blue_fliers", "black_removal",
           "red_green_beats"]
    r = run_pod(six, games=4, agents="random", workers=1, max_turns=30, variant="emperor")
    assert [g.seats[1] for g in r.results] == ["green_ramp", "black_removal", "green_ramp",
                                              "black_removal"]
    assert [g.seats[0] for g in r.results] == ["white_weenie", "blue_fliers", "red_burn",
                                              "red_green_beats"]
    assert r.teams == [tuple(six[:3]), tuple(six[3:])]
    for g in r.played:
        if g.winner is not None:
            assert set(g.winners) in (set(six[:3]), set(six[3:]))
    with pytest.raises(MtgError, match="an Emperor pod needs six decks"):
        run_pod(six[:4], games=4, workers=1, variant="emperor")
